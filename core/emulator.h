// core/emulator.h — the CPU SIMT emulator: runs a schedule with real warp semantics into a Trace.
#pragma once
#include <string>
#include <vector>
#include "core/error.h"
#include "core/input.h"
#include "core/trace.h"

namespace rl {

struct EmulatorOptions {
    // Orders the hardware decides, replayed from a GPU trace; empty means the emulator's own order
    // (atomics in emission order: block by block, step by step, thread by thread; tickets by block).
    std::vector<uint32_t> atomic_positions;  // position of each atomic, listed in emission order
    std::vector<uint32_t> tickets;           // last-block-done ticket drawn by each block
    uint64_t max_trace_bytes = 0;            // 0: half of this machine's physical memory
};

// Traces keep their inputs for JSON export up to this many elements.
constexpr uint64_t kTraceInputsLimit = 1u << 20;

struct TraceEstimate {
    uint64_t events;  // upper bound
    uint64_t bytes;   // events, times and inputs together
};
TraceEstimate estimate_trace(const Schedule& s);
uint64_t default_trace_limit_bytes();
// Empty when the schedule can be traced within max_bytes, else a one-line reason with how to shrink it.
std::string check_traceable(const Schedule& s, uint64_t max_bytes = 0);

// Runs the schedule on the given input (validated first; throws rl::Error on bad input).
Trace emulate(const Schedule& s, const InputData& input, const EmulatorOptions& options = {});
Trace emulate(const Schedule& s);

// The packed identity the kernels start from (0 under the wrong-identity bug).
uint64_t identity_bits(const Schedule& s);

// The reference result: exact sum, double-precision product, exact max/min/argmax, [0, n-1] witness.
void fill_reference(Trace& t, const InputData& input);

}  // namespace rl
