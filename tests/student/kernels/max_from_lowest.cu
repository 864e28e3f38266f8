// A student's warp max that starts every lane from -FLT_MAX (the lowest finite float) instead of rl::identity:
// not the identity of max (-inf), but over finite inputs it never wins, so the result is the max of the data.
// Needs blocks of 32 threads (one warp each); more blocks than one go through the lab's second launch.
#include <rlab/kernel.h>

RL_KERNEL void max_from_lowest(rl::In<float> in, rl::Out<float> out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = rl::Value<float>(-3.40282347e+38f);  // -FLT_MAX
    if (i < n) v = max(v, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_down_sync(0xffffffff, v, offset));
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
