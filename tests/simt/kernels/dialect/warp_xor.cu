// A student's warp-shuffle reduction: xor butterflies within each warp (masked to the lanes that exist),
// the warps' partials through shared memory, one partial per block (the lab's second launch finishes).
// plain CUDA: tests/student/kernels/warp_xor.cu line for line, without rlab/kernel.h

__global__ void warp_xor(const float* in, float* out, int n) {
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int lanes = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;  // a partial last warp
    unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 1; offset < 32; offset *= 2) {
        float other = __shfl_xor_sync(mask, v, offset);
        if ((lane ^ offset) < lanes) v = v + other;
    }
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = partial[0];
        for (int w = 1; w < (int)(blockDim.x + 31) / 32; ++w) total = total + partial[w];
        out[blockIdx.x] = total;
    }
}
