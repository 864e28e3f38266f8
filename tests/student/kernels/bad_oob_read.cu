// Reads past the input: no `i < n` guard, so the tail threads read in[n], in[n+1], ...
#include <rlab/kernel.h>

RL_KERNEL void bad_oob_read(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 64> s;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        auto sum = s[0];
        for (unsigned k = 1; k < blockDim.x; ++k) sum = sum + s[k];
        out[blockIdx.x] = sum;
    }
}
