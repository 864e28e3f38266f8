// tests/cuda_frontend/kernels/template_launch.cu — a template kernel instantiated only by the host's launch of
// reduce6<256>: the device side must emit exactly that instantiation.
#include <cuda_runtime.h>

template <unsigned int blockSize>
__global__ void reduce6(const float* in, float* out, unsigned int n) {
    __shared__ float partial[blockSize];
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned int half = blockSize / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

int main() {
    float *in = nullptr, *out = nullptr;
    const unsigned int n = 1 << 16;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, (n / 256) * sizeof(float));
    reduce6<256><<<n / 256, 256>>>(in, out, n);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
