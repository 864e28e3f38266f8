// cuda/held_timer.cu — HeldTimer: its stream, events, and the kernel that holds the stream.
#include "cuda/held_timer.h"

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

HeldTimer::HeldTimer() {
    try {
        RL_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        RL_CUDA(cudaEventCreate(&start_));
        RL_CUDA(cudaEventCreate(&stop_));
        RL_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&release_), sizeof(int), cudaHostAllocMapped));
        RL_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&release_device_), release_, 0));
    } catch (...) {
        destroy();
        throw;
    }
}

HeldTimer::~HeldTimer() { destroy(); }

void HeldTimer::destroy() {
    // An exception between the hold and its release leaves the kernel spinning: let it go before the word is freed
    // (the free waits for the device to be done with pinned memory it may still read).
    if (release_) __atomic_store_n(release_, 1, __ATOMIC_SEQ_CST);
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (stream_) cudaStreamDestroy(stream_);
    if (release_) cudaFreeHost(release_);
}

float HeldTimer::time_ms(const std::function<void(cudaStream_t)>& enqueue) {
    __atomic_store_n(release_, 0, __ATOMIC_SEQ_CST);  // the last hold has ended: its stop event was waited on
    hold_stream<<<1, 1, 0, stream_>>>(release_device_, 1000000);
    RL_CUDA(cudaGetLastError());
    RL_CUDA(cudaEventRecord(start_, stream_));
    enqueue(stream_);
    RL_CUDA(cudaEventRecord(stop_, stream_));
    __atomic_store_n(release_, 1, __ATOMIC_SEQ_CST);
    RL_CUDA(cudaEventSynchronize(stop_));
    float ms = 0;
    RL_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
}

}  // namespace rl::cuda
