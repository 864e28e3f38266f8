// include/rlab/cuda/rlab_runtime_api.h — the CUDA runtime API a student's host code calls (cudaMalloc, cudaMemcpy,
// events, errors, device properties) and what clang needs for `kernel<<<grid, block, shared>>>(...)`. Declared
// only: a program with main() runs against the lab's own definitions (student/cuda_runtime_lab.cpp, which names
// the C++ symbols of __cudaPushCallConfiguration and cudaConfigureCall below: change their parameters together).
#pragma once

#include <stddef.h>

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchFailure = 719,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
};

enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
};

typedef struct CUstream_st* cudaStream_t;

// A program with main() that the lab runs (student/host_program.cpp compiles its host side with __RLAB_HOST_PROGRAM)
// reaches the lab's own runtime: what it does not run is an error at the student's line. The device-side compile
// only parses host code, so there these stay plain declarations.
#ifdef __RLAB_HOST_PROGRAM
#define __RLAB_PROGRAM_NO(WHAT, INSTEAD)                                                                 \
    __attribute__((unavailable(WHAT " not supported in a program the lab runs; " INSTEAD                \
                               " (the lab runs cudaMalloc, cudaFree, cudaMemcpy, cudaMemset, "          \
                               "cudaDeviceSynchronize, cudaGetLastError and <<< >>> launches: docs/plain-cuda.md)")))
#else
#define __RLAB_PROGRAM_NO(WHAT, INSTEAD)
#endif
#define __RLAB_NO_MANAGED __RLAB_PROGRAM_NO("managed memory (cudaMallocManaged) is", "use cudaMalloc and cudaMemcpy")
#define __RLAB_NO_EVENTS \
    __RLAB_PROGRAM_NO("events are", "the lab times kernels itself (rlab run --backend cuda --time)")
#define __RLAB_NO_SYMBOLS \
    __RLAB_PROGRAM_NO("copies to and from __device__ variables are", "pass a cudaMalloc'ed buffer to the kernel")
#define __RLAB_NO_STREAMS __RLAB_PROGRAM_NO("streams are", "use the default stream (0)")
typedef struct CUevent_st* cudaEvent_t;

#define cudaMemAttachGlobal 0x01
#define cudaHostAllocDefault 0x00
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int cooperativeLaunch;
};

extern "C" {
cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) __RLAB_NO_MANAGED;
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream = 0);
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) __RLAB_NO_SYMBOLS;
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) __RLAB_NO_SYMBOLS;
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaEventCreate(cudaEvent_t* event) __RLAB_NO_EVENTS;
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) __RLAB_NO_EVENTS;
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0) __RLAB_NO_EVENTS;
cudaError_t cudaEventSynchronize(cudaEvent_t event) __RLAB_NO_EVENTS;
cudaError_t cudaEventQuery(cudaEvent_t event) __RLAB_NO_EVENTS;
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) __RLAB_NO_EVENTS;
cudaError_t cudaEventDestroy(cudaEvent_t event) __RLAB_NO_EVENTS;
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream) __RLAB_NO_STREAMS;
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t sharedMem,
                             cudaStream_t stream);
}

// The typed forms cuda_runtime.h adds for C++.
template <class T>
cudaError_t cudaMalloc(T** devPtr, size_t size) { return cudaMalloc(reinterpret_cast<void**>(devPtr), size); }
template <class T>
cudaError_t cudaMallocManaged(T** devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) __RLAB_NO_MANAGED {
    return cudaMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t size) { return cudaMallocHost(reinterpret_cast<void**>(ptr), size); }
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) __RLAB_NO_SYMBOLS {
    return cudaMemcpyToSymbol(reinterpret_cast<const void*>(&symbol), src, count, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) __RLAB_NO_SYMBOLS {
    return cudaMemcpyFromSymbol(dst, reinterpret_cast<const void*>(&symbol), count, offset, kind);
}

// The fourth launch argument: the default stream only (0, NULL, nullptr). A stream variable picks the unavailable
// constructor, so clang reports the launch at the student's own line.
struct __rlab_default_stream {
    __rlab_default_stream(int) {}
    __rlab_default_stream(long) {}
    __rlab_default_stream(decltype(nullptr)) {}
    __rlab_default_stream(cudaStream_t) __attribute__((unavailable(
        "a kernel launch on a stream is not supported in the lab; launch on the default stream: "
        "kernel<<<grid, block, sharedBytes>>>(...)")));
};

// `<<< >>>`: clang calls cudaConfigureCall, or __cudaPushCallConfiguration when it believes CUDA >= 9.2 is installed.
int cudaConfigureCall(dim3 grid, dim3 block, size_t sharedMem = 0, __rlab_default_stream stream = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem = 0, __rlab_default_stream stream = 0);
