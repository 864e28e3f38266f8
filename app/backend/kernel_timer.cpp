// app/backend/kernel_timer.cpp — rlab run --time's GPU timer when the build has it (RLAB_HAVE_PLAIN_TIMER) and a GPU answers.
#include "app/backend/kernel_timer.h"

#include "app/backend/backend.h"
#ifdef RLAB_HAVE_PLAIN_TIMER
#include "cuda/plain_timer.h"
#endif

namespace rl {

bool kernel_timing_available(std::string* reason) {
#ifndef RLAB_HAVE_PLAIN_TIMER
    if (reason)
        *reason = "this rlab was built without the CUDA backend and NVRTC (build it where nvcc and the CUDA toolkit are "
                  "installed, as scripts/gpu-run.sh does)";
    return false;
#else
    const GpuStatus& gpu = gpu_status();
    if (!gpu.usable && reason) *reason = "no usable GPU (" + gpu.reason + ")";
    return gpu.usable;
#endif
}

KernelTiming time_kernel_on_gpu([[maybe_unused]] const KernelTimingRequest& request) {
    std::string reason;
    if (!kernel_timing_available(&reason))
        throw KernelTimingError(KernelTimingError::BadInput,
                                "--time runs the kernel on a GPU with --backend cuda: " + reason);
#ifdef RLAB_HAVE_PLAIN_TIMER
    return cuda::time_plain_kernel(request);
#else
    throw KernelTimingError(KernelTimingError::BadInput, reason);
#endif
}

}  // namespace rl
