// Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), kernel 3: sequential addressing (halves of the block, reversed loop): conflict free, half the threads idle from the first step.
__global__ void harris3(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * blockDim.x + t;
    partial[t] = g_in[gi];  // as in the slides: no bound check, n is a multiple of the block
    __syncthreads();

    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }

    if (t == 0) g_out[blockIdx.x] = partial[0];
}
