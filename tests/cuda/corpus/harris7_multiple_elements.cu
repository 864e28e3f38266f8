// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 7: several elements per thread (a grid-stride loop, gridSize = blockSize*2*gridDim.x), then kernel 6's unrolled tree.
template <unsigned int blockSize>
__device__ void last_warp(volatile int* p, unsigned int t) {
    if (blockSize >= 64) p[t] += p[t + 32];
    if (blockSize >= 32) p[t] += p[t + 16];
    if (blockSize >= 16) p[t] += p[t + 8];
    if (blockSize >= 8) p[t] += p[t + 4];
    if (blockSize >= 4) p[t] += p[t + 2];
    if (blockSize >= 2) p[t] += p[t + 1];
}

template <unsigned int blockSize>
__global__ void harris7(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * (2 * blockSize) + t;
    unsigned int gridSize = 2 * blockSize * gridDim.x;
    partial[t] = 0;
    while (gi < n) {  // n is a multiple of 2*blockSize, as in the slides
        partial[t] += g_in[gi] + g_in[gi + blockSize];
        gi += gridSize;
    }
    __syncthreads();

    if (blockSize >= 512) {
        if (t < 256) partial[t] += partial[t + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (t < 128) partial[t] += partial[t + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (t < 64) partial[t] += partial[t + 64];
        __syncthreads();
    }
    if (t < 32) last_warp<blockSize>(partial, t);

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
