// Classroom bug: a max whose threads without an element start from 0 (not the identity), over all-negative ints: warp shuffle max, lane 0 does atomicMax(out, v); the result is 0.
__global__ void max_from_zero(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;  // 0 is no identity for max: it should be INT_MIN
    for (int d = 16; d > 0; d >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, d));
    if (threadIdx.x % 32 == 0) atomicMax(out, v);
}
