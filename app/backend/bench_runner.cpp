// app/backend/bench_runner.cpp — GPU measurements when this build has CUDA and a GPU answers.
#include "app/backend/bench_runner.h"

#include "app/backend/backend.h"
#include "core/emulator.h"  // rl::Error
#ifdef RLAB_HAVE_CUDA
#include "cuda/bench_api.h"
#endif

namespace rl {

bool gpu_bench_available(std::string* reason) {
    const GpuStatus& gpu = gpu_status();
    if (!gpu.usable && reason) *reason = gpu.reason;
    return gpu.usable;
}

BenchReport run_gpu_bench([[maybe_unused]] const BenchOptions& options) {
    std::string reason;
    if (!gpu_bench_available(&reason)) throw Error("no GPU to measure on: " + reason);
#ifdef RLAB_HAVE_CUDA
    return cuda::run_bench(options);
#else
    throw Error("no GPU to measure on: this build has no CUDA backend");
#endif
}

}  // namespace rl
