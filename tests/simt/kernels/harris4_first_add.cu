// Harris's reduction kernel 4 (first add during the global load: each block reads 2 * blockDim.x elements),
// in plain CUDA, with bounds checks so that any grid reads only the input.
__global__ void reduce4(int *g_idata, int *g_odata, unsigned int n) {
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int sum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) sum += g_idata[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
