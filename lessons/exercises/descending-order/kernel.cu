// Exercise descending-order: a warp tree whose offsets go from 16 down to 1, run with an operator whose
// order matters (--op witness checks that every merge joins neighbouring ranges, left before right).
#include <rlab/kernel.h>

RL_KERNEL void ordered_reduce(rl::In<float> in, rl::Out<float> out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = i < n ? in[i] : rl::identity<float>();
    for (int offset = 16; offset > 0; offset /= 2)
        v = v + __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
