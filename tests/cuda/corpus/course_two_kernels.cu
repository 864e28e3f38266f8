// A course's two-kernel sum program (the usual CUDA lab exercise): block partials by a shared-memory tree, then one block sums the partials; main() allocates, copies, launches both, copies back and prints.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void block_partials(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {  // blockDim.x a power of two
        if (t < half) buf[t] += buf[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

__global__ void finish_sum(const float* partials, float* result, int count) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = t; k < count; k += blockDim.x) acc += partials[k];
    buf[t] = acc;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) buf[t] += buf[t + half];
        __syncthreads();
    }
    if (t == 0) result[0] = buf[0];
}

int main() {
    const int n = 4096, block = 256, grid = (n + block - 1) / block;
    float* host = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) host[i] = float(i + 1);

    float *d_in, *d_partials, *d_sum;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_partials, grid * sizeof(float));
    cudaMalloc(&d_sum, sizeof(float));
    cudaMemcpy(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice);

    block_partials<<<grid, block, block * sizeof(float)>>>(d_in, d_partials, n);
    finish_sum<<<1, block, block * sizeof(float)>>>(d_partials, d_sum, grid);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }

    float sum = 0.0f;
    cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
    printf("sum of 1..%d = %.0f (expected %.0f)\n", n, sum, n * (n + 1.0) / 2.0);

    cudaFree(d_in);
    cudaFree(d_partials);
    cudaFree(d_sum);
    free(host);
    return 0;
}
