// A student's shared-memory tree: every thread stores its element (the identity past n), then halves the
// active threads with a barrier between levels. Needs a power-of-two block of at most 256 threads.
#include <rlab/kernel.h>

RL_KERNEL void smem_tree(rl::In<int> in, rl::Out<int> out, int n) {
    rl::Shared<int, 256> s;
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : rl::identity<int>();
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] = s[t] + s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
