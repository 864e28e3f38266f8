// tests/cuda_frontend/kernels/uses_local_header.cu — includes "local_header.cuh" from its own folder.
#include "local_header.cuh"

__global__ void pairs(const float* in, float* out) {
    out[threadIdx.x] = add_pair(in[2 * threadIdx.x], in[2 * threadIdx.x + 1]);
}
