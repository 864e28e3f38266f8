// A program that allocates and copies but never launches its kernel (the launch was commented out): the lab has
// nothing to record, and says so (exit 2).
#include <cstdio>

__global__ void sum_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

int main() {
    const int n = 64;
    float host[n];
    for (int i = 0; i < n; ++i) host[i] = 1.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof host);
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
    // sum_kernel<<<1, n>>>(d_in, d_out, n);
    float sum = 0;
    cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sum = %g\n", sum);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
