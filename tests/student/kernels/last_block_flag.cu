// A student's last-block max that broadcasts "this block drew the last ticket" through shared memory as a
// constant 1 (0 in the other blocks): a flag read to decide, never combined into the result.
// Needs a power-of-two block of at most 256 threads.
#include <rlab/kernel.h>

RL_KERNEL void last_block_flag(rl::In<float> in, rl::Out<float> out, int n, rl::Counter done) {
    rl::Shared<float, 256> s;
    rl::Shared<float, 1> is_last;
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : rl::identity<float>();
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] = max(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicAdd(done, 1u);
        is_last[0] = rl::Value<float>(ticket == gridDim.x - 1 ? 1.0f : 0.0f);
    }
    __syncthreads();
    if (static_cast<float>(is_last[0]) != 0.0f && t == 0) {
        auto result = out[0];
        for (unsigned b = 1; b < gridDim.x; ++b) result = max(result, out[b]);
        out[0] = result;
    }
}
