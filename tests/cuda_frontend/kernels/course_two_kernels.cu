// tests/cuda_frontend/kernels/course_two_kernels.cu — a course assignment as a student hands it in: a first
// kernel writes one partial sum per block, a second sums the partials, and main() allocates, copies, times,
// checks errors and compares with the CPU. Written for the lab's front-end tests.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <iostream>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
            exit(EXIT_FAILURE);                                                      \
        }                                                                            \
    } while (0)

#define BLOCK 256

__global__ void partial_sums(const float* input, float* partials, int n) {
    __shared__ float cache[BLOCK];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    cache[tid] = gid < n ? input[gid] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = cache[0];
}

__global__ void final_sum(float* partials, float* result, int count) {
    __shared__ float cache[BLOCK];
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int k = tid; k < count; k += blockDim.x) acc += partials[k];
    cache[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) *result = cache[0];
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    std::vector<float> h_input(n);
    for (int i = 0; i < n; ++i) h_input[i] = static_cast<float>(rand()) / RAND_MAX;

    float *d_input, *d_partials, *d_result;
    int blocks = (n + BLOCK - 1) / BLOCK;
    CHECK(cudaMalloc((void**)&d_input, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partials, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_result, sizeof(float)));
    CHECK(cudaMemcpy(d_input, h_input.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    partial_sums<<<blocks, BLOCK>>>(d_input, d_partials, n);
    CHECK(cudaGetLastError());
    final_sum<<<1, BLOCK>>>(d_partials, d_result, blocks);
    CHECK(cudaGetLastError());
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);

    float gpu = 0;
    CHECK(cudaMemcpy(&gpu, d_result, sizeof(float), cudaMemcpyDeviceToHost));
    double cpu = 0;
    for (float x : h_input) cpu += x;
    std::cout << "gpu " << gpu << " cpu " << cpu << " in " << ms << " ms" << std::endl;
    if (std::fabs(gpu - cpu) > 1e-3 * cpu) printf("MISMATCH\n");

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    CHECK(cudaFree(d_input));
    CHECK(cudaFree(d_partials));
    CHECK(cudaFree(d_result));
    return 0;
}
