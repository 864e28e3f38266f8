// cuda/trace_kernels.cuh — the reduction kernels, layered thread → warp → block → grid, with an
// optional recorder that writes every step into a trace buffer laid out on the host.
//
// Sections: 1. plan and records   2. tracked values and the recorder   3. shared memory
//           4. thread stage   5. warp stage   6. block stage   7. grid stage and finisher   8. kernels
//
// The plan, the steps and the combine order mirror core/emulator.cpp: for a correct schedule the
// GPU trace and the emulator trace are equal event for event (tests/gpu/test_gpu_equality.cpp).
#pragma once
#include <cooperative_groups.h>
#include <cstdint>

#include "core/gpu_record.h"
#include "core/ops.h"
#include "core/schedule.h"
#include "core/trace.h"

namespace rl::cuda {

// ---- 1. plan and records --------------------------------------------------------------------
// One slot of the device trace buffer: the core event plus what the GPU measured (core/gpu_record.h).
using DeviceRecord = GpuRecord;

// Everything a kernel needs, computed on the host from the schedule (make_plan in cuda/trace_capture.cu).
struct Plan {
    uint64_t n, T, K;          // elements, threads, items per thread (chunk)
    uint32_t B, G, W, P, Kp;   // block, grid, warps per block, finisher threads, finisher items
    Assign assign;
    WarpStage warp;
    BlockStage block_stage;
    GridStage grid_stage;
    uint16_t bugs;
    uint16_t warp_step, block_step, grid_step, finish_step;
    uint32_t slots, finisher_slots;  // per thread
    uint64_t finisher_base;          // first slot of the finishing stage
    uint64_t identity_bits;          // the identity the kernel uses (0 under wrong-identity)
    uint32_t race_delay_ns;
    uint32_t smem_slots;
    bool f16;                        // 16-bit inputs: f16 (true) or bf16 (false)
    Accum accum;                     // thread-stage accumulation (core/accum.h)

