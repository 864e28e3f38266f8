// A student's last-block finish: thread 0 of each block stores its block's maximum, fences, draws a ticket,
// and the block that draws the last ticket reads every partial and writes the result.
#include <rlab/kernel.h>

RL_KERNEL void last_block(rl::In<float> in, rl::Out<float> out, int n, rl::Counter done) {
    rl::Shared<float, 128> s;
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : rl::identity<float>();
    __syncthreads();
    if (t == 0) {
        auto m = s[0];
        for (unsigned k = 1; k < blockDim.x; ++k) m = max(m, s[k]);
        out[blockIdx.x] = m;
        __threadfence();
        unsigned ticket = atomicAdd(done, 1u);
        if (ticket == gridDim.x - 1) {
            auto result = out[0];
            for (unsigned b = 1; b < gridDim.x; ++b) result = fmaxf(result, out[b]);
            out[0] = result;
        }
    }
}
