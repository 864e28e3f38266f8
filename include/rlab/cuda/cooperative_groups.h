// include/rlab/cuda/cooperative_groups.h — the lab's cooperative groups: thread_block (this_thread_block()),
// thread_block_tile<N> (tiled_partition<N>, N a power of two up to 32) and the type-erased thread_group, built on
// the intrinsics so that a tile's shuffle is a real __shfl_*_sync and its sync() a __syncwarp on the tile's lanes.
// Grid groups, coalesced groups and multi-warp tiles are outside the lab's subset and say so where used.
#pragma once

#include "rlab_prelude.h"

namespace cooperative_groups {

namespace details {
// A thread's rank in its block, x fastest: the order warps are formed in.
__RLAB_DEVICE unsigned int block_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
__RLAB_DEVICE unsigned int block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
// The lanes of this thread's tile of `size` threads within its warp (size a power of two up to 32).
__RLAB_DEVICE unsigned int tile_mask(unsigned int size) {
    if (size >= 32) return 0xffffffffu;
    return ((1u << size) - 1) << (block_rank() & 31 & ~(size - 1));
}
}  // namespace details

class thread_group;

class thread_block {
public:
    __RLAB_MEMBER void sync() const { __syncthreads(); }
    __RLAB_MEMBER unsigned int thread_rank() const { return details::block_rank(); }
    __RLAB_MEMBER unsigned int size() const { return details::block_threads(); }
    __RLAB_MEMBER unsigned int num_threads() const { return details::block_threads(); }
    __RLAB_MEMBER dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __RLAB_MEMBER dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __RLAB_MEMBER dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    __RLAB_MEMBER dim3 dim_threads() const { return group_dim(); }
    __device__ operator thread_group() const;

private:
    __device__ thread_block() = default;
    friend __device__ thread_block this_thread_block();
};

__RLAB_MEMBER thread_block this_thread_block() { return thread_block(); }

// A group known only at run time: the block, or a tile of `tile` threads (what tiled_partition(g, n) returns).
class thread_group {
public:
    __RLAB_MEMBER void sync() const {
        if (tile_ == 0)
            __syncthreads();
        else
            __syncwarp(details::tile_mask(tile_));
    }
    __RLAB_MEMBER unsigned int thread_rank() const {
        return tile_ == 0 ? details::block_rank() : details::block_rank() & (tile_ - 1);
    }
    __RLAB_MEMBER unsigned int size() const { return tile_ == 0 ? details::block_threads() : tile_; }
    __RLAB_MEMBER unsigned int num_threads() const { return size(); }

private:
    __RLAB_MEMBER explicit thread_group(unsigned int tile) : tile_(tile) {}
    unsigned int tile_;  // 0: the whole block
    friend class thread_block;
    template <unsigned int, class>
    friend class thread_block_tile;
    friend __device__ thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
};

__RLAB_MEMBER thread_block::operator thread_group() const { return thread_group(0); }

// tiled_partition(g, n): n a power of two up to 32 (as CUDA requires); tiles of a tile are tiles of the block.
__RLAB_MEMBER thread_group tiled_partition(const thread_group& parent, unsigned int tile_size) {
    (void)parent;
    return thread_group(tile_size);
}

template <unsigned int Size, class Parent = void>
class thread_block_tile;

// The tile every thread_block_tile<Size, Parent> converts to; it holds which tile of its parent this is.
template <unsigned int Size>
class thread_block_tile<Size, void> {
    static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                  "the lab's thread_block_tile<N> takes N = 1, 2, 4, 8, 16 or 32 (tiles within one warp)");

public:
    __RLAB_MEMBER void sync() const { __syncwarp(mask()); }
    __RLAB_MEMBER unsigned int thread_rank() const { return details::block_rank() & (Size - 1); }
    static constexpr __RLAB_MEMBER unsigned int size() { return Size; }
    static constexpr __RLAB_MEMBER unsigned int num_threads() { return Size; }
    __RLAB_MEMBER unsigned int meta_group_rank() const { return meta_rank_; }
    __RLAB_MEMBER unsigned int meta_group_size() const { return meta_size_; }

