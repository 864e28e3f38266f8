// Argmax as students write it with an int out: per-thread (value, index) in registers over a block-stride loop, then
// shared arrays of values and indices halved by a tree that keeps the lower index on a tie; one block writes out[0].
#include <cfloat>

#define BLOCK 32

__global__ void argmax_index(const float* in, int* out, int n) {
    __shared__ float sv[BLOCK];
    __shared__ int si[BLOCK];
    unsigned t = threadIdx.x;
    float best = -FLT_MAX;
    int bi = -1;
    for (int i = t; i < n; i += blockDim.x) {
        float v = in[i];
        if (v > best) { best = v; bi = i; }
    }
    sv[t] = best;
    si[t] = bi;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            float v = sv[t + s];
            int k = si[t + s];
            if (v > sv[t] || (v == sv[t] && k >= 0 && k < si[t])) {
                sv[t] = v;
                si[t] = k;
            }
        }
        __syncthreads();
    }
    if (t == 0) out[0] = si[0];
}
