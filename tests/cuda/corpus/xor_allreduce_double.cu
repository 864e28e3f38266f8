// Warp all-reduce of doubles by __shfl_xor_sync (the butterfly of the Programming Guide's warp shuffle functions: every lane ends with the warp's sum), lane 31 adds its warp's total to out[0] by atomicAdd.
__global__ void xor_allreduce(const double* in, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = (i < n) ? in[i] : 0.0;
    for (int m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
    if (threadIdx.x % 32 == 31) atomicAdd(out, v);  // any lane holds the total; blockDim.x a multiple of 32
}
