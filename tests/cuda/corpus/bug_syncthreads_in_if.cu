// Classroom bug: kernel 3's tree (Harris) with __syncthreads() moved inside `if (t < half)`, so only the active threads reach it: a barrier in conditional code that is not the same for the whole block.
__global__ void barrier_in_if(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) {
            buf[t] += buf[t + half];
            __syncthreads();  // the bug: reached only by threads t < half
        }
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}
