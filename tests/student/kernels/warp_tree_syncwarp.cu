// A student's shared-memory tree inside each warp: every step halves the lanes that add, and __syncwarp(mask) waits
// only for those lanes; the lanes done go on to the block's barrier and never arrive at it. Thread 0 then adds the
// warps' sums. A block of 32 or 64 threads.
#include <rlab/kernel.h>

RL_KERNEL void warp_tree_syncwarp(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 64> s;
    unsigned t = threadIdx.x, lane = t % 32;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : rl::identity<float>();
    __syncwarp();
    for (unsigned half = 16; half > 0; half /= 2) {
        if (lane < half) {
            s[t] = s[t] + s[t + half];
            __syncwarp((1u << half) - 1);  // the lanes still adding: lanes half..31 wait at the barrier below
        }
    }
    __syncthreads();
    if (t == 0) {
        auto total = s[0];
        for (unsigned w = 32; w < blockDim.x; w += 32) total = total + s[w];
        out[blockIdx.x] = total;
    }
}
