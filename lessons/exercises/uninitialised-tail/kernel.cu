// Exercise uninitialised-tail: 40 elements, 64 threads; the lanes without an element keep an unset register.
#include <rlab/kernel.h>

RL_KERNEL void tail_sum(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 32> warp_sums;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    rl::Value<float> v;                                  // the register of this thread's element
    if (i < n) v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        v = v + __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        auto total = warp_sums[0];
        for (int w = 1; w < (int)(blockDim.x + 31) / 32; ++w) total = total + warp_sums[w];
        out[blockIdx.x] = total;
    }
}
