// CUDA samples' threadFenceReduction and the Programming Guide's memory fence example: each block stores its partial, __threadfence(), draws a ticket by atomicInc on a __device__ counter; the last block sums the partials.
__device__ unsigned int blocks_done = 0;

__global__ void fence_reduce(const float* in, float* out, unsigned int n) {
    extern __shared__ float buf[];
    __shared__ bool is_last;
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {  // blockDim.x a power of two
        if (t < half) buf[t] += buf[t + half];
        __syncthreads();
    }

    if (t == 0) {
        out[blockIdx.x] = buf[0];
        __threadfence();  // the partial is visible to every block before the ticket is drawn
        unsigned int ticket = atomicInc(&blocks_done, gridDim.x);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (is_last) {  // the same for the whole block: the barriers below are uniform
        const volatile float* partials = out;
        float acc = 0.0f;
        for (unsigned int b = t; b < gridDim.x; b += blockDim.x) acc += partials[b];
        buf[t] = acc;
        __syncthreads();
        for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
            if (t < half) buf[t] += buf[t + half];
            __syncthreads();
        }
        if (t == 0) {
            out[0] = buf[0];
            blocks_done = 0;  // ready for the next launch
        }
    }
}
