// student/cuda_backend.h — the runner's `--backend cuda` hook: kgpu implements make_cuda_backend in cuda/ (NVRTC
// + the driver API); the runner calls it only when built with RLAB_HAVE_CUDA.
#pragma once
#include <memory>
#include <string>
#include "student/kernel_backend.h"

namespace rl::student {

struct CudaKernel {
    std::unique_ptr<KernelBackend> backend;  // set when the kernel compiled and a device is there
    bool compile_failed = false;             // NVRTC rejected it: log holds its messages (student/diagnostics.h)
    std::string log;
    std::string error;                       // otherwise, one line (no device, driver error ...)
};

// file: the name messages use; source: its text (the runner read it); time_limit_s: the watchdog's limit.
CudaKernel make_cuda_backend(const std::string& file, const std::string& source, double time_limit_s);

}  // namespace rl::student
