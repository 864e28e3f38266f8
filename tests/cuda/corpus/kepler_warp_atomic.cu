// NVIDIA developer blog, Luitjens, "Faster Parallel Reductions on Kepler" (2014), the warp-atomic variant: grid-stride sum, warpReduceSum by __shfl_down_sync, lane 0 of each warp does atomicAdd(out, sum).
__inline__ __device__ int warp_reduce_sum(int v) {
    for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

__global__ void warp_atomic_reduce(int* in, int* out, int n) {
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
    sum = warp_reduce_sum(sum);
    if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, sum);
}
