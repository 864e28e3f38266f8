// Solution of partial-warp-mask: a lane adds what it reads only when the source lane was launched.
#include <rlab/kernel.h>

RL_KERNEL void partial_warp_sum(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> warp_sums;                     // one slot per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int first = threadIdx.x - lane;                      // the warp's first thread
    int launched = blockDim.x - first < 32 ? blockDim.x - first : 32;  // lanes this warp has
    auto v = i < n ? in[i] : rl::identity<float>();
    for (int offset = 16; offset > 0; offset /= 2) {
        auto other = __shfl_down_sync(0xffffffff, v, offset);  // naming unlaunched lanes is allowed...
        if (lane + offset < launched) v = v + other;     // ...using what they "return" is not
    }
    if (lane == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        int warps = (blockDim.x + 31) / 32;
        auto total = warp_sums[0];
        for (int w = 1; w < warps; ++w) total = total + warp_sums[w];
        out[blockIdx.x] = total;
    }
}
