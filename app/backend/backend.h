// app/backend/backend.h — picks the CPU emulator or the CUDA backend and runs a schedule on it.
#pragma once
#include <string>
#include <string_view>
#include "core/trace.h"

namespace rl {

enum class BackendChoice { Auto, Cpu, Cuda };
bool parse_backend(std::string_view s, BackendChoice& out);

struct GpuStatus {
    bool usable = false;
    std::string name;     // device name when usable
    std::string reason;   // one line when not usable
};
// Whether a CUDA device can be used (cached after the first call).
const GpuStatus& gpu_status();

struct BackendRun {
    Trace trace;
    std::string note;  // e.g. "no usable GPU (...): using the CPU emulator"
};

// Runs the schedule on the chosen backend; throws rl::Error on bad input or when cuda is forced
// but unavailable. Auto uses the GPU when one is usable, else the emulator.
// race_delay_ns (GPU only): producer warps sleep this long before their shared-memory stores,
// so that races under the barrier bugs show up on the hardware.
BackendRun run_backend(const Schedule& s, BackendChoice choice, uint32_t race_delay_ns = 0);

}  // namespace rl
