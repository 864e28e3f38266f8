// tests/cuda_frontend/kernels/harris_reductions.cu — the seven steps of Mark Harris's "Optimizing Parallel
// Reduction in CUDA", written afresh for the lab's front-end tests, with a host program that launches each.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// 1: interleaved addressing; the modulo leaves most threads of a warp idle (divergence).
__global__ void reduce1(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 2: interleaved addressing with a strided index: no divergence, shared-memory bank conflicts instead.
__global__ void reduce2(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int slot = 2 * stride * t;
        if (slot < blockDim.x) partial[slot] += partial[slot + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 3: sequential addressing: the active threads stay contiguous.
__global__ void reduce3(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 4: the first addition during the load: each block covers twice its size.
__global__ void reduce4(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + t;
    int sum = i < n ? in[i] : 0;
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    partial[t] = sum;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 5: the last warp unrolled, warp-synchronously through volatile shared memory (as the talk did, pre-Volta).
__device__ void last_warp(volatile int* partial, unsigned int t) {
    partial[t] += partial[t + 32];
    partial[t] += partial[t + 16];
    partial[t] += partial[t + 8];
    partial[t] += partial[t + 4];
    partial[t] += partial[t + 2];
    partial[t] += partial[t + 1];
}

__global__ void reduce5(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + t;
    int sum = i < n ? in[i] : 0;
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    partial[t] = sum;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 32; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t < 32) last_warp(partial, t);
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 6: completely unrolled for a block size known at compile time.
template <unsigned int blockSize>
__device__ void last_warp_sized(volatile int* partial, unsigned int t) {
    if (blockSize >= 64) partial[t] += partial[t + 32];
    if (blockSize >= 32) partial[t] += partial[t + 16];
    if (blockSize >= 16) partial[t] += partial[t + 8];
    if (blockSize >= 8) partial[t] += partial[t + 4];
    if (blockSize >= 4) partial[t] += partial[t + 2];
    if (blockSize >= 2) partial[t] += partial[t + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + t;
    int sum = i < n ? in[i] : 0;
    if (i + blockSize < n) sum += in[i + blockSize];
    partial[t] = sum;
    __syncthreads();
    if (blockSize >= 512) { if (t < 256) partial[t] += partial[t + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (t < 128) partial[t] += partial[t + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (t < 64) partial[t] += partial[t + 64]; __syncthreads(); }
    if (t < 32) last_warp_sized<blockSize>(partial, t);
    if (t == 0) out[blockIdx.x] = partial[0];
}

// 7: several elements per thread, a grid-stride loop, then the unrolled tree.
template <unsigned int blockSize>
__global__ void reduce7(const int* in, int* out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + t;
    unsigned int step = blockSize * 2 * gridDim.x;
    int sum = 0;
    while (i < n) {
        sum += in[i];
        if (i + blockSize < n) sum += in[i + blockSize];
        i += step;
    }
    partial[t] = sum;
    __syncthreads();
    if (blockSize >= 512) { if (t < 256) partial[t] += partial[t + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (t < 128) partial[t] += partial[t + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (t < 64) partial[t] += partial[t + 64]; __syncthreads(); }
    if (t < 32) last_warp_sized<blockSize>(partial, t);
    if (t == 0) out[blockIdx.x] = partial[0];
}

int main(int argc, char** argv) {
    const unsigned int n = argc > 1 ? static_cast<unsigned int>(atoi(argv[1])) : 1u << 20;
    const unsigned int threads = 256;
    const unsigned int blocks = (n + threads - 1) / threads;
    int* host = static_cast<int*>(malloc(n * sizeof(int)));
    for (unsigned int k = 0; k < n; ++k) host[k] = 1;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, blocks * sizeof(int));
    cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
    const size_t shared = threads * sizeof(int);
    reduce1<<<blocks, threads, shared>>>(in, out, n);
    reduce2<<<blocks, threads, shared>>>(in, out, n);
    reduce3<<<blocks, threads, shared>>>(in, out, n);
    reduce4<<<blocks / 2, threads, shared>>>(in, out, n);
    reduce5<<<blocks / 2, threads, shared>>>(in, out, n);
    reduce6<threads><<<blocks / 2, threads, shared>>>(in, out, n);
    reduce7<threads><<<64, threads, shared>>>(in, out, n);
    cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(in);
    cudaFree(out);
    free(host);
    return 0;
}
