// A barrier only the lower half-warp reaches, then a full-mask shuffle the upper half waits at: the lower
// lanes wait at the barrier for threads that wait at the shuffle for them. On a GPU this hangs.
#include <rlab/kernel.h>

RL_KERNEL void bad_barrier_hang(rl::In<float> in, rl::Out<float> out, int n) {
    unsigned t = threadIdx.x;
    auto v = t < (unsigned)n ? in[t] : rl::identity<float>();
    if (t < 16) __syncthreads();
    v = v + __shfl_down_sync(0xffffffff, v, 16);
    if (t == 0) out[0] = v;
}
