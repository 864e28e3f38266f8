// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 5: the last warp unrolled through a volatile pointer with no barrier and no __syncwarp (the pre-Volta warp-synchronous idiom).
__device__ void last_warp(volatile int* p, unsigned int t) {
    p[t] += p[t + 32];
    p[t] += p[t + 16];
    p[t] += p[t + 8];
    p[t] += p[t + 4];
    p[t] += p[t + 2];
    p[t] += p[t + 1];
}

__global__ void harris5(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * (2 * blockDim.x) + t;
    partial[t] = g_in[gi] + g_in[gi + blockDim.x];  // n is a multiple of 2*blockDim; blockDim >= 64
    __syncthreads();

    for (unsigned int half = blockDim.x / 2; half > 32; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t < 32) last_warp(partial, t);

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
