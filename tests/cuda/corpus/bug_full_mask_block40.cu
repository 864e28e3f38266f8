// Classroom bug: full-mask __shfl_down_sync(0xffffffff, ...) in a block of 40 threads, whose last warp has 8 lanes: lanes 0-7 read lanes 8-23, which were never launched.
__global__ void full_mask_partial_warp(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
