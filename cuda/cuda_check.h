// cuda/cuda_check.h — the one CUDA error check: a failed runtime call becomes rl::Error naming the
// call and CUDA's message (callers report it in one line and exit 2).
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "core/error.h"

namespace rl::cuda {

inline void check(cudaError_t err, const char* call) {
    if (err != cudaSuccess) throw Error(std::string("CUDA: ") + call + " failed: " + cudaGetErrorString(err));
}

}  // namespace rl::cuda

#define RL_CUDA(call) ::rl::cuda::check((call), #call)
