// A register never set, added on the right of each element: every sum is undefined, and so is what is made of it
// (the shared slots, the block's total). One block, one element per thread.
#include <rlab/kernel.h>

RL_KERNEL void bad_undefined_operand(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> s;
    rl::Value<float> never_set;
    unsigned t = threadIdx.x;
    s[t] = in[t] + never_set;
    __syncthreads();
    if (t == 0) {
        auto total = s[0];
        for (unsigned k = 1; k < blockDim.x; ++k) total = total + s[k];
        out[0] = total;
    }
}
