// A shared-memory tree whose rl::Shared is declared inside the loop: one declaration is one array, as a __shared__
// one is, so every pass reads what the pass before stored (a new array per pass would read nothing).
#include <rlab/kernel.h>

RL_KERNEL void shared_in_loop(rl::In<float> in, rl::Out<float> out, int n) {
    unsigned t = threadIdx.x;  // blocks of at most 64 threads, a power of two
    auto v = blockIdx.x * blockDim.x + t < (unsigned)n ? in[blockIdx.x * blockDim.x + t] : rl::identity<float>();
    for (unsigned width = blockDim.x / 2; width > 0; width /= 2) {
        rl::Shared<float, 64> s;
        if (width == blockDim.x / 2) s[t] = v;  // the first pass fills it
        __syncthreads();
        if (t < width) {
            v = s[t] + s[t + width];
            s[t] = v;
        }
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = v;
}
