// Every block stores its sum to out[0] with a plain store: blocks of one launch race on one global element.
__global__ void block_sum_store(const float* in, float* out, unsigned int n) {
    extern __shared__ float s[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {  // blockDim.x a power of two
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];  // the bug: every block writes the same element, nothing orders the blocks
}
