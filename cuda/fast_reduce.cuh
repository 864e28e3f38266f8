// cuda/fast_reduce.cuh — the fast path's kernel: a memory-bound reduction written to be read.
//
// One launch does everything: each thread keeps `kUnroll` 16-byte loads in flight and folds them
// into one accumulator per vector lane (independent chains, so the adds never wait on each other);
// warps combine with shuffles, blocks through shared memory; then either every block adds into one
// word with an atomic (FastMode::Atomic) or posts a partial that one block reduces in a fixed order
// (FastMode::Deterministic). The finishing block also leaves the scratch reset, so the next launch
// needs no memset: a separate memset launch would cost as much as a small reduction.
#pragma once
#include <cuda/atomic>

#include <cstdint>
#include <cstring>

#include "core/ops.h"

namespace rl::cuda::fast {

// 16-byte vectors of each element type, and how a vector's elements reach the accumulator.
template <class Elem> struct Vector;
// Four 4-byte elements read as they are (f32, i32).
template <class Elem, class Raw4> struct Vector4 {
    using Raw = Raw4;
    static constexpr int kElems = 4;
    template <class F> __device__ static void each(const Raw& v, F&& f) {
        f(0, v.x);
        f(1, v.y);
        f(2, v.z);
        f(3, v.w);
    }
    __device__ static Elem widen(Elem x) { return x; }
};
template <> struct Vector<float> : Vector4<float, float4> {};
// bf16 is stored as its 16-bit pattern; widening to f32 is a shift (exact), two per 32-bit word.
template <> struct Vector<uint16_t> {
    using Raw = uint4;
    static constexpr int kElems = 8;
    __device__ static float lo(uint32_t w) { return __uint_as_float(w << 16); }
    __device__ static float hi(uint32_t w) { return __uint_as_float(w & 0xffff0000u); }
    template <class F> __device__ static void each(const Raw& v, F&& f) {
        f(0, lo(v.x));
        f(1, hi(v.x));
        f(2, lo(v.y));
        f(3, hi(v.y));
        f(4, lo(v.z));
        f(5, hi(v.z));
        f(6, lo(v.w));
        f(7, hi(v.w));
    }
    __device__ static float widen(uint16_t x) { return bf16_to_float(x); }
};
template <> struct Vector<int32_t> : Vector4<int32_t, int4> {};
template <> struct Vector<double> {
    using Raw = double2;
    static constexpr int kElems = 2;
    template <class F> __device__ static void each(const Raw& v, F&& f) {
        f(0, v.x);
        f(1, v.y);
    }
    __device__ static double widen(double x) { return x; }
};

// Lane 0 gets the combination of lanes [0, kLanes).
template <class OpT, int kLanes = 32> __device__ typename OpT::Value warp_reduce(typename OpT::Value v) {
#pragma unroll
    for (int offset = kLanes / 2; offset > 0; offset /= 2) v = OpT::combine(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

// All kThreads threads call it, once per launch; thread 0 gets the block's value. Warp 0 combines the warps' values in
// log2(warps) shuffle steps, not 32 lanes' 5: the steps past them only combined identities, and one block's tree is
// the critical path of every launch's end (CUB's block reduction sums the warps' values in one thread).
template <class OpT, int kThreads> __device__ typename OpT::Value block_reduce(typename OpT::Value v) {
    using A = typename OpT::Value;
    constexpr int kWarps = kThreads / 32;
    static_assert(kWarps >= 1 && kWarps <= 32 && (kWarps & (kWarps - 1)) == 0, "block_reduce: 1-32 warps, a power of 2");
    __shared__ A warp_values[kWarps];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_reduce<OpT>(v);
    if (lane == 0) warp_values[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < kWarps ? warp_values[lane] : OpT::identity();
        v = warp_reduce<OpT, kWarps>(v);
    }
    return v;
}

// One atomic combine into the block-shared word, a single hardware atomic for every operator. Sums: a float or integer
// add. Max and min of floats: the bits of non-negative floats order like signed integers, and those of negative floats
// the other way round as unsigned ones, so a non-negative value takes an integer max (min) and a negative one an
// unsigned min (max); whichever sign the word holds, the comparison that decides is the right one. A NaN is skipped,
// as OpT::combine never lets one replace the word. (A compare-and-swap loop, the way of 2026-12-01, retried under
// contention: with the input in L2, max and min took 1 us longer than sums at 2^15-2^19 f32, 0.96-0.98x CUB.)
template <class OpT> __device__ void atomic_combine(typename OpT::Value* word, typename OpT::Value v) {
    using A = typename OpT::Value;
    if constexpr (std::is_same_v<OpT, SumOp<A>>) {
        atomicAdd(word, v);
    } else {
        constexpr bool kMax = std::is_same_v<OpT, MaxOp<A>>;
        static_assert(kMax || std::is_same_v<OpT, MinOp<A>>, "atomic_combine: sum, max or min");
        if (v != v) return;
        using Signed = std::conditional_t<sizeof(A) == 4, int, long long>;
        using Unsigned = std::conditional_t<sizeof(A) == 4, unsigned, unsigned long long>;
        Signed s;
        Unsigned u;
        memcpy(&s, &v, sizeof v);
        memcpy(&u, &v, sizeof v);
        if constexpr (kMax) {
            if (s >= 0) atomicMax(reinterpret_cast<Signed*>(word), s);
            else atomicMin(reinterpret_cast<Unsigned*>(word), u);
        } else {
            if (s >= 0) atomicMin(reinterpret_cast<Signed*>(word), s);
            else atomicMax(reinterpret_cast<Unsigned*>(word), u);
        }
    }
}

template <class A> __device__ A atomic_take(A* word, A replacement) {
    if constexpr (std::is_same_v<A, int32_t>) {
        return atomicExch(word, replacement);
    } else if constexpr (sizeof(A) == 4) {
        return __uint_as_float(atomicExch(reinterpret_cast<unsigned*>(word), __float_as_uint(replacement)));
    } else {
        return __longlong_as_double(
            atomicExch(reinterpret_cast<unsigned long long*>(word), __double_as_longlong(replacement)));
    }
}

// Where the 16-byte vectors of an input lie: elements before the first 16-byte boundary (head) and after the
// last whole vector (from tail on) are loaded one by one.
template <class Elem> struct Span {
    uint64_t head, vectors, tail;
    const typename Vector<Elem>::Raw* vin;
    __device__ Span(const Elem* in, uint64_t n) {
        constexpr uint64_t kElems = Vector<Elem>::kElems;
        const uint64_t misalign = (reinterpret_cast<uintptr_t>(in) % 16) / sizeof(Elem);
        head = misalign ? (n < kElems - misalign ? n : kElems - misalign) : 0;
        vin = reinterpret_cast<const typename Vector<Elem>::Raw*>(in + head);
        vectors = (n - head) / kElems;
        tail = head + vectors * kElems;
    }
    // The scalar elements of the thread `first` places into the grid: one of the head, one of the tail.
    template <class F> __device__ void scalars(const Elem* in, uint64_t n, uint64_t first, F&& fold) const {
        if (first < head) fold(0, Vector<Elem>::widen(in[first]));
        if (first < n - tail) fold(Vector<Elem>::kElems - 1, Vector<Elem>::widen(in[tail + first]));
    }
};

template <class OpT, int kElems> __device__ typename OpT::Value combine_lanes(const typename OpT::Value (&acc)[kElems]) {
    typename OpT::Value r = acc[0];
#pragma unroll
    for (int j = 1; j < kElems; ++j) r = OpT::combine(r, acc[j]);
    return r;
}

// The deterministic finishes: one block combines every block's partial in an order fixed by the grid, so the bits
// are the same whichever block ends last. Each block's partial has a 32-byte sector of its own, written in one store
// (with packed partials, eight blocks' stores sharing a sector, the ticket finish was 0.35-0.45 us slower than the
// atomic mode at 10^4-10^5 elements with a cold L2; with a sector each, 0.15-0.25 us: tune calls 14-15, H200).
// Warp 0 alone loads 8 partials per lane at once (256 a trip to L2) and the shuffle tree combines them: no barrier,
// no shared memory. Thread 0 gets the result.
constexpr uint32_t kFinishLoads = 8;
template <class A> constexpr uint32_t kSectorValues = 32 / sizeof(A);

// The ticket finish (FastFinish::Ticket, 2026-12-02's default): every block stores its partial, fences it and takes a
// ticket; the block with the last ticket reads them. No fence here: the writers fenced before their tickets, and
// __ldcg reads L2, where their stores are. A sector's other values are identities, never read.
template <class OpT> __device__ typename OpT::Value finish_ticket(const typename OpT::Value* partials) {
    using A = typename OpT::Value;
    A p = OpT::identity();
    const uint32_t grid = gridDim.x;
    for (uint32_t b = threadIdx.x; b < grid; b += 32 * kFinishLoads) {
        A v[kFinishLoads];
#pragma unroll
        for (uint32_t j = 0; j < kFinishLoads; ++j)
            v[j] = b + 32 * j < grid ? __ldcg(partials + (b + 32 * j) * kSectorValues<A>) : OpT::identity();
#pragma unroll
        for (uint32_t j = 0; j < kFinishLoads; ++j) p = OpT::combine(p, v[j]);
    }
    return warp_reduce<OpT>(p);
}

// The look-back finish (FastFinish::LookBack, the default). Every block but the last posts its partial in 4-byte
// halves, each in a 64-bit word whose upper half is a ready flag, with one relaxed store per word: a 64-bit access
// is seen whole or not at all, so a flag seen set carries its half, and the writer needs neither a fence nor a
// ticket (each a trip to L2 on the ticket finish's path). The grid's last block, after its own share, polls the
// others' words until every flag is set, combines them, then its own partial, and clears the flags for the next
// launch (the kernel boundary orders those stores before the next launch's).
// The wait relies on blocks starting in blockIdx order, as CUB's single-pass scan does when a tile waits on the tiles
// of lower blockIdx: when the last block runs, every other has started, and a started block runs to its end.
using Word = unsigned long long;
constexpr uint32_t kSectorWords = 32 / sizeof(Word);
constexpr Word kReady = Word(1) << 32;
template <class A> constexpr int kHalves = int(sizeof(A) / 4);

__device__ inline Word load_word(Word* w) {
    return ::cuda::atomic_ref<Word, ::cuda::thread_scope_device>(*w).load(::cuda::memory_order_relaxed);
}
__device__ inline void store_word(Word* w, Word v) {
    ::cuda::atomic_ref<Word, ::cuda::thread_scope_device>(*w).store(v, ::cuda::memory_order_relaxed);
}

template <class A> __device__ void post_partial(Word* sector, A v) {
    uint32_t half[kHalves<A>];
    memcpy(half, &v, sizeof v);
#pragma unroll
    for (int k = 0; k < kHalves<A>; ++k) store_word(sector + k, kReady | half[k]);
}

// Warp 0 of the grid's last block: lane l polls the first kW words of blocks base + l + 32 j (j < kFinishLoads) until
// every word of the warp's has its flag set (words from `others` on read as set), then clears those flags for the next
// launch (the kernel boundary orders those stores before the next launch's).
template <int kW> __device__ void poll_posted(Word* sectors, uint32_t base, uint32_t others, Word (&w)[kFinishLoads][kW]) {
    const uint32_t lane = threadIdx.x;
    bool ready;
    do {
        ready = true;
#pragma unroll
        for (uint32_t j = 0; j < kFinishLoads; ++j) {
            const uint32_t b = base + lane + 32 * j;
#pragma unroll
            for (int k = 0; k < kW; ++k) {
                w[j][k] = b < others ? load_word(sectors + b * kSectorWords + k) : kReady;
                ready = ready && (w[j][k] & ~Word(0xffffffffu)) == kReady;
            }
        }
    } while (!__all_sync(0xffffffffu, ready));
#pragma unroll
    for (uint32_t j = 0; j < kFinishLoads; ++j) {
        const uint32_t b = base + lane + 32 * j;
#pragma unroll
        for (int k = 0; k < kW; ++k)
            if (b < others) store_word(sectors + b * kSectorWords + k, 0);
    }
}

// Warp 0 of the grid's last block, at its start: brings the sectors its first poll reads into L2. With a cold L2 the
// last block, whose share is the smallest, may poll before the others have posted; without the prefetch that poll
// misses L2 and waits on DRAM for words it will read again. With the lines in L2, each post lands there and the next
// poll finds it. On machines of one kind (tune calls 24 and 28, H200): f64 10^4 cold (10 blocks) 4.98 us against the
// atomic mode's 5.36, where it had been level (5.18); f32 10^5 cold (49 blocks) 4.91 against 5.37 (was 5.15, 5.28).
__device__ inline void prefetch_posted(const Word* sectors, uint32_t others) {
#pragma unroll
    for (uint32_t j = 0; j < kFinishLoads; ++j) {
        const uint32_t b = threadIdx.x + 32 * j;
        if (b < others) asm volatile("prefetch.global.L2 [%0];" ::"l"(sectors + b * kSectorWords));
    }
}

// The deterministic look-back finish; `own` is the last block's partial (thread 0's). Thread 0 gets the result.
template <class OpT> __device__ typename OpT::Value finish_look_back(Word* sectors, typename OpT::Value own) {
    using A = typename OpT::Value;
    constexpr int kH = kHalves<A>;
    const uint32_t others = gridDim.x - 1, lane = threadIdx.x;
    A p = OpT::identity();
    for (uint32_t base = 0; base < others; base += 32 * kFinishLoads) {
        Word w[kFinishLoads][kH];
        poll_posted<kH>(sectors, base, others, w);
#pragma unroll
        for (uint32_t j = 0; j < kFinishLoads; ++j) {
            if (base + lane + 32 * j >= others) continue;
            uint32_t half[kH];
#pragma unroll
            for (int k = 0; k < kH; ++k) half[k] = uint32_t(w[j][k]);
            A v;
            memcpy(&v, half, sizeof v);
            p = OpT::combine(p, v);
        }
    }
    return OpT::combine(warp_reduce<OpT>(p), own);
}

// Scratch shared by launches: zero ticket and identity word between launches (the last block resets them).
template <class A> struct Scratch {
    A word;
    unsigned ticket;
};

// The kernel's body (the __global__ wrappers below differ only in their launch bounds). per_block: the vectors each
// block reads (a multiple of kThreads), computed once on the host rather than by a 64-bit division in every thread.
// partials: max_grid 32-byte sectors (Words with flags for the look-back finish, values for the ticket finish).
template <class OpT, class Elem, int kThreads, int kUnroll, bool kDeterministic, bool kTicket = false>
__device__ __forceinline__ void reduce_body(const Elem* __restrict__ in, uint64_t n, uint64_t per_block,
                                            void* __restrict__ partials, Scratch<typename OpT::Value>* scratch,
                                            typename OpT::Value* out) {
    using A = typename OpT::Value;
    using V = Vector<Elem>;
    constexpr int kElems = V::kElems;

    const Span<Elem> sp(in, n);
    const auto* vin = sp.vin;
    const uint64_t vectors = sp.vectors;
    if constexpr (kDeterministic && !kTicket)
        if (blockIdx.x + 1 == gridDim.x && gridDim.x > 1 && threadIdx.x < 32)
            prefetch_posted(static_cast<const Word*>(partials), gridDim.x - 1);

    A acc[kElems];
#pragma unroll
    for (int j = 0; j < kElems; ++j) acc[j] = OpT::identity();
    auto fold = [&](int j, A x) { acc[j] = OpT::combine(acc[j], x); };

    // Even share, as CUB's reductions do: each block reads one contiguous segment (a whole number of block
    // widths), its threads kThreads apart, so the memory system sees few long streams instead of every
    // block's loads interleaved across the whole input (grid-stride: 3e8 f64 ran at 0.94x CUB on the H200).
    const uint64_t begin = uint64_t(blockIdx.x) * per_block < vectors ? uint64_t(blockIdx.x) * per_block : vectors;
    const uint64_t end = begin + per_block < vectors ? begin + per_block : vectors;
    constexpr uint64_t stride = kThreads;
    uint64_t i = begin + threadIdx.x;
    const uint64_t first = uint64_t(blockIdx.x) * kThreads + threadIdx.x;  // this thread's place in the grid
    for (; i + (kUnroll - 1) * stride < end; i += kUnroll * stride) {
        typename V::Raw v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = __ldg(vin + i + u * stride);  // all loads issued first
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) V::each(v[u], fold);
    }
    // The rest (fewer than kUnroll vectors per thread), in groups of 4, then 2, then 1 loads in flight:
    // one block over a small input otherwise waits on memory once per vector (2^12 f32 cold: 4.38 us
    // against CUB's 3.92 on the H200). Predicating all kUnroll loads instead was measured and reverted:
    // its extra registers cut occupancy (docs/bench/).
    if constexpr (kUnroll > 4) {
        for (; i + 3 * stride < end; i += 4 * stride) {
            typename V::Raw v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) v[u] = __ldg(vin + i + u * stride);
#pragma unroll
            for (int u = 0; u < 4; ++u) V::each(v[u], fold);
        }
    }
    for (; i + stride < end; i += 2 * stride) {
        const typename V::Raw a = __ldg(vin + i), b = __ldg(vin + i + stride);
        V::each(a, fold);
        V::each(b, fold);
    }
    if (i < end) V::each(__ldg(vin + i), fold);
    sp.scalars(in, n, first, [&](int j, auto x) { fold(j, A(x)); });
    A r = block_reduce<OpT, kThreads>(combine_lanes<OpT, kElems>(acc));

    if (gridDim.x == 1) {
        if (threadIdx.x == 0) *out = r;
        return;
    }
    // The deterministic look-back finish. (The atomic mode finished by look-back too in call 22: each block released
    // its atomic with a flag, and the last block waited for the flags, acquired and took the word. It was 0.25-0.55 us
    // slower than the ticket below at 10^4-2^24 elements in the same call's tune rows, so the atomic mode keeps the
    // ticket; docs/bench/h200-2026-12-02-tuning.md.)
    if constexpr (kDeterministic && !kTicket) {
        Word* sectors = static_cast<Word*>(partials);
        if (blockIdx.x + 1 < gridDim.x) {
            if (threadIdx.x == 0) post_partial(sectors + blockIdx.x * kSectorWords, r);
        } else if (threadIdx.x < 32) {
            const A p = finish_look_back<OpT>(sectors, r);
            if (threadIdx.x == 0) *out = p;
        }
        return;
    }
    A* sector_values = static_cast<A*>(partials);
    if constexpr (kDeterministic) {  // the partial and identities as padding, one 32-byte store
        if (threadIdx.x < kSectorValues<A>)
            sector_values[blockIdx.x * kSectorValues<A> + threadIdx.x] = threadIdx.x == 0 ? r : OpT::identity();
    }
    __shared__ bool last;
    if (threadIdx.x == 0) {
        if constexpr (!kDeterministic) atomic_combine<OpT>(&scratch->word, r);
        __threadfence();  // this block's contribution is visible before its ticket is
        last = atomicAdd(&scratch->ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;

    if constexpr (kDeterministic) {
        const A p = finish_ticket<OpT>(sector_values);
        if (threadIdx.x == 0) {
            *out = p;
            scratch->ticket = 0;
        }
    } else if (threadIdx.x == 0) {
        *out = atomic_take(&scratch->word, OpT::identity());
        scratch->ticket = 0;
    }
}

// The registers are left to the compiler (44 for f32 sums at 512 x 8 on sm_90: two blocks per SM; the default of
// 2026-12-01 until the tuning calls of that night).
template <class OpT, class Elem, int kThreads, int kUnroll, bool kDeterministic>
__global__ void __launch_bounds__(kThreads)
    reduce(const Elem* __restrict__ in, uint64_t n, uint64_t per_block, void* __restrict__ partials,
           Scratch<typename OpT::Value>* scratch, typename OpT::Value* out) {
    reduce_body<OpT, Elem, kThreads, kUnroll, kDeterministic>(in, n, per_block, partials, scratch, out);
}

// kMinBlocks resident blocks per SM asked of the compiler, which sets the registers it may use: 1 lets it take
// up to 128 (94 for f32 sums at 512 x 8: the default, one block per SM), 4 of 512 threads cap them at 32 (CUB's
// occupancy, measured slower: docs/bench/h200-2026-12-01-tuning.md).
// Threads an SM of the architecture being compiled holds (the host pass sees the largest), so that a shape asking for
// more resident blocks than fit (sm_75 holds 1024 threads) compiles for that architecture with what fits.
constexpr int resident_blocks(int threads, int blocks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    constexpr int kSmThreads = 1024;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 860 && __CUDA_ARCH__ < 900
    constexpr int kSmThreads = 1536;
#else
    constexpr int kSmThreads = 2048;
#endif
    return blocks * threads > kSmThreads ? kSmThreads / threads : blocks;
}

template <class OpT, class Elem, int kThreads, int kUnroll, int kMinBlocks, bool kDeterministic, bool kTicket = false>
__global__ void __launch_bounds__(kThreads, resident_blocks(kThreads, kMinBlocks))
    reduce_bounded(const Elem* __restrict__ in, uint64_t n, uint64_t per_block, void* __restrict__ partials,
                   Scratch<typename OpT::Value>* scratch, typename OpT::Value* out) {
    reduce_body<OpT, Elem, kThreads, kUnroll, kDeterministic, kTicket>(in, n, per_block, partials, scratch, out);
}

// An input one block covers with at most kOneBlockLoads vectors per thread, on a kernel of its own
// (FastConfig::lean_one_block): one predicated round of loads on 32-bit indices, then the block's tree; no loop, no
// grid stage, so both modes share it. On reduce_body's code, such a block executed 3,014 warp instructions at 2^12 f32
// against CUB's single tile's 613, and with a cold L2 both kernels wait on instruction fetch as well as on their data
// (Nsight Compute, docs/bench/h200-2026-12-02-ncu-small.md). (Sixteen predicated loads on 256 threads were slower on
// 2026-12-01: 4.80 us against 4.22 at 2^12 f32 cold.)
constexpr uint32_t kOneBlockLoads = 4;

template <class OpT, class Elem, int kThreads>
__global__ void __launch_bounds__(kThreads)
    reduce_one_block(const Elem* __restrict__ in, uint64_t n, uint64_t, void*, Scratch<typename OpT::Value>*,
                     typename OpT::Value* out) {
    using A = typename OpT::Value;
    using V = Vector<Elem>;
    constexpr int kElems = V::kElems;
    const Span<Elem> sp(in, n);
    const uint32_t vectors = uint32_t(sp.vectors);
    A acc[kElems];
#pragma unroll
    for (int j = 0; j < kElems; ++j) acc[j] = OpT::identity();
    auto fold = [&](int j, A x) { acc[j] = OpT::combine(acc[j], x); };
    typename V::Raw v[kOneBlockLoads];
#pragma unroll
    for (uint32_t u = 0; u < kOneBlockLoads; ++u)  // all loads issued before the first fold
        if (threadIdx.x + u * kThreads < vectors) v[u] = __ldg(sp.vin + threadIdx.x + u * kThreads);
#pragma unroll
    for (uint32_t u = 0; u < kOneBlockLoads; ++u)
        if (threadIdx.x + u * kThreads < vectors) V::each(v[u], fold);
    sp.scalars(in, n, threadIdx.x, [&](int j, auto x) { fold(j, A(x)); });
    const A r = block_reduce<OpT, kThreads>(combine_lanes<OpT, kElems>(acc));
    if (threadIdx.x == 0) *out = r;
}

}  // namespace rl::cuda::fast
