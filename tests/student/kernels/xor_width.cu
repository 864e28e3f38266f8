// A student's butterflies of width 8: three inside each 8-lane segment leave every lane its segment's sum; then lane
// masks 8 and 16 at the same width, where a lane whose partner lies in an earlier segment reads it and one whose
// partner lies in a later segment keeps its own value (CUDA's rule). Lane 31 ends with the warp's total.
#include <rlab/kernel.h>

RL_KERNEL void xor_width(rl::In<int> in, rl::Out<int> out, int n) {
    int lane = threadIdx.x % 32;
    auto v = lane < n ? in[lane] : rl::identity<int>();
    for (int m = 1; m < 8; m *= 2) v = v + __shfl_xor_sync(0xffffffffu, v, m, 8);
    auto from8 = __shfl_xor_sync(0xffffffffu, v, 8, 8);  // lanes 8-15 and 24-31 read the segment below
    if (lane & 8) v = v + from8;
    auto from16 = __shfl_xor_sync(0xffffffffu, v, 16, 8);  // lanes 16-31 read lanes 0-15
    if (lane & 16) v = v + from16;
    if (lane == 31) out[0] = v;
}
