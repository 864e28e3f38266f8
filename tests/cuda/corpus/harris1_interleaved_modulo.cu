// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 1: interleaved addressing, the active thread chosen by tid % (2*s): divergent warps and a slow modulo.
__global__ void harris1(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * blockDim.x + t;
    partial[t] = g_in[gi];  // as in the slides: no bound check, n is a multiple of the block
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0) partial[t] += partial[t + stride];
        __syncthreads();
    }

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
