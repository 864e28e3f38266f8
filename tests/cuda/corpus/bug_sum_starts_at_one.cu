// Classroom bug: a grid-stride sum whose every thread starts from 1 instead of 0 (not the identity of +): each launched thread adds one to the result.
__global__ void sum_from_one(const int* in, int* out, int n) {
    int sum = 1;  // the bug: the identity of + is 0
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
}
