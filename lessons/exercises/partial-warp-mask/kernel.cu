// Exercise partial-warp-mask: a block of 40 threads reduced warp by warp with full-mask shuffles.
#include <rlab/kernel.h>

RL_KERNEL void partial_warp_sum(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> warp_sums;                     // one slot per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = i < n ? in[i] : rl::identity<float>();
    for (int offset = 16; offset > 0; offset /= 2)
        v = v + __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int warps = (blockDim.x + 31) / 32;
        auto total = warp_sums[0];
        for (int w = 1; w < warps; ++w) total = total + warp_sums[w];
        out[blockIdx.x] = total;
    }
}
