// Classroom bug: `if (i < n) buf[t] = in[i];` with no else: the tail threads' shared slots are never written, and the tree reads whatever they held.
__global__ void unwritten_tail(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) buf[t] = in[i];  // the bug: no else buf[t] = 0.0f
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) buf[t] += buf[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}
