// Indexes its shared array one past the end (s[32] when the array has 32 slots).
#include <rlab/kernel.h>

RL_KERNEL void bad_shared_index(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> s;
    unsigned t = threadIdx.x;
    s[t] = t < (unsigned)n ? in[t] : rl::identity<float>();
    __syncthreads();
    if (t == 0) out[0] = s[0] + s[blockDim.x];
}
