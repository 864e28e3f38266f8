// Every block adds its sum into out[0] with `*out += s[0]` instead of atomicAdd: a load and a store that race between blocks.
__global__ void block_sum_add(const int* in, int* out, unsigned int n) {
    extern __shared__ int s[];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {  // blockDim.x a power of two
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) *out += s[0];  // the bug: a read-modify-write of one element by every block, not atomicAdd
}
