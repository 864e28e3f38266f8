// cuda/plain_timer.h — `rlab run FILE.cu --backend cuda --time`: a plain CUDA file's kernel (or launch plan) run
// uninstrumented on the GPU as the launch contract says, timed warm as the fast path is, every repetition's out[0]
// checked against the exact host reference, beside the fast path and CUB on the same input in the same process.
// Only core types cross this header (the request and result are core/kernel_timing.h's).
#pragma once
#include "core/kernel_timing.h"

namespace rl::cuda {

// Throws KernelTimingError (BadInput, Compile, Program); a hang ends the process (exit 1, one line on stderr).
KernelTiming time_plain_kernel(const KernelTimingRequest& request);

}  // namespace rl::cuda
