// Solution of wrong-identity: the lanes without an element start from the identity of max, -infinity.
#include <rlab/kernel.h>

RL_KERNEL void warp_max(rl::In<float> in, rl::Out<float> out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = i < n ? in[i] : rl::identity<float>();      // -inf for max: no element is smaller
    for (int offset = 16; offset > 0; offset /= 2)
        v = max(v, __shfl_down_sync(0xffffffff, v, offset));
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
