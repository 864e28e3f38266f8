// Argmax over several blocks in two launches, as CUDA engineers write it: each block leaves its (value, index) in tmp
// and tmpi (ties to the lower index), then one block picks among the blocks' pairs and writes the index to out[0].
#include <cfloat>
#define B 32
__global__ void argmax_block(const float* in, float* vals, int* idxs, int n) {
    __shared__ float sv[B];
    __shared__ int si[B];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sv[t] = i < n ? in[i] : -FLT_MAX;
    si[t] = i < n ? i : -1;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            float v = sv[t + s];
            int k = si[t + s];
            if (v > sv[t] || (v == sv[t] && k >= 0 && k < si[t])) { sv[t] = v; si[t] = k; }
        }
        __syncthreads();
    }
    if (t == 0) { vals[blockIdx.x] = sv[0]; idxs[blockIdx.x] = si[0]; }
}
__global__ void argmax_final(const float* vals, const int* idxs, int* out, int g) {
    __shared__ float sv[B];
    __shared__ int si[B];
    unsigned t = threadIdx.x;
    sv[t] = t < g ? vals[t] : -FLT_MAX;
    si[t] = t < g ? idxs[t] : -1;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            float v = sv[t + s];
            int k = si[t + s];
            if (v > sv[t] || (v == sv[t] && k >= 0 && k < si[t])) { sv[t] = v; si[t] = k; }
        }
        __syncthreads();
    }
    if (t == 0) out[0] = si[0];
}
