// A program whose kernel is right but whose main() returns 3: the lab records and checks the launch, and the
// program's own failure status still fails the run (exit 1, "the program's main() returned 3").
#include <cstdio>

__global__ void block_sum(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

int main() {
    const int n = 256;
    float host[n];
    for (int i = 0; i < n; ++i) host[i] = float(i + 1);
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(float));
    block_sum<<<n / 64, 64>>>(d_in, d_out, n);
    float sum = 0;
    cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost);
    printf("sum = %.0f\n", sum);
    return 3;  // the mistake: a status left over from debugging
}
