// A student's shared-memory tree: every thread stores its element (the identity past n), then halves the
// active threads with a barrier between levels. Needs a power-of-two block of at most 256 threads.
// plain CUDA: tests/student/kernels/smem_tree.cu line for line, without rlab/kernel.h

__global__ void smem_tree(const int* in, int* out, int n) {
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] = s[t] + s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
