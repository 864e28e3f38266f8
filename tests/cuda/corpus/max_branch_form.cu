// Max as students write it with a branch instead of fmaxf: a shared-memory tree whose step stores the greater of two
// slots over the smaller's, `if (s[t + k] > s[t]) s[t] = s[t + k];`, the slots past n started at -FLT_MAX.
#include <cfloat>

__global__ void max_branch_form(const float* in, float* out, int n) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : -FLT_MAX;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k && s[t + k] > s[t]) s[t] = s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
