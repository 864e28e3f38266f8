// A barrier in each branch of an if: every thread arrives, but at two different __syncthreads() lines. Two
// barriers, not one: the H200 never finishes it, and the emulator stops it as a hang naming both lines.
#include <rlab/kernel.h>

RL_KERNEL void bad_barrier_two_lines(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 64> s;
    unsigned t = threadIdx.x;
    s[t] = t < (unsigned)n ? in[t] : rl::identity<float>();
    if (t % 2 == 0) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    if (t == 0) {
        auto sum = s[0];
        for (unsigned k = 1; k < blockDim.x; ++k) sum = sum + s[k];
        out[0] = sum;
    }
}