    __host__ __device__ bool has(Bug b) const { return (bugs & uint16_t(b)) != 0; }
    __host__ __device__ bool shuffle() const {
        return warp == WarpStage::ShflDown || warp == WarpStage::ShflDownAsc || warp == WarpStage::ShflXor;
    }
    __host__ __device__ bool unbounded() const { return has(Bug::FullMaskPartialWarp) || has(Bug::UnboundedSource); }
    // Whether first-pass thread g loads at least one element (its first item is inside the input).
    __host__ __device__ bool thread_has_input(uint64_t g) const {
        return assign == Assign::Contiguous ? g * K < n : g < n;
    }
};

__host__ __device__ inline uint32_t bit_floor32(uint32_t x) {
    if (x == 0) return 0;
    uint32_t r = 1;
    while (r <= x / 2) r <<= 1;
    return r;
}
__host__ __device__ inline uint32_t levels_for(uint32_t active) {
    uint32_t l = 0;
    for (uint32_t v = active > 1 ? active - 1 : 0; v; v >>= 1) ++l;
    return l;
}
// divergent: the first pass's warp stage under divergent-shuffle (its loop runs every level, as unbounded).
__host__ __device__ inline uint32_t warp_stage_steps(const Plan& p, uint32_t widest, bool first_pass_store,
                                                     bool divergent = false) {
    if (first_pass_store && p.block_stage == BlockStage::SmemTreeShfl) return 0;  // no separate warp stage
    if (p.shuffle()) return p.unbounded() || divergent ? 5 : levels_for(widest);
    return levels_for(widest) + (first_pass_store ? 1 : 0);
}
// Steps of the block stage (the GPU runs the program order; the emulator adds rows for warps it
// delays under barrier bugs, so under those bugs the two step layouts differ by design).
__host__ __device__ inline uint32_t block_stage_steps(const Plan& p, uint32_t W) {
    if (p.block_stage == BlockStage::SmemTreeShfl) {  // store, barrier, (level, barrier) per halving, add, 5 shuffles
        uint32_t s = 2 + 1 + 5;
        for (uint32_t half = 16 * W; half > 32; half >>= 1) s += 2;
        return s;
    }
    if (W <= 1) return 0;
    uint32_t s = 1 + (p.has(Bug::MissingBarrier) ? 0 : 1);
    if (p.block_stage == BlockStage::WarpPartials) return s + (p.shuffle() ? 1 : 0) + warp_stage_steps(p, W, false);
    return s + 2 * levels_for(W);
}

// The lanes of warp w that exist among `threads` participants: the lanes a Barrier or WarpSync event
// names (as the emulator records them).
__host__ __device__ inline uint32_t lanes_of_warp(uint32_t threads, uint32_t w) {
    const uint32_t n = threads > 32 * w ? threads - 32 * w : 0;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

// ---- 2. tracked values and the recorder ---------------------------------------------------------
template <class V> struct Tracked {
    V v;
    uint32_t ev;
    uint8_t fl;
};

// Volatile accesses word by word (operator values are 4 or 8 bytes), so that racy shared-memory
// code really goes to memory as the buggy kernels being shown would.
template <class V> __device__ inline V load_volatile(const V* src) {
    uint32_t w[2] = {0, 0};
    for (uint32_t i = 0; i < sizeof(V) / 4; ++i) w[i] = reinterpret_cast<const volatile uint32_t*>(src)[i];
    V v;
    memcpy(&v, w, sizeof(V));
    return v;
}
template <class V> __device__ inline void store_volatile(V* dst, const V& v) {
    uint32_t w[2] = {0, 0};
    memcpy(w, &v, sizeof(V));
    for (uint32_t i = 0; i < sizeof(V) / 4; ++i) reinterpret_cast<volatile uint32_t*>(dst)[i] = w[i];
}
template <class V> __device__ inline Tracked<V> load_tracked(const Tracked<V>* src) {
    return {load_volatile(&src->v), *reinterpret_cast<const volatile uint32_t*>(&src->ev),
            *reinterpret_cast<const volatile uint8_t*>(&src->fl)};
}
template <class V> __device__ inline void store_tracked(Tracked<V>* dst, const Tracked<V>& t) {
    store_volatile(&dst->v, t.v);
    *reinterpret_cast<volatile uint32_t*>(&dst->ev) = t.ev;
    *reinterpret_cast<volatile uint8_t*>(&dst->fl) = t.fl;
}

__device__ inline uint64_t global_timer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ inline uint32_t sm_id() {
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

template <bool kRecord> struct Recorder {
    DeviceRecord* buf;
    uint64_t base;
    uint32_t cap, count;
    uint32_t block;
    uint16_t thread;
    uint8_t finisher;
    int* overflow;

    __device__ uint32_t emit(EventKind kind, uint32_t step, uint32_t detail, uint32_t aux, uint32_t d0, uint32_t d1,
                             uint64_t bits, uint8_t flags, uint64_t atomic_old = 0) {
        if constexpr (!kRecord) {
            return kNoEvent;
        } else {
            if (count >= cap) {
                atomicExch(overflow, 1);
                return kNoEvent;
            }
            uint64_t slot = base + count++;
            DeviceRecord r;
            r.event.kind = kind;
            r.event.flags = uint8_t(flags | finisher);
            r.event.step = uint16_t(step);
            r.event.thread = thread;
            r.event.detail = uint16_t(detail);
            r.event.block = block;
            r.event.aux = aux;
            r.event.dep[0] = d0;
            r.event.dep[1] = d1;
            r.event.value = bits;
            r.globaltimer_ns = global_timer();
            r.clock = uint64_t(clock64());
            r.atomic_old = atomic_old;
            r.sm = sm_id();
            r.pad = 0;
            buf[slot] = r;
            return uint32_t(slot);
        }
    }
};

template <class OpT, bool kRecord> struct Ctx {
    using V = typename OpT::Value;
    using T = Tracked<V>;
    const Plan& p;
    Recorder<kRecord>& rec;
    uint32_t threads = 0;  // participants of the block now reducing (set by reduce_block)

    __device__ T combine(uint32_t step, const T& a, const T& b) { return combine_to(step, a, b, OpT::combine(a.v, b.v)); }

    // A combine whose value the caller computed (f64 and Kahan accumulation keep hidden state).
    __device__ T combine_to(uint32_t step, const T& a, const T& b, const V& r) {
        uint8_t fl = combined_flags(a.fl, b.fl);
        if constexpr (std::is_same_v<OpT, WitnessOp>)
            if (OpT::violated(r)) fl |= kOrderViolated;
        return {r, rec.emit(EventKind::Combine, step, 0, 0, a.ev, b.ev, pack_value(r), fl), fl};
    }

    __device__ V identity() const { return unpack_value<V>(p.identity_bits); }

    // The accumulator as declared (`Value v;`): its bits are whatever the register held, and its shadow
    // (no producing event, undefined) says no write has reached it; only a write replaces the shadow.
    __device__ static T declared() {
        // Whatever the registers hold: an asm output that no instruction writes, so the compiler neither
        // assumes a value nor treats the read as undefined behaviour of its own.
        uint32_t w[2];
        asm volatile("" : "=r"(w[0]), "=r"(w[1]));
        V junk;
        memcpy(&junk, w, sizeof(V));
        return {junk, kNoEvent, kUnwrittenRegister};
    }

    // A thread without data writes the identity into its register. Under uninit-tail the program has no
    // such line (`Value v; if (i < n) v = in[i];`): the register stays as declared, and the events that
    // read it carry its shadow.
    __device__ void identity_fill(T& r, uint32_t step) {
        if (p.has(Bug::UninitTail)) return;
        V e = identity();
        r = {e, rec.emit(EventKind::IdentityFill, step, 0, 0, kNoEvent, kNoEvent, pack_value(e), kIdentity), kIdentity};
    }

    // ---- 3. shared memory: each slot holds the value, the store's event and its flags ------------
    __device__ void write_slot(T* smem, uint32_t slot, uint32_t step, const T& v) {
        uint32_t ev = rec.emit(EventKind::SharedStore, step, slot, 0, v.ev, kNoEvent, pack_value(v.v), v.fl);
        store_tracked(smem + slot, T{v.v, ev, v.fl});
    }
    __device__ T read_slot(T* smem, uint32_t slot, uint32_t step) {
        T got = load_tracked(smem + slot);  // a slot no store reached keeps the tags init_smem_tags wrote
        uint32_t ev = rec.emit(EventKind::SharedLoad, step, slot, 0, got.ev, kNoEvent, pack_value(got.v), got.fl);
        return {got.v, ev, got.fl};
    }

    // ---- 5. warp stage ------------------------------------------------------------------------------
    __device__ static bool useful(uint32_t lane, uint32_t src, uint32_t off, uint32_t active, bool xor_, bool asc) {
        if (src >= active) return false;
        if (xor_) return true;
        if (asc) return lane % (2 * off) == 0;
        return lane < off;
    }

    // Lanes [0, active) of this warp reduce into lane 0. Called only by those lanes; of them, only the
    // lanes in `executing` run the shuffles (all of them, except in the first pass's warp stage under
    // divergent-shuffle, `divergent`). Every lane that runs a shuffle records it, used or not.
    __device__ void shuffle_reduce(T& r, uint32_t lane, uint32_t active, uint32_t widest, uint32_t base,
                                   bool divergent = false, uint32_t executing = 0xffffffffu) {
        const bool xor_ = p.warp == WarpStage::ShflXor, asc = p.warp == WarpStage::ShflDownAsc;
        const bool unb = p.unbounded() || divergent;  // these loops combine in every lane at every level
        const uint32_t top = unb ? 16 : bit_floor32(widest > 1 ? widest - 1 : 0);
        const uint32_t levels = unb ? 5 : levels_for(widest);
        const uint32_t my_top = unb ? 16 : bit_floor32(active > 1 ? active - 1 : 0);
        const uint32_t active_mask = active == 32 ? 0xffffffffu : (1u << active) - 1;
        const uint32_t mask = p.has(Bug::FullMaskPartialWarp) || divergent ? 0xffffffffu : active_mask;
        // the bug: the warp reduction sits inside `if (i < n)`, so lanes without an element skip the
        // shuffles that the full mask names (undefined behaviour: the hardware decides what happens)
        if (!((executing >> lane) & 1u)) return;
        for (uint32_t level = 0; level < levels; ++level) {
            const uint32_t off = asc ? (1u << level) : (top >> level);
            if (!unb && off > my_top) continue;
            const uint32_t src = xor_ ? (lane ^ off) : (lane + off);
            unsigned long long bits = pack_value(r.v);
            unsigned long long got_bits;
            uint32_t got_ev = kNoEvent, got_fl = 0;
            if (xor_) {
                got_bits = __shfl_xor_sync(mask, bits, off);
                if constexpr (kRecord) {
                    got_ev = __shfl_xor_sync(mask, r.ev, off);
                    got_fl = __shfl_xor_sync(mask, uint32_t(r.fl), off);
                }
            } else {
                got_bits = __shfl_down_sync(mask, bits, off);
                if constexpr (kRecord) {
                    got_ev = __shfl_down_sync(mask, r.ev, off);
                    got_fl = __shfl_down_sync(mask, uint32_t(r.fl), off);
                }
            }
            const bool uses = unb || useful(lane, src, off, active, xor_, asc);
            if (src < 32 && (src >= active || !((executing >> src) & 1u))) {  // read from a lane that does not participate
                got_ev = kNoEvent;
                got_fl = kUndefined;
                // a value no lane provided and nobody uses is recorded as the emulator's poison; a used
                // one keeps the bits the hardware returned
                if (!uses) got_bits = pack_value(unpack_value<V>(kPoisonBits));
            }
            const uint32_t step = base + level;
            T got{unpack_value<V>(got_bits), 0, uint8_t(got_fl)};
            got.ev = rec.emit(EventKind::Shuffle, step, off | ((src < 255 ? src : 255) << 8), mask, got_ev, kNoEvent,
                              got_bits, got.fl);
            if (!uses) continue;
            r = (xor_ && src < lane) ? combine(step, got, r) : combine(step, r, got);
        }
    }

    __device__ void warp_sync(uint32_t warp, uint32_t lane, uint32_t mask, uint32_t step, bool between_levels) {
        if (between_levels && p.has(Bug::VolatileUnroll)) return;  // the bug: implicit warp synchrony
        if (lane == 0)
            rec.emit(EventKind::WarpSync, step, 0, lanes_of_warp(threads, warp), kNoEvent, kNoEvent, p.identity_bits, 0);
        __syncwarp(mask);
    }

    // Shared-memory tree inside one warp (Harris's addressing), called by lanes [0, active).
    __device__ void smem_reduce(T& r, T* smem, uint32_t warp, uint32_t lane, uint32_t active, uint32_t widest,
                                bool store_first, uint32_t base_slot, uint32_t base) {
        const uint32_t mask = active == 32 ? 0xffffffffu : (1u << active) - 1;
        uint32_t step = base;
        if (store_first) {
            write_slot(smem, base_slot + lane, step, r);
            warp_sync(warp, lane, mask, step, false);
            ++step;
        }
        const uint32_t levels = levels_for(widest);
        for (uint32_t level = 0; level < levels; ++level) {
            const uint32_t s = step + level;
            const uint32_t stride = p.warp == WarpStage::SmemSequential ? (bit_floor32(widest - 1) >> level) : (1u << level);
            bool work = true;
            uint32_t a = lane;
            if (p.warp == WarpStage::SmemDivergent) work = lane % (2 * stride) == 0;
            else if (p.warp == WarpStage::SmemStrided) a = 2 * stride * lane;
            else work = lane < stride;
            if (work && a + stride < active) {
                T x = read_slot(smem, base_slot + a, s);
                T y = read_slot(smem, base_slot + a + stride, s);
                T c = combine(s, x, y);
                write_slot(smem, base_slot + a, s, c);
                r = c;
            }
            warp_sync(warp, lane, mask, s, true);
        }
    }

    // ---- 6. block stage: warp partials (lane 0 of each of W warps) into thread 0 --------------------
    // Called by every thread of the block (it holds __syncthreads); `tid < participants` do the work.
    __device__ void block_stage(T& r, T* smem, uint32_t tid, uint32_t W, uint32_t base) {
        if (p.block_stage == BlockStage::SmemTreeShfl) return smem_tree_shfl(r, smem, tid, base);
        if (W <= 1) return;
        const uint32_t warp = tid / 32, lane = tid % 32;
        const uint32_t P0 = 32 * W;  // the partial slots follow the warps' own slots, as in the emulator
        const bool missing = p.has(Bug::MissingBarrier), divergent = p.has(Bug::DivergentBarrier);
        const bool mine = warp < W;
        uint32_t step = base;
        if (mine && lane == 0) {
            if (p.race_delay_ns && warp != 0) __nanosleep(p.race_delay_ns);  // race amplifier: producers late
            write_slot(smem, P0 + warp, step, r);
            if (divergent) {
                rec.emit(EventKind::Barrier, step + 1, 0, 1u, kNoEvent, kNoEvent, p.identity_bits, 0);  // lane 0 arrives
                __syncthreads();  // the bug: a barrier only lane 0 of each warp reaches
            }
        }
        ++step;
        if (!missing && !divergent) {
            if (mine && lane == 0)
                rec.emit(EventKind::Barrier, step, 0, lanes_of_warp(threads, warp), kNoEvent, kNoEvent, p.identity_bits, 0);
            __syncthreads();
        }
        if (!missing) ++step;
        if (p.block_stage == BlockStage::WarpPartials) {
            if (warp == 0 && lane < W) {
                if (p.shuffle()) {
                    r = read_slot(smem, P0 + lane, step);
                    shuffle_reduce(r, lane, W, W, step + 1);
                } else {
                    smem_reduce(r, smem, 0, lane, W, W, false, P0, step);
                }
            }
            return;
        }
        const uint32_t levels = levels_for(W);
        for (uint32_t level = 0; level < levels; ++level) tree_level(r, smem, tid, P0, bit_floor32(W - 1) >> level, W, step);
    }

    // One level of a shared-memory tree with a barrier after it: thread tid < stride (with tid + stride
    // < bound) combines slots base + tid and base + tid + stride into base + tid. Every thread calls it.
    __device__ void tree_level(T& r, T* smem, uint32_t tid, uint32_t base, uint32_t stride, uint32_t bound, uint32_t& step) {
        if (tid < stride && tid + stride < bound) {
            T x = read_slot(smem, base + tid, step);
            T y = read_slot(smem, base + tid + stride, step);
            T c = combine(step, x, y);
            write_slot(smem, base + tid, step, c);
            r = c;
        }
        ++step;
        if (tid < threads && tid % 32 == 0)  // lane 0 of each participating warp records its arrival
            rec.emit(EventKind::Barrier, step, 0, lanes_of_warp(threads, tid / 32), kNoEvent, kNoEvent, p.identity_bits, 0);
        __syncthreads();
        ++step;
    }

    // The summary's blockReduce over all `threads` threads (a power of two >= 64), as core/emulator.cpp
    // smem_tree_shfl(): every thread stores, a barrier tree down to 64 slots, warp 0 adds smem[t] +
    // smem[t + 32], then the unrolled full-warp shuffle in which every lane combines at every level.
    __device__ void smem_tree_shfl(T& r, T* smem, uint32_t tid, uint32_t base) {
        const uint32_t n = threads, warp = tid / 32, lane = tid % 32;
        const bool mine = tid < n;
        uint32_t step = base;
        if (mine) write_slot(smem, tid, step, r);
        ++step;
        if (mine && lane == 0)
            rec.emit(EventKind::Barrier, step, 0, lanes_of_warp(threads, warp), kNoEvent, kNoEvent, p.identity_bits, 0);
        __syncthreads();
        ++step;
        for (uint32_t s = n / 2; s > 32; s >>= 1) tree_level(r, smem, tid, 0, s, n, step);
        if (warp == 0) {
            T x = read_slot(smem, tid, step);
            T y = read_slot(smem, tid + 32, step);
            r = combine(step, x, y);
            // full mask, offsets 16 .. 1, every lane combines: shuffle_reduce's every-level loop
            shuffle_reduce(r, lane, 32, 32, step + 1, true);
        }
    }

    // Warp stage then block stage over `threads` participants of a block of blockDim.x threads.
    // first_block: the first pass's block index (the lanes that hold input are known from it), or
    // kNoEvent in the finishing stage.
    __device__ void reduce_block(T& r, T* smem, uint32_t tid, uint32_t participants, uint32_t base,
                                 uint32_t first_block = kNoEvent) {
        threads = participants;
        const uint32_t warp = tid / 32, lane = tid % 32;
        const uint32_t widest = threads < 32 ? threads : 32;
        const uint32_t active = threads > warp * 32 ? (threads - warp * 32 < 32 ? threads - warp * 32 : 32) : 0;
        uint32_t executing = 0xffffffffu;  // lanes of this warp that run the warp stage's shuffles
        const bool divergent = p.has(Bug::DivergentShuffle) && first_block != kNoEvent;
        if (divergent) {
            executing = 0;
            for (uint32_t l = 0; l < active; ++l)
                if (p.thread_has_input(uint64_t(first_block) * p.B + warp * 32 + l)) executing |= 1u << l;
        }
        if (tid < threads && p.block_stage != BlockStage::SmemTreeShfl) {
            if (p.shuffle())
                shuffle_reduce(r, lane, active, widest, base, divergent, executing);
            else
                smem_reduce(r, smem, warp, lane, active, widest, true, warp * 32, base);
        }
        block_stage(r, smem, tid, (threads + 31) / 32, base + warp_stage_steps(p, widest, true, divergent));
    }
};

template <class V> __device__ inline void init_smem_tags(Tracked<V>* smem, uint32_t slots) {
    for (uint32_t i = threadIdx.x; i < slots; i += blockDim.x) {
        smem[i].ev = kNoEvent;
        smem[i].fl = kUnwrittenMemory;
    }
}

// ---- 7. grid stage ----------------------------------------------------------------------------------
// One atomic op on the output word; returns the value it replaced. Float and int sums use the
// hardware's atomicAdd; everything else a compare-and-swap loop on 4 or 8 bytes.
template <class OpT> __device__ typename OpT::Value atomic_apply(uint64_t* out, typename OpT::Value x) {
    using V = typename OpT::Value;
    if constexpr (std::is_same_v<OpT, SumOp<float>>) {
        return atomicAdd(reinterpret_cast<float*>(out), x);
    } else if constexpr (std::is_same_v<OpT, SumOp<int32_t>>) {
        return atomicAdd(reinterpret_cast<int*>(out), x);
    } else if constexpr (std::is_same_v<OpT, SumOp<double>>) {
        return atomicAdd(reinterpret_cast<double*>(out), x);
    } else if constexpr (sizeof(V) == 4) {
        unsigned* word = reinterpret_cast<unsigned*>(out);
        unsigned old = *reinterpret_cast<volatile unsigned*>(word), assumed;
        do {
            assumed = old;
            V next = OpT::combine(unpack_value<V>(assumed), x);
            old = atomicCAS(word, assumed, uint32_t(pack_value(next)));
        } while (old != assumed);
        return unpack_value<V>(old);
    } else {
        unsigned long long* word = reinterpret_cast<unsigned long long*>(out);
        unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(word), assumed;
        do {
            assumed = old;
            V next = OpT::combine(unpack_value<V>(assumed), x);
            old = atomicCAS(word, assumed, (unsigned long long)pack_value(next));
        } while (old != assumed);
        return unpack_value<V>(old);
    }
}

template <class OpT, bool kRecord>
__device__ void record_atomic(Ctx<OpT, kRecord>& c, uint64_t* out, uint32_t step, const Tracked<typename OpT::Value>& x) {
    using V = typename OpT::Value;
    V old = atomic_apply<OpT>(out, x.v);
    V next = OpT::combine(old, x.v);
    // dep[0] (the atomic it followed), the position and the chain's flags are filled on the host
    // once the order is known from the replaced values.
    c.rec.emit(EventKind::Atomic, step, 0, 0, kNoEvent, x.ev, pack_value(next), x.fl, pack_value(old));
}

// The finishing stage: `participants` threads reduce the G block partials (all threads call it).
template <class OpT, bool kRecord>
__device__ void finish(const Plan& p, Tracked<typename OpT::Value>* smem, Tracked<typename OpT::Value>* partials,
                       DeviceRecord* buf, int* overflow, uint32_t fblock, uint64_t* out) {
    using T = Tracked<typename OpT::Value>;
    const uint32_t tid = threadIdx.x;
    Recorder<kRecord> rec{buf, p.finisher_base + uint64_t(tid) * p.finisher_slots, p.finisher_slots, 0, fblock,
                          uint16_t(tid), kFinisher, overflow};
    Ctx<OpT, kRecord> c{p, rec};
    T r = c.declared();
    bool has = false;
    if (tid < p.P) {
        for (uint32_t k = 0; k < p.Kp; ++k) {
            uint64_t idx = p.assign == Assign::Contiguous ? uint64_t(tid) * p.Kp + k : tid + uint64_t(k) * p.P;
            if (idx >= p.G) continue;
            T part = load_tracked(partials + idx);
            // No store seen (the partials' tags start as 0xff: no event): the slot's shadow is unwritten
            // memory. Possible only when the partial's store is not fenced before the ticket.
            if (part.ev == kNoEvent) part.fl = kUnwrittenMemory;
            T ld{part.v, rec.emit(EventKind::PartialLoad, p.finish_step + k, k, uint32_t(idx), part.ev, kNoEvent,
                                  pack_value(part.v), part.fl), part.fl};
            r = has ? c.combine(p.finish_step + k, r, ld) : ld;
            has = true;
        }
        if (!has) c.identity_fill(r, p.finish_step);
    }
    c.reduce_block(r, smem, tid, p.P, p.finish_step + p.Kp);
    if (tid == 0) {
        const uint32_t W = (p.P + 31) / 32;
        const uint32_t s = p.finish_step + p.Kp + warp_stage_steps(p, p.P < 32 ? p.P : 32, true) + block_stage_steps(p, W);
        rec.emit(EventKind::FinalStore, s, 0, 0, r.ev, kNoEvent, pack_value(r.v), r.fl);
        *reinterpret_cast<typename OpT::Value*>(out) = r.v;
    }
}

// ---- 8. kernels -------------------------------------------------------------------------------------
template <class OpT, class A, class Elem, bool kRecord>
__global__ void reduce_kernel(Plan p, const Elem* input, DeviceRecord* buf, Tracked<typename OpT::Value>* partials,
                              uint64_t* out, unsigned* counter, int* overflow) {
    using V = typename OpT::Value;
    using T = Tracked<V>;
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    __shared__ unsigned ticket;
    const uint32_t tid = threadIdx.x, b = blockIdx.x;
    init_smem_tags(smem, p.smem_slots);
    __syncthreads();

    Recorder<kRecord> rec{buf, (uint64_t(b) * p.B + tid) * p.slots, p.slots, 0, b, uint16_t(tid), 0, overflow};
    Ctx<OpT, kRecord> c{p, rec};

    // ---- 4. thread stage: accumulate this thread's elements in a register
    const uint64_t g = uint64_t(b) * p.B + tid;
    T r = c.declared();
    bool has = false;
    // Accumulation state as in core/emulator.cpp accumulate(): only float sums use it.
    constexpr bool kAccum = std::is_same_v<OpT, SumOp<A>> && std::is_floating_point_v<A>;
    KahanState<A> kahan{};
    double wide = 0.0;
    T stack[kAccum ? kPairwiseStack : 1];
    uint32_t depth = 0;
    uint64_t count = 0, k_now = 0;
    auto merge = [&](const T& x, const T& y) { return c.combine(uint32_t(k_now), x, y); };
    for (uint64_t k = 0; k < p.K; ++k) {
        uint64_t idx = p.assign == Assign::Contiguous ? g * p.K + k : g + k * p.T;
        if (idx >= p.n) continue;
        A x;
        if constexpr (std::is_same_v<Elem, uint16_t>) {
            x = p.f16 ? A(f16_to_float(input[idx])) : A(bf16_to_float(input[idx]));
        } else {
            x = A(input[idx]);
        }
        V lifted = OpT::lift(x, uint32_t(idx));
        T ld{lifted, rec.emit(EventKind::Load, uint32_t(k), uint32_t(k), uint32_t(idx), kNoEvent, kNoEvent,
                              pack_value(lifted), 0), 0};
        k_now = k;
        if (p.grid_stage == GridStage::AtomicElement) {
            record_atomic(c, out, uint32_t(k), ld);
        } else if (kAccum && p.accum == Accum::Kahan) {
            if constexpr (kAccum) {
                if (has) {
                    kahan_add(kahan, ld.v);
                    r = c.combine_to(uint32_t(k), r, ld, kahan.sum);
                } else {
                    kahan = kahan_start(ld.v);
                    r = ld;
                }
            }
        } else if (kAccum && p.accum == Accum::F64) {
            if constexpr (kAccum) {
                if (has) {
                    wide = wide_add(wide, ld.v);
                    r = c.combine_to(uint32_t(k), r, ld, wide_round<A>(wide));
                } else {
                    wide = wide_start(ld.v);
                    r = ld;
                }
            }
        } else if (kAccum && p.accum == Accum::Pairwise) {
            if constexpr (kAccum) pairwise_push(stack, depth, ++count, ld, merge);
        } else {
            r = has ? c.combine(uint32_t(k), r, ld) : ld;
        }
        has = true;
    }
    if (p.grid_stage == GridStage::AtomicElement) return;
    if (kAccum && p.accum == Accum::Pairwise && has) {
        k_now = p.K - 1;  // the stack's last merges: after the last item, on the stage's last step
        if constexpr (kAccum) r = pairwise_finish(stack, depth, merge);
    }
    if (!has) c.identity_fill(r, 0);

    c.reduce_block(r, smem, tid, p.B, p.warp_step, b);

    // grid stage
    const bool single = p.G == 1;
    if (p.grid_stage == GridStage::AtomicBlock) {
        if (tid == 0) record_atomic(c, out, p.grid_step, r);
        return;
    }
    if (single) {
        if (tid == 0) {
            rec.emit(EventKind::FinalStore, p.grid_step, 0, 0, r.ev, kNoEvent, pack_value(r.v), r.fl);
            *reinterpret_cast<V*>(out) = r.v;
        }
        return;
    }
    if (tid == 0) {
        uint32_t ev = rec.emit(EventKind::BlockPartial, p.grid_step, 0, b, r.ev, kNoEvent, pack_value(r.v), r.fl);
        store_tracked(partials + b, T{r.v, ev, r.fl});
        // (two-pass: the kernel boundary orders the partials; cooperative: grid.sync() does)
        if (p.grid_stage == GridStage::LastBlock) {
            // the partial is visible to every block before the ticket says it is stored; the bug
            // leaves the fence out, so the last block may read a stale partial
            if (!p.has(Bug::MissingThreadfence)) {
                __threadfence();
                rec.emit(EventKind::Fence, p.grid_step + 1, 0, 0, kNoEvent, kNoEvent, p.identity_bits, 0);
            }
            ticket = atomicAdd(counter, 1u);
            rec.emit(EventKind::Ticket, p.grid_step + 1, 0, ticket, ev, kNoEvent, pack_value(r.v), 0);
        } else if (p.grid_stage == GridStage::Cooperative) {
            rec.emit(EventKind::GridSync, p.grid_step + 1, 0, 0, ev, kNoEvent, pack_value(r.v), 0);
        }
    }
    if (p.grid_stage == GridStage::LastBlock) {
        __syncthreads();
        if (ticket != p.G - 1) return;  // not the last block to finish
        __threadfence();
    } else if (p.grid_stage == GridStage::Cooperative) {
        cooperative_groups::this_grid().sync();
        if (b != 0) return;
    } else {
        return;  // two-pass: the second launch finishes
    }
    __syncthreads();
    init_smem_tags(smem, p.smem_slots);
    __syncthreads();
    finish<OpT, kRecord>(p, smem, partials, buf, overflow, b, out);
}

// The second launch of two-pass: one block of P threads over the G partials.
template <class OpT, bool kRecord>
__global__ void finish_kernel(Plan p, DeviceRecord* buf, Tracked<typename OpT::Value>* partials, uint64_t* out,
                              int* overflow) {
    using T = Tracked<typename OpT::Value>;
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    init_smem_tags(smem, p.smem_slots);
    __syncthreads();
    finish<OpT, kRecord>(p, smem, partials, buf, overflow, p.G, out);
}

}  // namespace rl::cuda
