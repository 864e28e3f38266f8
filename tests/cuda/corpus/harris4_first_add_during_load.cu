// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 4: first add during global load, each block reads 2*blockDim elements, then kernel 3's tree.
__global__ void harris4(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * (2 * blockDim.x) + t;
    partial[t] = g_in[gi] + g_in[gi + blockDim.x];  // as in the slides: n is a multiple of 2*blockDim
    __syncthreads();

    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
