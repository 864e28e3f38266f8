// A barrier in each branch of an if that splits the block by warps: warp 0 waits at one __syncthreads() line,
// warp 1 at the other. Not uniform across the block (the Programming Guide leaves it undefined); run with a
// block of 64 threads, the GPU tests ask the H200 whether it completes.
#include <rlab/kernel.h>

RL_KERNEL void bad_barrier_warp_split(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 64> s;
    unsigned t = threadIdx.x;
    s[t] = t < (unsigned)n ? in[t] : rl::identity<float>();
    if (t / 32 == 0)
        __syncthreads();  // warp 0 waits here
    else
        __syncthreads();  // warp 1 here
    if (t == 0) {
        auto sum = rl::identity<float>();
        for (unsigned k = 0; k < blockDim.x; ++k) sum += s[k];
        out[0] = sum;
    }
}
