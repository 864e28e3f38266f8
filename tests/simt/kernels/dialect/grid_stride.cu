// A student's grid-stride loop: each thread sums every (gridDim.x * blockDim.x)-th element, then the
// block combines its warps with max-safe shuffles down and atomically adds its partial into out[0].
// plain CUDA: tests/student/kernels/grid_stride.cu line for line, without rlab/kernel.h

__global__ void grid_stride(const double* in, double* out, int n) {
    __shared__ double warps[32];
    double v = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    int lane = threadIdx.x % 32;
    int lanes = blockDim.x - (threadIdx.x - lane) < 32 ? blockDim.x - (threadIdx.x - lane) : 32;
    unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    for (int offset = 16; offset > 0; offset /= 2) {
        double other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < lanes) v = v + other;
    }
    if (lane == 0) warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        double block_sum = warps[0];
        for (unsigned w = 1; w < (blockDim.x + 31) / 32; ++w) block_sum = block_sum + warps[w];
        atomicAdd(&out[0], block_sum);
    }
}
