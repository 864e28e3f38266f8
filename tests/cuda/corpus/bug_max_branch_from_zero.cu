// The branch-form max tree of max_branch_form.cu with a wrong identity: the slots past n start at 0, which no
// negative value beats, so the tree's greater-over-smaller stores carry 0 to the result.
__global__ void bug_max_branch_from_zero(const float* in, float* out, int n) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k && s[t + k] > s[t]) s[t] = s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
