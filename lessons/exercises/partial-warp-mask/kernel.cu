// Exercise partial-warp-mask: a block of 40 threads reduced warp by warp with full-mask shuffles.

__global__ void partial_warp_sum(const float* in, float* out, int n) {
    __shared__ float warp_sums[32];                      // one slot per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int warps = (blockDim.x + 31) / 32;
        float total = warp_sums[0];
        for (int w = 1; w < warps; ++w) total += warp_sums[w];
        out[blockIdx.x] = total;
    }
}
