// app/backend/kernel_timer.h — a plain CUDA kernel timed on the GPU (rlab run --time) when this build and machine
// can: the lab built with CUDA and NVRTC, and a usable GPU. Only core types cross it.
#pragma once
#include <string>
#include "core/kernel_timing.h"

namespace rl {

// Whether time_kernel_on_gpu can run here; `reason` names what is missing in one line.
bool kernel_timing_available(std::string* reason = nullptr);

// cuda/plain_timer.h's time_plain_kernel; throws KernelTimingError(BadInput) naming what is missing when it cannot run.
KernelTiming time_kernel_on_gpu(const KernelTimingRequest& request);

}  // namespace rl
