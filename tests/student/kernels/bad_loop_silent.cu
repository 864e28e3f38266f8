// An endless loop that records nothing: only the time limit can stop it.
#include <rlab/kernel.h>

RL_KERNEL void bad_loop_silent(rl::In<float> in, rl::Out<float> out, int n) {
    volatile int spin = n;
    while (spin >= 0) spin = spin + 1 > 0 ? spin : 0;
    out[0] = in[0];
}
