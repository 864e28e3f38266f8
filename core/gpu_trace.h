// core/gpu_trace.h — the host side of GPU traces: slot records (core/gpu_record.h) into a checked
// Trace. Compaction, the atomics' order from the values they replaced, tickets, the result; any
// record that cannot come from a correct recorder is refused with rl::Error. No CUDA here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
#include "core/gpu_record.h"
#include "core/input.h"
#include "core/trace.h"

namespace rl {

// What the host planned for the launch, beside the records themselves.
struct GpuLaunchShape {
    uint32_t grid = 0;                        // blocks of the first pass
    uint16_t scope_start[4] = {0, 0, 0, 0};   // first step of the thread, warp, block and grid scopes
    uint64_t identity_bits = 0;               // the output word's value before the first atomic
};

// The used slots in slot order, operands renumbered (what the device's compaction does).
std::vector<GpuRecord> compact_slots(const GpuRecord* slots, size_t count);

// Compacted records of schedule `s` into a Trace (backend Cuda, timestamps filled, no hazards).
// Throws rl::Error naming the first record that breaks what the recorder guarantees.
Trace trace_from_gpu_records(const Schedule& s, const GpuLaunchShape& shape, const GpuRecord* records, size_t count,
                             const InputData& input);

// Orders the trace's atomics from the values each replaced (old_bits, one per event): an Eulerian
// trail from `initial` through every atomic; fills dep[0], aux (position), the chain's flags and
// result_event. Throws rl::Error when the values do not form one chain.
void order_atomics(Trace& t, const std::vector<uint64_t>& old_bits, uint64_t initial);

// The hardware-decided orders found in a GPU trace, to replay the emulator in the same order
// (EmulatorOptions::atomic_positions and ::tickets).
std::vector<uint32_t> atomic_positions_of(const Trace& gpu);
std::vector<uint32_t> tickets_of(const Trace& gpu);

}  // namespace rl
