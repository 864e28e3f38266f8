// Cooperative groups (Programming Guide, cooperative groups): tiled_partition<32> of this_thread_block(), tile.shfl_down over tile.num_threads()/2 ... 1, the tile's rank 0 adds to out[0] by atomicAdd.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cg_tile_sum(const float* in, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    for (unsigned int d = tile.num_threads() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
    if (tile.thread_rank() == 0) atomicAdd(out, v);
}
