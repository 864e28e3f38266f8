// Classroom bug: `in[i]` read with no `i < n` check, so the tail threads of the last block read past the input.
__global__ void unchecked_read(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];  // the bug: i may be n or more
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
