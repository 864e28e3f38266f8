// The kernel's out array has another element type than its input: RL_ENTRY rejects the signature on line 5.
#include <rlab/kernel.h>

// out should be rl::Out<float>.
RL_KERNEL void bad_signature(rl::In<float> in, rl::Out<double> out, int n) {
    (void)in;
    (void)out;
    (void)n;
}