    template <class T>
    __RLAB_MEMBER T shfl(T v, int src_rank) const { return __shfl_sync(mask(), v, src_rank, Size); }
    template <class T>
    __RLAB_MEMBER T shfl_down(T v, unsigned int delta) const { return __shfl_down_sync(mask(), v, delta, Size); }
    template <class T>
    __RLAB_MEMBER T shfl_up(T v, unsigned int delta) const { return __shfl_up_sync(mask(), v, delta, Size); }
    template <class T>
    __RLAB_MEMBER T shfl_xor(T v, unsigned int lane_mask) const { return __shfl_xor_sync(mask(), v, lane_mask, Size); }

    __RLAB_MEMBER int any(int pred) const { return __any_sync(mask(), pred); }
    __RLAB_MEMBER int all(int pred) const { return __all_sync(mask(), pred); }
    // The votes of this tile, bit i for its thread of rank i.
    __RLAB_MEMBER unsigned int ballot(int pred) const {
        const unsigned int b = __ballot_sync(mask(), pred);
        return Size == 32 ? b : b >> (details::block_rank() & 31 & ~(Size - 1));
    }

    __RLAB_MEMBER operator thread_group() const { return thread_group(Size); }

protected:
    __RLAB_MEMBER thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
        : meta_rank_(meta_rank), meta_size_(meta_size) {}
    __RLAB_MEMBER unsigned int mask() const { return details::tile_mask(Size); }

private:
    unsigned int meta_rank_;
    unsigned int meta_size_;
};

template <unsigned int Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
public:
    __RLAB_MEMBER explicit thread_block_tile(const Parent& parent)
        : thread_block_tile<Size, void>(parent.thread_rank() / Size, (parent.size() + Size - 1) / Size) {}
};

template <unsigned int Size, class Parent>
__RLAB_MEMBER thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
    return thread_block_tile<Size, Parent>(parent);
}

// sync(g) for any group.
template <class Group>
__RLAB_MEMBER void sync(const Group& g) { g.sync(); }

// ---- outside the lab's subset ------------------------------------------------------------------------------
// The groups exist as types so that a declaration parses; the call that makes one reports, once.
class grid_group {
public:
    __device__ void sync() const;
    __device__ unsigned long long thread_rank() const;
    __device__ unsigned long long size() const;

private:
    grid_group() = default;
};
class multi_grid_group {
public:
    __device__ void sync() const;
    __device__ unsigned int thread_rank() const;
    __device__ unsigned int size() const;

private:
    multi_grid_group() = default;
};
class coalesced_group {
public:
    __device__ void sync() const;
    __device__ unsigned int thread_rank() const;
    __device__ unsigned int size() const;
    __device__ unsigned int num_threads() const;
    template <class T>
    __device__ T shfl(T v, int src_rank) const;
    template <class T>
    __device__ T shfl_down(T v, unsigned int delta) const;
    template <class T>
    __device__ T shfl_up(T v, unsigned int delta) const;

private:
    coalesced_group() = default;
};
__RLAB_NO("grid groups (grid-wide sync) are",
          "end the kernel and let the lab's second launch reduce the block partials")
grid_group this_grid();
__RLAB_NO("multi-grid groups are", "use thread_block and thread_block_tile") multi_grid_group this_multi_grid();
__RLAB_NO("coalesced groups are", "use thread_block_tile<N> = tiled_partition<N>(block)")
coalesced_group coalesced_threads();
__RLAB_UNSUPPORTED_CALL(binary_partition, "binary_partition is", "use tiled_partition<N>(block)")
__RLAB_UNSUPPORTED_CALL(labeled_partition, "labeled_partition is", "use tiled_partition<N>(block)")
__RLAB_UNSUPPORTED_CALL(memcpy_async, "cooperative_groups::memcpy_async is",
                        "copy into __shared__ with loads and stores, then sync()")
__RLAB_UNSUPPORTED_CALL(wait, "cooperative_groups::wait is", "copy into __shared__ with loads and stores, then sync()")

}  // namespace cooperative_groups
