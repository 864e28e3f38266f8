// Classroom bug: full-mask shuffles inside `if (i < n)`: the lanes past n skip the call their mask names (Programming Guide, warp shuffle functions).
__global__ void shuffle_in_branch(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = in[i];
        for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    }
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
