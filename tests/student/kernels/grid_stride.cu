// A student's grid-stride loop: each thread sums every (gridDim.x * blockDim.x)-th element, then the
// block combines its warps with max-safe shuffles down and atomically adds its partial into out[0].
#include <rlab/kernel.h>

RL_KERNEL void grid_stride(rl::In<double> in, rl::Out<double> out, int n) {
    rl::Shared<double, 32> warps;
    auto v = rl::identity<double>();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    int lane = threadIdx.x % 32;
    int lanes = blockDim.x - (threadIdx.x - lane) < 32 ? blockDim.x - (threadIdx.x - lane) : 32;
    unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    for (int offset = 16; offset > 0; offset /= 2) {
        auto other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < lanes) v = v + other;
    }
    if (lane == 0) warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        auto block_sum = warps[0];
        for (unsigned w = 1; w < (blockDim.x + 31) / 32; ++w) block_sum = block_sum + warps[w];
        atomicAdd(&out[0], block_sum);
    }
}
