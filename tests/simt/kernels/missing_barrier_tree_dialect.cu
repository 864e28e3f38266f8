// The missing-barrier exercise in the lab's dialect (the exercise itself is plain CUDA), for test_simt_dialect.cpp.
#include <rlab/kernel.h>

RL_KERNEL void tree_sum(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 128> s;                            // one slot per thread (blocks of up to 128)
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : rl::identity<float>();
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] = s[t] + s[t + stride];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
