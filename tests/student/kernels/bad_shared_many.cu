// Nine rl::Shared declarations, one more than a thread may make (RL_SHARED_SITES): the run stops at the ninth.
// Three on one line are three arrays (each is in scope while the next is declared).
#include <rlab/kernel.h>

RL_KERNEL void bad_shared_many(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 1> a, b, c;
    rl::Shared<float, 1> d, e, f;
    rl::Shared<float, 1> g, h;
    rl::Shared<float, 1> i;
    a[0] = in[0];
    out[0] = a[0];
}
