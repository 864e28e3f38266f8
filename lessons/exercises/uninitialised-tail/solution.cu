// Solution of uninitialised-tail: the lanes without an element start from the identity of a sum, 0.

__global__ void tail_sum(const float* in, float* out, int n) {
    __shared__ float warp_sums[32];                      // one slot per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;                      // 0 for a sum: it changes nothing
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = warp_sums[0];
        for (int w = 1; w < (int)(blockDim.x + 31) / 32; ++w) total += warp_sums[w];
        out[blockIdx.x] = total;
    }
}
