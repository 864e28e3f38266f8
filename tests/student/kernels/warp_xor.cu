// A student's warp-shuffle reduction: xor butterflies within each warp (masked to the lanes that exist),
// the warps' partials through shared memory, one partial per block (the lab's second launch finishes).
#include <rlab/kernel.h>

RL_KERNEL void warp_xor(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> partial;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int lanes = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;  // a partial last warp
    unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    auto v = i < n ? in[i] : rl::identity<float>();
    for (int offset = 1; offset < 32; offset *= 2) {
        auto other = __shfl_xor_sync(mask, v, offset);
        if ((lane ^ offset) < lanes) v = v + other;
    }
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        auto total = partial[0];
        for (int w = 1; w < (int)(blockDim.x + 31) / 32; ++w) total = total + partial[w];
        out[blockIdx.x] = total;
    }
}
