// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 2: interleaved addressing with index = 2*s*tid: no divergence, but shared-memory bank conflicts.
__global__ void harris2(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * blockDim.x + t;
    partial[t] = g_in[gi];  // as in the slides: no bound check, n is a multiple of the block
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int k = 2 * stride * t;
        if (k < blockDim.x) partial[k] += partial[k + stride];
        __syncthreads();
    }

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
