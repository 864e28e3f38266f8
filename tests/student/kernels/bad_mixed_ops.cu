// Two operators in one reduction: each warp sums with +, the block keeps the max of the warps' sums.
#include <rlab/kernel.h>

RL_KERNEL void bad_mixed_ops(rl::In<float> in, rl::Out<float> out, int n) {
    unsigned t = threadIdx.x;
    auto v = t < (unsigned)n ? in[t] : rl::identity<float>();
    for (int offset = 16; offset > 0; offset /= 2) v = v + __shfl_down_sync(0xffffffff, v, offset);
    if (t % 32 == 0) atomicMax(&out[0], v);
}
