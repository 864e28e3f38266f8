// The two-launch program with a classic slip in the second launch: it is given n (the input's count) instead of the
// number of partials, so its one block reads past the end of the partials buffer (an out-of-bounds read in launch 2).
#include <cstdio>

__global__ void reduce(const float* in, float* out, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 1024, block = 64, grid = n / block;  // 16 partials
    float host[n];
    for (int i = 0; i < n; ++i) host[i] = 1.0f;
    float *d_in, *d_partials, *d_sum;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_partials, grid * sizeof(float));
    cudaMalloc(&d_sum, sizeof(float));
    cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
    reduce<<<grid, block, block * sizeof(float)>>>(d_in, d_partials, n);
    reduce<<<1, block, block * sizeof(float)>>>(d_partials, d_sum, n);  // the slip: n, not grid
    float sum = 0;
    cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sum = %g (expected %d)\n", sum, n);
    return sum == float(n) ? 0 : 1;
}
