// A maximum: threads past n start from INT_MIN (the identity of max), each warp's maximum by shuffles, then
// atomicMax on out[0].
__global__ void warp_max(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : -2147483647 - 1;
    for (int d = 16; d > 0; d /= 2) v = max(v, __shfl_down_sync(0xffffffffu, v, d));
    if (threadIdx.x % 32 == 0) atomicMax(out, v);
}
