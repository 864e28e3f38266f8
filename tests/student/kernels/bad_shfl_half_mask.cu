// Half a warp shuffles down by 8 with the mask of its own lanes (0-15): lanes 0-7 read lanes 8-15, which take part;
// lanes 8-15 read lanes 16-23, which the mask leaves out and which never call the shuffle: they get undefined values.
#include <rlab/kernel.h>

RL_KERNEL void bad_shfl_half_mask(rl::In<float> in, rl::Out<float> out, int n) {
    unsigned t = threadIdx.x;
    auto v = t < (unsigned)n ? in[t] : rl::identity<float>();
    if (t % 32 < 16) {
        auto other = __shfl_down_sync(0x0000ffffu, v, 8);
        v = v + other;
    }
    if (t == 0) out[0] = v;
}
