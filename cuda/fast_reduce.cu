// cuda/fast_reduce.cu — picks the fast path's kernel for a type, operator, mode and launch shape.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/fast_reduce.cuh"
#include "cuda/fast_reduce.h"

namespace rl::cuda {
namespace {

// A one-block input runs on the smallest block that gives each thread at most fast::kOneBlockLoads (4) 16-byte loads,
// as CUB's single tile does (256 x 16 f32). With a cold L2, 2^12 f32 on 256 threads and 2^12 bf16 on 128 took a step
// (0.1-0.2 us) less than on 512 threads with 2 loads each, and 8 loads per thread on 128 threads a step more (tune
// call 14).
using fast::kOneBlockLoads;

// The launch shapes compiled: every type/op/mode gets the default (512 threads, 8 loads in flight, launch bounds of
// one block per SM, the look-back finish) and the one-block kernels; the sums (f32, bf16, f64, i32), which the tuning
// sweep compares, also the other shapes it tries: the ticket finish, reduce_body on smaller blocks for one-block
// inputs (the atomic mode's kernels serve both modes there: a lone block writes its value, with no partials to
// finish), and other threads, loads and launch bounds. The deterministic finish is the look-back one on all but the
// ticket's row.
template <class OpT, class Elem, bool kDet> const void* kernel_for(int threads, int unroll, int min_blocks, bool ticket) {
    constexpr bool kTuned = std::is_same_v<OpT, SumOp<float>> || std::is_same_v<OpT, SumOp<double>> ||
                            std::is_same_v<OpT, SumOp<int32_t>>;
    auto is = [&](int t, int u, int b) { return threads == t && unroll == u && min_blocks == b; };
    using namespace fast;
    if (ticket && kDet) {  // (the atomic mode always finishes by ticket)
        if constexpr (kTuned && kDet)
            if (is(512, 8, 1)) return (const void*)reduce_bounded<OpT, Elem, 512, 8, 1, true, true>;
        return nullptr;
    }
    if (is(512, 8, 1)) return (const void*)reduce_bounded<OpT, Elem, 512, 8, 1, kDet>;
    if constexpr (kTuned) {
        if constexpr (!kDet) {
            if (is(256, 8, 1)) return (const void*)reduce_bounded<OpT, Elem, 256, 8, 1, false>;
            if (is(128, 8, 1)) return (const void*)reduce_bounded<OpT, Elem, 128, 8, 1, false>;
        }
        if (is(512, 8, 0)) return (const void*)reduce<OpT, Elem, 512, 8, kDet>;
        if (is(512, 4, 0)) return (const void*)reduce<OpT, Elem, 512, 4, kDet>;
        if (is(512, 4, 1)) return (const void*)reduce_bounded<OpT, Elem, 512, 4, 1, kDet>;
        if (is(512, 8, 3)) return (const void*)reduce_bounded<OpT, Elem, 512, 8, 3, kDet>;
        if (is(256, 4, 8)) return (const void*)reduce_bounded<OpT, Elem, 256, 4, 8, kDet>;
    }
    return nullptr;
}

// The one-block kernel of `threads` threads (FastConfig::lean_one_block), for both modes.
template <class OpT, class Elem> const void* one_block_kernel(int threads) {
    using namespace fast;
    if (threads == 128) return (const void*)reduce_one_block<OpT, Elem, 128>;
    if (threads == 256) return (const void*)reduce_one_block<OpT, Elem, 256>;
    if (threads == 512) return (const void*)reduce_one_block<OpT, Elem, 512>;
    return nullptr;
}

// The kernel for a mode and shape, or with `one_block`, the one-block kernel of c.threads threads.
template <class OpT, class Elem> const void* kernel_for(FastMode mode, const FastConfig& c, bool one_block) {
    if (one_block) return one_block_kernel<OpT, Elem>(c.threads);
    const bool ticket = c.finish == FastFinish::Ticket;
    return mode == FastMode::Deterministic ? kernel_for<OpT, Elem, true>(c.threads, c.unroll, c.min_blocks, ticket)
                                           : kernel_for<OpT, Elem, false>(c.threads, c.unroll, c.min_blocks, ticket);
}

template <class A, class Elem> const void* kernel_for(Op op, FastMode mode, const FastConfig& c, bool one_block) {
    switch (op) {
        case Op::Sum: return kernel_for<SumOp<A>, Elem>(mode, c, one_block);
        case Op::Max: return kernel_for<MaxOp<A>, Elem>(mode, c, one_block);
        case Op::Min: return kernel_for<MinOp<A>, Elem>(mode, c, one_block);
        default: return nullptr;
    }
}

const void* kernel_for(DType type, Op op, FastMode mode, const FastConfig& c, bool one_block = false) {
    switch (type) {
        case DType::F32: return kernel_for<float, float>(op, mode, c, one_block);
        case DType::BF16: return kernel_for<float, uint16_t>(op, mode, c, one_block);
        case DType::F64: return kernel_for<double, double>(op, mode, c, one_block);
        case DType::I32:  // sums only: integer max/min have no row in the matrix
            return op == Op::Sum ? kernel_for<SumOp<int32_t>, int32_t>(mode, c, one_block) : nullptr;
        default: return nullptr;
    }
}

}  // namespace

struct FastReducer::Impl {
    const void* kernel = nullptr;
    // One-block inputs on their own kernels or on smaller blocks, ascending: each takes up to kOneBlockLoads vectors
    // per thread.
    struct OneBlock {
        uint32_t threads;
        const void* kernel;
    };
    std::vector<OneBlock> one_block;
    // A grid of one block on the shape's own block (an input of up to one round of loads that the one-block kernels
    // do not cover): the atomic mode's kernel in both modes. A lone block writes its value and finishes nothing, so
    // the bits are the same; the deterministic instance, which carries the look-back finish's code, took 0.13-0.16 us
    // longer on such inputs in every round (f32 2^14 warm 4.06 against 3.94 us, bf16 30000 misaligned 4.74 against
    // 4.58: the recorded run of 2026-12-02 07:12 UTC, H200), where both modes ran the same code path.
    const void* lone = nullptr;
    // The smallest of them that gives each thread at most kOneBlockLoads of an input of `n` elements (one block
    // covers it), or none: the shape's own block.
    const OneBlock* one_block_for(uint64_t n) const {
        // The vectors the kernel loads: at most n / elements per vector (a misaligned start's head is loaded one by
        // one). The bound `enqueue` sizes a block's share by is one more: by it, 2^12 f32 ran on 512 threads (ncu).
        const uint64_t loaded = n / uint64_t(elems_per_vector);
        for (const OneBlock& b : one_block)
            if (loaded <= uint64_t(b.threads) * kOneBlockLoads) return &b;
        return nullptr;
    }
    FastConfig config;
    size_t elem_bytes = 4, acc_bytes = 4;
    int elems_per_vector = 4;
    uint32_t resident_grid = 1;  // blocks that run at once
    uint32_t max_grid = 1;       // resident_grid * waves
    void* scratch = nullptr;   // fast::Scratch<A>
    void* partials = nullptr;  // max_grid sectors of 32 bytes, one per block, flags clear between launches
};

FastConfig default_fast_config(DType, Op) {
    // Chosen by `rlab bench --tune` on the H200 (docs/bench/h200-2026-12-01-tuning.md, calls 9-11): 512 threads with
    // 8 loads of 16 bytes in flight and launch bounds of one block per SM, so that the compiler keeps every load's
    // registers (94 for f32 sums; one block fits an SM). In the same runs, the compiler's own 44 registers (two
    // blocks per SM) were 1-1.5% slower at 2^28-2^30, and CUB's occupancy (32 registers) or CUB's waves slower still.
    // One-block inputs on blocks from 128 threads up: tune calls 14-15 (docs/bench/h200-2026-12-02-tuning.md); the
    // look-back finish and the one-block kernels: tune call 19 (the same file).
    return FastConfig{512, 8, 1, 1, 1, FastFinish::LookBack, 128, true};
}

FastReducer::FastReducer(DType type, Op op, FastMode mode, FastConfig config) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    if (config.threads == 0) config = default_fast_config(type, op);
    // (i32 sums give the same bits in both modes, integer addition being associative; their deterministic mode still
    // runs the look-back finish, faster than the atomic ticket: i32 2^18 warm 4.67 against 4.93 us in tune call 33
    // (H200, 2026-12-02). Until call 29 it ran the atomic kernel, and the matrix timed one kernel as two reducers.)
    if (config.one_block_threads == 0) config.one_block_threads = config.threads;
    if (config.one_block_threads < 32 || config.one_block_threads > config.threads)
        throw Error("the fast path's one-block threads must be from 32 to the block's " +
                    std::to_string(config.threads) + " (got " + std::to_string(config.one_block_threads) + ")");
    m.config = config;
    m.kernel = kernel_for(type, op, mode, config);
    if (!m.kernel) throw Error("the fast path has no kernel for this request (" + supported() + ")");
    m.lone = kernel_for(type, op, FastMode::Atomic, config);
    if (!m.lone) throw Error("the fast path has no atomic-mode kernel for this shape (" + supported() + ")");
    // The one-block kernels up to the shape's threads (reduce_body on smaller blocks: below them; the shape's own
    // kernel covers its threads).
    const int largest = config.lean_one_block ? config.threads : config.threads / 2;
    for (int t = config.one_block_threads; t <= largest; t *= 2) {
        const void* k = kernel_for(type, op, FastMode::Atomic, FastConfig{t, 8, 1, 1, 1}, config.lean_one_block);
        if (!k)
            throw Error("the fast path has no one-block kernel of " + std::to_string(t) + " threads (" + supported() + ")");
        m.one_block.push_back({uint32_t(t), k});
    }
    m.elem_bytes = type == DType::F64 ? 8 : type == DType::BF16 ? 2 : 4;
    m.acc_bytes = type == DType::F64 ? 8 : 4;
    m.elems_per_vector = int(16 / m.elem_bytes);

