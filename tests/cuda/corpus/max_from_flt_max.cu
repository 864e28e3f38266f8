// Max over floats with every thread starting from -FLT_MAX (the classroom start for a max, correct for finite input): fmaxf over warp shuffles, the warps' maxima through shared memory, one partial per block.
#include <cfloat>

__device__ float warp_max(float v) {
    for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, d));
    return v;
}

__global__ void max_from_flt_max(const float* in, float* out, int n) {
    __shared__ float warp_best[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = (i < n) ? in[i] : -FLT_MAX;
    v = warp_max(v);
    if (lane == 0) warp_best[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + 31) / 32;
        v = (lane < warps) ? warp_best[lane] : -FLT_MAX;
        v = warp_max(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
