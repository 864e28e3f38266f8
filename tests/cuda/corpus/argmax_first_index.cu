// Argmax as students write it (the value and index pair of a max reduction, ties to the lower index, as CUB's ArgMax): block-stride pairs, warp shuffles of both halves, the warps' pairs through shared memory; one block.
struct ValueIndex {
    float value;
    unsigned int index;  // 0xffffffff: no element
};

__device__ void keep_better(float& v, unsigned int& k, float other_v, unsigned int other_k) {
    if (other_v > v || (other_v == v && other_k < k)) {
        v = other_v;
        k = other_k;
    }
}

__device__ void warp_argmax(float& v, unsigned int& k) {
    for (int d = 16; d > 0; d >>= 1) {
        float other_v = __shfl_down_sync(0xffffffffu, v, d);
        unsigned int other_k = __shfl_down_sync(0xffffffffu, k, d);
        keep_better(v, k, other_v, other_k);
    }
}

__global__ void argmax_first(const float* in, ValueIndex* out, int n) {
    __shared__ float best_v[32];
    __shared__ unsigned int best_k[32];
    const float minus_inf = __int_as_float(0xff800000);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = minus_inf;
    unsigned int k = 0xffffffffu;
    for (int i = threadIdx.x; i < n; i += blockDim.x) keep_better(v, k, in[i], i);
    warp_argmax(v, k);
    if (lane == 0) {
        best_v[warp] = v;
        best_k[warp] = k;
    }
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + 31) / 32;
        v = (lane < warps) ? best_v[lane] : minus_inf;
        k = (lane < warps) ? best_k[lane] : 0xffffffffu;
        warp_argmax(v, k);
        if (lane == 0) out[blockIdx.x] = ValueIndex{v, k};
    }
}
