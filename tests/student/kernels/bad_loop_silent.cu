// An endless loop that records nothing: only the time limit can stop it. It spins on a volatile global that
// nothing writes: every read is a side effect both compilers must keep, and no value is ever proven. (A volatile
// local is not enough on the GPU: NVVM keeps it in a register and ptxas deleted the whole loop, so the H200
// finished this kernel at once.)
#include <rlab/kernel.h>

static volatile int never_set = 0;

RL_KERNEL void bad_loop_silent(rl::In<float> in, rl::Out<float> out, int n) {
    while (never_set == 0) {
    }
    if (n > 0) out[0] = in[0];
}
