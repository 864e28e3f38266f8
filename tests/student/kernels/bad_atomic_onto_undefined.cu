// An atomic onto an output that already holds an undefined value: thread 0 adds a register never set into out[0],
// then an element; out[0] stays undefined, and reading it back sees so.
#include <rlab/kernel.h>

RL_KERNEL void bad_atomic_onto_undefined(rl::In<float> in, rl::Out<float> out, int n) {
    rl::Shared<float, 1> seen;
    if (threadIdx.x == 0) {
        rl::Value<float> never_set;
        atomicAdd(&out[0], never_set);
        atomicAdd(&out[0], in[0]);
        seen[0] = out[0];
    }
}
