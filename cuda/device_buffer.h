// cuda/device_buffer.h — device memory owned by one object, and one value read back from it (both GPU timers use them).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/numeric_types.h"
#include "cuda/cuda_check.h"

namespace rl::cuda {

// cudaMalloc'd bytes freed with the object; at least 8 bytes, so that a result word can always be poisoned or read.
struct DeviceMemory {
    void* ptr = nullptr;
    explicit DeviceMemory(size_t bytes) { RL_CUDA(cudaMalloc(&ptr, std::max<size_t>(bytes, 8))); }
    ~DeviceMemory() { cudaFree(ptr); }
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
};

// Bytes of one element of `t` as the GPU stores it.
inline size_t element_bytes(DType t) {
    switch (t) {
        case DType::F64: return 8;
        case DType::BF16:
        case DType::F16: return 2;
        default: return 4;  // f32, i32
    }
}

// The value of type `t` at a device address, read back as a double (exact for f32, i32 and f64's own value).
// Synchronous: cudaMemcpy waits for the work queued before it on the default stream's order.
inline double read_device_value(const void* dptr, DType t) {
    if (t == DType::I32) {
        int32_t v;
        RL_CUDA(cudaMemcpy(&v, dptr, 4, cudaMemcpyDeviceToHost));
        return v;
    }
    if (t == DType::F64) {
        double v;
        RL_CUDA(cudaMemcpy(&v, dptr, 8, cudaMemcpyDeviceToHost));
        return v;
    }
    float v;
    RL_CUDA(cudaMemcpy(&v, dptr, 4, cudaMemcpyDeviceToHost));
    return v;
}

}  // namespace rl::cuda
