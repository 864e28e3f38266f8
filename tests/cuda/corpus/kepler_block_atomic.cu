// NVIDIA developer blog, Luitjens, "Faster Parallel Reductions on Kepler" (2014), the block-atomic variant: grid-stride sum, blockReduceSum (warp shuffles, 32 warp sums in shared memory), thread 0 does atomicAdd(out, sum).
__inline__ __device__ int warp_reduce_sum(int v) {
    for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

__inline__ __device__ int block_reduce_sum(int v) {
    static __shared__ int warp_sums[32];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / warpSize) ? warp_sums[lane] : 0;  // blockDim.x is a multiple of 32
    if (warp == 0) v = warp_reduce_sum(v);
    return v;
}

__global__ void block_atomic_reduce(int* in, int* out, int n) {
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
    sum = block_reduce_sum(sum);
    if (threadIdx.x == 0) atomicAdd(out, sum);
}
