// Exercise shuffle-in-branch: only the threads with an element reduce, and each warp adds its sum to out[0].

__global__ void branch_sum(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (threadIdx.x % 32 == 0) atomicAdd(&out[0], v);
    }
}
