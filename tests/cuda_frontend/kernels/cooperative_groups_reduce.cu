// tests/cuda_frontend/kernels/cooperative_groups_reduce.cu — reductions with cooperative groups as the CUDA
// programming guide and blog teach them: a shared-memory sum over any thread_group, a tile loop of shfl_down,
// and cg::reduce over thread_block_tile<32>. Written for the lab's front-end tests.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ int group_sum(cg::thread_group g, int* scratch, int value) {
    const int rank = g.thread_rank();
    for (int half = g.size() / 2; half > 0; half /= 2) {
        scratch[rank] = value;
        g.sync();
        if (rank < half) value += scratch[rank + half];
        g.sync();
    }
    return value;
}

__global__ void sum_by_group(const int* in, int* out, int n) {
    extern __shared__ int scratch[];
    cg::thread_block block = cg::this_thread_block();
    const int i = blockIdx.x * blockDim.x + block.thread_rank();
    const int total = group_sum(block, scratch, i < n ? in[i] : 0);
    if (block.thread_rank() == 0) atomicAdd(out, total);
}

template <int TileSize>
__device__ float tile_sum(cg::thread_block_tile<TileSize> tile, float value) {
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) value += tile.shfl_down(value, offset);
    return value;
}

__global__ void sum_by_tiles(const float* in, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float value = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) value += in[i];
    value = tile_sum<32>(warp, value);
    if (warp.thread_rank() == 0) atomicAdd(out, value);
}

__global__ void max_by_cg_reduce(const float* in, float* out, int n) {
    __shared__ float per_warp[32];
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float value = cg::reduce(warp, i < n ? in[i] : -INFINITY, cg::greater<float>());
    if (warp.thread_rank() == 0) per_warp[warp.meta_group_rank()] = value;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        value = warp.thread_rank() < warp.meta_group_size() ? per_warp[warp.thread_rank()] : -INFINITY;
        value = cg::reduce(warp, value, cg::greater<float>());
        if (warp.thread_rank() == 0) out[blockIdx.x] = value;
    }
}
