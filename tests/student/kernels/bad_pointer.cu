// Writes through a raw pointer to an address no array owns: the runner crashes, the caller must not.
#include <rlab/kernel.h>

RL_KERNEL void bad_pointer(rl::In<float> in, rl::Out<float> out, int n) {
    volatile int* p = (volatile int*)16;
    if (threadIdx.x == 3) *p = n;
    out[0] = in[0];
}
