// Solution of partial-warp-mask: a lane adds what it reads only when the source lane was launched.

__global__ void partial_warp_sum(const float* in, float* out, int n) {
    __shared__ float warp_sums[32];                      // one slot per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int first = threadIdx.x - lane;                      // the warp's first thread
    int launched = min(32, (int)blockDim.x - first);     // lanes this warp has
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_down_sync(0xffffffff, v, offset);  // naming unlaunched lanes is allowed...
        if (lane + offset < launched) v += other;        // ...using what they "return" is not
    }
    if (lane == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int warps = (blockDim.x + 31) / 32;
        float total = warp_sums[0];
        for (int w = 1; w < warps; ++w) total += warp_sums[w];
        out[blockIdx.x] = total;
    }
}
