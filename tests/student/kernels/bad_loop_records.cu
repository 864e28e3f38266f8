// An endless loop that records (it loads in every iteration): the step budget stops it.
#include <rlab/kernel.h>

RL_KERNEL void bad_loop_records(rl::In<float> in, rl::Out<float> out, int n) {
    auto v = rl::identity<float>();
    for (int i = threadIdx.x; i < n; i += 0)
        v = v + in[i];
    out[blockIdx.x] = v;
}