    int dev = 0, sms = 0, resident = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, m.kernel, config.threads, 0));
    m.resident_grid = uint32_t(sms) * uint32_t(std::max(1, std::min(config.blocks_per_sm, resident)));
    m.max_grid = m.resident_grid * uint32_t(std::max(1, config.waves));

    RL_CUDA(cudaMalloc(&m.scratch, 16));
    // A 32-byte sector per block; the look-back finish's flags start clear, and each launch leaves them so.
    RL_CUDA(cudaMalloc(&m.partials, size_t(m.max_grid) * 32));
    RL_CUDA(cudaMemset(m.partials, 0, size_t(m.max_grid) * 32));
    // The scratch word starts at the identity and the ticket at zero; each launch leaves them so.
    unsigned char init[16] = {};
    const uint64_t id = type == DType::I32 ? pack_value(SumOp<int32_t>::identity())
                        : type == DType::F64 ? (op == Op::Sum ? pack_value(SumOp<double>::identity())
                                              : op == Op::Max ? pack_value(MaxOp<double>::identity())
                                                              : pack_value(MinOp<double>::identity()))
                                           : (op == Op::Sum ? pack_value(SumOp<float>::identity())
                                              : op == Op::Max ? pack_value(MaxOp<float>::identity())
                                                              : pack_value(MinOp<float>::identity()));
    memcpy(init, &id, m.acc_bytes);
    RL_CUDA(cudaMemcpy(m.scratch, init, sizeof init, cudaMemcpyHostToDevice));
}

