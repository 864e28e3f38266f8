// tests/cuda_frontend/kernels/warp_shuffle_reduce.cu — the warp-shuffle reduction of NVIDIA's "Faster Parallel
// Reductions on Kepler" blog post, written afresh for the lab's front-end tests: a warp sum by __shfl_down_sync,
// a block sum through one shared slot per warp, a grid-stride kernel, and the variant that ends in atomicAdd.
#include <cuda_runtime.h>

__inline__ __device__ int warp_sum(int value) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffff, value, offset);
    return value;
}

__inline__ __device__ int block_sum(int value) {
    static __shared__ int per_warp[32];
    const int lane = threadIdx.x % warpSize;
    const int warp = threadIdx.x / warpSize;
    value = warp_sum(value);
    if (lane == 0) per_warp[warp] = value;
    __syncthreads();
    value = threadIdx.x < blockDim.x / warpSize ? per_warp[lane] : 0;
    if (warp == 0) value = warp_sum(value);
    return value;
}

__global__ void device_reduce(const int* in, int* out, int n) {
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void device_reduce_atomic(const int* in, int* out, int n) {
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warp_sum(sum);
    if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, sum);
}

void reduce_on_device(const int* in, int* out, int* partial, int n) {
    const int threads = 512;
    const int blocks = n / threads < 1024 ? (n + threads - 1) / threads : 1024;
    device_reduce<<<blocks, threads>>>(in, partial, n);
    device_reduce<<<1, 1024>>>(partial, out, blocks);
}
