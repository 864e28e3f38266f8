// cuda/stream_hold.cu — the spinning kernel behind StreamHold.
#include "cuda/stream_hold.h"

#include <cstdint>

#include "cuda/cuda_check.h"

namespace rl::cuda {
namespace {

__device__ inline uint64_t global_ns() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void hold_stream(const volatile int* release, uint64_t timeout_ns) {
    const uint64_t start = global_ns();
    while (*release == 0 && global_ns() - start < timeout_ns) {
    }
}

}  // namespace

StreamHold::StreamHold() {
    RL_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&release_), sizeof(int), cudaHostAllocMapped));
    if (const cudaError_t e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&release_device_), release_, 0);
        e != cudaSuccess) {
        cudaFreeHost(release_);
        RL_CUDA(e);
    }
}

// An exception between hold() and release() leaves the kernel spinning: let it go before the word is freed (the
// free waits for the device to be done with pinned memory it may still read).
StreamHold::~StreamHold() {
    release();
    cudaFreeHost(release_);
}

void StreamHold::hold(cudaStream_t stream) {
    __atomic_store_n(release_, 0, __ATOMIC_SEQ_CST);
    hold_stream<<<1, 1, 0, stream>>>(release_device_, 1000000);
    RL_CUDA(cudaGetLastError());
}

void StreamHold::release() { __atomic_store_n(release_, 1, __ATOMIC_SEQ_CST); }

}  // namespace rl::cuda
