// The last-block reduction (the CUDA samples' threadFenceReduction): each block's tree sum is stored to
// out[blockIdx.x], fenced, and a ticket drawn from a __device__ counter; the block that draws the last ticket sums
// the partials into out[0]. The fence is on line 18, the ticket (atomicInc) on line 19.
__device__ unsigned int count = 0;
__global__ void last_block(const float* in, float* out, int n) {
    __shared__ float s[256];
    __shared__ bool am_last;
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
        if (t < h) s[t] += s[t + h];
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&count, gridDim.x);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last && t == 0) {
        float total = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) total += out[b];
        out[0] = total;
        count = 0;
    }
}
