// Exercise descending-order: a warp tree whose offsets go from 16 down to 1, run with an operator whose
// order matters (--op witness checks that every merge joins neighbouring ranges, left before right).

__global__ void ordered_reduce(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v = v + __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
