// Exercise wrong-identity: the largest of twelve negative numbers, with a warp of 32 lanes.

__global__ void warp_max(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;                      // lanes without an element start from 0
    for (int offset = 16; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_down_sync(0xffffffff, v, offset));
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
