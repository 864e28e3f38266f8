// Classroom bug: kernel 3's tree (Harris) with an unsigned counter tested `half >= 0`, always true: once half reaches 0 the loop spins on __syncthreads() forever.
__global__ void endless_tree(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half >= 0; half >>= 1) {  // the bug: unsigned >= 0 never fails
        if (t < half) buf[t] += buf[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}
