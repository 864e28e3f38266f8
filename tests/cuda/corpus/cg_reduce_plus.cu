// Cooperative groups' own reduction (Programming Guide, cooperative groups, cg::reduce): cg::reduce(tile, v, cg::plus<float>()) over a tiled_partition<32>, the tile's rank 0 adds to out[0] by atomicAdd.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_reduce_sum(const float* in, float* out, int n) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    float total = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) atomicAdd(out, total);
}
