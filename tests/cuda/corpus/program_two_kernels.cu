// A course's reduction program with main(): one kernel launched twice, reduce<<<G, B, S>>> into per-block partials,
// then reduce<<<1, B, S>>> over the partials into the result; it checks its own answer and says so in its exit status.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));  \
            exit(EXIT_FAILURE);                                                             \
        }                                                                                   \
    } while (0)

// Each block sums 2 * blockDim.x elements: two loads per thread, then a shared-memory tree (blockDim.x a power of 2).
__global__ void reduce(const int* in, int* out, unsigned n) {
    extern __shared__ int s[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + t;
    int v = 0;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[t] = v;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
    const unsigned n = 8192, block = 128;
    const unsigned grid = (n + 2 * block - 1) / (2 * block);  // 32 partials: one block of 128 threads sums them
    std::vector<int> host(n);
    long long expected = 0;
    for (unsigned i = 0; i < n; ++i) {
        host[i] = int(i % 97) - 40;
        expected += host[i];
    }

    int *d_in = nullptr, *d_partials = nullptr, *d_sum = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partials, grid * sizeof(int)));
    CHECK(cudaMalloc(&d_sum, sizeof(int)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    reduce<<<grid, block, block * sizeof(int)>>>(d_in, d_partials, n);
    CHECK(cudaGetLastError());
    reduce<<<1, block, block * sizeof(int)>>>(d_partials, d_sum, grid);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int sum = 0;
    CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    printf("sum of %u elements = %d (expected %lld): %s\n", n, sum, expected, sum == expected ? "correct" : "WRONG");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partials));
    CHECK(cudaFree(d_sum));
    return sum == expected ? 0 : 1;
}
