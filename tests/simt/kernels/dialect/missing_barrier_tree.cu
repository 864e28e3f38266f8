// The missing-barrier exercise's racy tree (lessons/exercises/missing-barrier/kernel.cu), one level after another.
// plain CUDA: tests/simt/kernels/missing_barrier_tree_dialect.cu line for line, without rlab/kernel.h

__global__ void tree_sum(const float* in, float* out, int n) {
    __shared__ float s[128];                             // one slot per thread (blocks of up to 128)
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] = s[t] + s[t + stride];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
