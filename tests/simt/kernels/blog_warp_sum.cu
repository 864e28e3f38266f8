// The warp-shuffle reduction of NVIDIA's blog "Faster Parallel Reductions on Kepler": a grid-stride sum per
// thread, a warp sum by __shfl_down_sync, one atomicAdd per warp. Lines 4, 9 and 11 are named by the tests.
__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}
__global__ void blog(const float* in, float* out, int N) {
    float sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) sum += in[i];
    sum = warpReduceSum(sum);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, sum);
}
