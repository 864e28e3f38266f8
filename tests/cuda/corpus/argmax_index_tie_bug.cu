// Argmax with a tie bug students make: as argmax_index_block.cu, but the tree keeps the greater value and ignores the
// index on a tie, so of two equal maxima it keeps whichever the tree meets first, not the lower index.
#include <cfloat>

#define BLOCK 32

__global__ void argmax_index_tie_bug(const float* in, int* out, int n) {
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
            if (v > sv[t]) {
                sv[t] = v;
                si[t] = k;
            }
        }
        __syncthreads();
    }
    if (t == 0) out[0] = si[0];
}