FastReducer::~FastReducer() {
    cudaFree(impl_->scratch);
    cudaFree(impl_->partials);
}

uint32_t FastReducer::grid_for(uint64_t n) const {
    const Impl& m = *impl_;
    // One block while one round of loads per thread covers the input: a single trip to memory and
    // no grid stage. Beyond that, every SM gets blocks (one vector per thread at least), so that
    // all of the chip's load slots work, up to the blocks that fit at once. Only an input that gives every block
    // of the larger grid at least two rounds of loads runs in waves: below that, the waves' extra blocks cost more
    // partials and block starts than the balance gains.
    const uint64_t vectors = (n + m.elems_per_vector - 1) / m.elems_per_vector;
    const uint64_t round = uint64_t(m.config.threads) * uint64_t(m.config.unroll);
    if (vectors <= round) return 1;
    if (m.max_grid > m.resident_grid && vectors >= uint64_t(m.max_grid) * round * 2) return m.max_grid;
    return uint32_t(std::clamp<uint64_t>((vectors + m.config.threads - 1) / m.config.threads, 2, m.resident_grid));
}

uint32_t FastReducer::block_for(uint64_t n) const {
    const Impl::OneBlock* b = grid_for(n) == 1 ? impl_->one_block_for(n) : nullptr;
    return b ? b->threads : uint32_t(impl_->config.threads);
}

void FastReducer::enqueue(const void* device_input, uint64_t n, void* device_output, void* stream) {
    Impl& m = *impl_;
    if (n == 0) throw Error("the fast path needs at least one element");
    if (reinterpret_cast<uintptr_t>(device_input) % m.elem_bytes)
        throw Error("the fast path's input must be aligned to its element size");
    void* scratch = m.scratch;
    void* partials = m.partials;
    // Each block's contiguous share of the 16-byte vectors (an upper bound on their count: blocks past
    // the end find nothing), in whole block widths.
    const uint32_t grid = grid_for(n);
    const uint64_t vectors = n / uint64_t(m.elems_per_vector) + 1;
    const Impl::OneBlock* small = grid == 1 ? m.one_block_for(n) : nullptr;
    const void* kernel = small ? small->kernel : grid == 1 ? m.lone : m.kernel;
    const uint64_t threads = small ? small->threads : uint64_t(m.config.threads);
    uint64_t per_block = ((vectors + grid - 1) / grid + threads - 1) / threads * threads;
    void* args[] = {const_cast<void**>(&device_input), &n, &per_block, &partials, &scratch, &device_output};
    RL_CUDA(cudaLaunchKernel(kernel, dim3(grid), dim3(unsigned(threads)), args, 0,
                             static_cast<cudaStream_t>(stream)));
}

std::string FastReducer::supported() {
    return "types f32|bf16|f64 (sum|max|min) and i32 (sum), threads 512 with 8 loads in flight and launch bounds of "
           "one block, one-block kernels from 128, 256 or 512 threads up; sums also 512 x 8 and 512 x 4 without launch "
           "bounds, 512 x 4 (one block), 512 x 8 (3 blocks) and 256 x 4 (8 blocks), the ticket finish on the "
           "default's shape and one-block inputs on its kernel from 128 or 256 threads up";
}

}  // namespace rl::cuda
