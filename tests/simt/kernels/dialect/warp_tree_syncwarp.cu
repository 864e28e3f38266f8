// A student's shared-memory tree inside each warp: every step halves the lanes that add, and __syncwarp(mask) waits
// only for those lanes; the lanes done go on to the block's barrier and never arrive at it. Thread 0 then adds the
// warps' sums. A block of 32 or 64 threads.
// plain CUDA: tests/student/kernels/warp_tree_syncwarp.cu line for line, without rlab/kernel.h

__global__ void warp_tree_syncwarp(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x, lane = t % 32;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncwarp();
    for (unsigned half = 16; half > 0; half /= 2) {
        if (lane < half) {
            s[t] = s[t] + s[t + half];
            __syncwarp((1u << half) - 1);  // the lanes still adding: lanes half..31 wait at the barrier below
        }
    }
    __syncthreads();
    if (t == 0) {
        float total = s[0];
        for (unsigned w = 32; w < blockDim.x; w += 32) total = total + s[w];
        out[blockIdx.x] = total;
    }
}
