// A syntax error on line 7 (the missing semicolon): the diagnostic must name this file and that line.
#include <rlab/kernel.h>

RL_KERNEL void bad_syntax(rl::In<float> in, rl::Out<float> out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto v = i < n ? in[i] : rl::identity<float>();
    out[blockIdx.x] = v
}
