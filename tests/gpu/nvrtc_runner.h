// tests/gpu/nvrtc_runner.h — compiles a generated kernel (codegen/) with NVRTC for this GPU and runs it
// on a schedule's input through the driver API, as a student's copy of `rlab kernel` would run.
#pragma once
#include <cstdint>
#include <string>

#include "core/input.h"
#include "core/schedule.h"

namespace rl::test {

struct GeneratedRun {
    bool ran = false;      // false: not run, `why` says why (a cooperative grid this GPU cannot hold)
    uint64_t bits = 0;     // the output value's bits, zero-extended to 8 bytes (as a trace packs values)
    std::string why;
};

// Throws std::runtime_error with NVRTC's log or the failing driver call; a kernel that does not finish
// within `seconds` throws rl::DeviceHung (the context is lost: the caller ends the process).
GeneratedRun run_generated(const Schedule& s, const InputData& in, double seconds = 20.0);

// Bytes of the schedule's operator value (4, or 8 for f64 and the two-part operators).
unsigned value_bytes(const Schedule& s);

}  // namespace rl::test
