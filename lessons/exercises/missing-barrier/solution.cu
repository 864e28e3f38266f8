// Solution of missing-barrier: every level ends with a barrier that all threads of the block reach.

__global__ void tree_sum(const float* in, float* out, int n) {
    __shared__ float s[128];                             // one slot per thread (blocks of up to 128)
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;                         // 0 adds nothing: the threads past n bring it
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();                                 // outside the if: every thread reaches it
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
