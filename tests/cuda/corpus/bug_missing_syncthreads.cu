// Classroom bug: kernel 3's tree (Harris) without the __syncthreads() between its levels: a warp reads what another warp is still writing.
__global__ void missing_barrier(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) buf[t] += buf[t + half];
        // the bug: no __syncthreads() here
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}
