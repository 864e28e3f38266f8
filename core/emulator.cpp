// core/emulator.cpp — the CPU SIMT emulator: thread, warp, block and grid stages with CUDA's rules.
//
// Sections: 1. per-run state and event emission   2. shared memory with a happens-before check
//           3. thread stage   4. warp stage (shuffles, shared-memory trees)   5. block stage
//           6. grid stage and the finishing block   7. atomics in order   8. entry points
//
// The emulator records what happens, bugs included (a stale read under a legal warp order, lanes
// that skip a shuffle, a missing fence), and reports no hazard itself: emulate() ends with the
// checker (core/checker.h), which finds them from the events as it does for GPU traces.
//
// The kernels in cuda/ follow the same plan: the same steps, the same events, the same combine
// order, so a GPU trace and an emulator trace of one schedule compare event for event.
#include "core/emulator.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sys/mman.h>
#include <unistd.h>

#include "core/checker.h"
#include "core/event_order.h"
#include "core/exact_sum.h"

namespace rl {
namespace {

// Reserves the event buffer and asks for transparent huge pages on it: first-touch page faults
// otherwise cost a third of the emulator's time on these virtual machines.
void reserve_events(std::vector<Event>& events, size_t count) {
    if (count <= events.capacity()) return;
    events.reserve(count);
    constexpr uintptr_t kHuge = 2u << 20;
    auto begin = reinterpret_cast<uintptr_t>(events.data());
    uintptr_t end = begin + count * sizeof(Event);
    uintptr_t aligned = (begin + kHuge - 1) & ~(kHuge - 1);
    if (end > aligned + kHuge) madvise(reinterpret_cast<void*>(aligned), (end - aligned) & ~(kHuge - 1), MADV_HUGEPAGE);
}

uint32_t bit_floor_u32(uint32_t x) { return x == 0 ? 0 : std::bit_floor(x); }
// Levels of a tree over `active` values: offsets bit_floor(active-1) .. 1.
uint32_t levels_for(uint32_t active) { return active > 1 ? uint32_t(std::bit_width(active - 1)) : 0; }

template <class OpT, class A>
class Emulator {
    using V = typename OpT::Value;

    struct Val {
        V v;
        uint32_t ev;
        uint8_t fl;
    };
    struct Slot {
        Val cur{}, prev{};  // the latest store and the one before it (the unwritten state before any)
        uint32_t writer = 0, block_sync = 0, warp_sync = 0, level = 0;
        bool written = false;
        uint32_t prev_level = 0;
    };

public:
    Emulator(const Schedule& s, const InputData& in, const EmulatorOptions& opt, Trace& t)
        : s_(s), in_(in), opt_(opt), t_(t) {
        B_ = s.block;
        G_ = s.grid_size();
        T_ = uint64_t(G_) * B_;
        K_ = s.chunk();
        warp_ = s.effective_warp();
        assign_ = s.effective_assign();
        gstage_ = s.effective_grid_stage();
        shuffle_ = warp_ == WarpStage::ShflDown || warp_ == WarpStage::ShflDownAsc || warp_ == WarpStage::ShflXor;
        unbounded_ = s.has(Bug::FullMaskPartialWarp) || s.has(Bug::UnboundedSource);
        barrier_broken_ = s.has(Bug::MissingBarrier) || s.has(Bug::DivergentBarrier);
        V zero = unpack_value<V>(0);
        identity_ = s.has(Bug::WrongIdentity) ? zero : OpT::identity();
        poison_ = unpack_value<V>(kPoisonBits);
        unwritten_reg_ = {poison_, kNoEvent, kUnwrittenRegister};
        unwritten_mem_ = {poison_, kNoEvent, kUnwrittenMemory};
    }

    void run() {
        // Every block runs the same steps, so block 0's event count sizes the whole buffer.
        t_.events.reserve(size_t(std::min<uint64_t>(estimate_trace(s_).events, 1u << 16)));
        partial_.assign(gstage_ == GridStage::AtomicElement ? 0 : G_, unwritten_mem_);
        fenced_.assign(partial_.size(), 0);
        const uint32_t W = s_.warps_per_block();
        for (block_ = 0; block_ < G_; ++block_) {
            finisher_ = 0;
            reset_block(B_);
            step_ = 0;
            t_.scope_start[0] = 0;
            thread_stage(B_, [&](uint32_t tid, uint64_t k, uint64_t& index) {
                uint64_t g = uint64_t(block_) * B_ + tid;
                index = assign_ == Assign::Contiguous ? g * K_ + k : g + k * T_;
                return k < K_ && index < s_.n && (assign_ == Assign::GridStride || index < (g + 1) * K_);
            });
            step_ = uint16_t(K_);
            if (gstage_ == GridStage::AtomicElement) {
                t_.scope_start[1] = t_.scope_start[2] = t_.scope_start[3] = step_;
                continue;
            }
            t_.scope_start[1] = step_;
            in_warp_stage_ = true;
            for (uint32_t w = 0; w < W; ++w) warp_reduce(w, std::min(32u, B_ - 32 * w), std::min(32u, B_), true);
            step_ += warp_stage_steps(std::min(32u, B_), true);
            in_warp_stage_ = false;
            t_.scope_start[2] = step_;
            block_stage(W);
            t_.scope_start[3] = step_;
            grid_stage_of_block();
            if (block_ == 0 && G_ > 1) {
                const uint64_t per_block = t_.events.size() + 1;
                const uint64_t P = s_.finish_threads();
                const uint64_t finisher = 2 * uint64_t(G_) + 11 * P + 12 * ((P + 31) / 32) + 256;
                reserve_events(t_.events, size_t(per_block * G_ + per_block / 8 + finisher));
            }
        }
        grid_step_ = step_;
        finish_grid();
        order_atomics();
        t_.step_count = uint16_t(max_step_ + 1);
    }

private:
    // ---- 1. per-run state and event emission ------------------------------------------------
    const Schedule& s_;
    const InputData& in_;
    const EmulatorOptions& opt_;
    Trace& t_;
    uint32_t B_ = 0, G_ = 0;
    uint64_t T_ = 0, K_ = 0;
    WarpStage warp_{};
    Assign assign_{};
    GridStage gstage_{};
    bool shuffle_ = false, unbounded_ = false, barrier_broken_ = false;
    V identity_{}, poison_{};
    // Shadow state, as MemorySanitizer keeps it: storage no write has reached holds the poison, no
    // producing event and an undefined flag; only a write replaces that, and reads carry it on.
    Val unwritten_reg_{}, unwritten_mem_{};

    uint32_t block_ = 0;
    uint16_t step_ = 0, grid_step_ = 0;
    uint32_t max_step_ = 0;
    uint8_t finisher_ = 0;
    std::vector<Val> reg_;
    std::vector<Slot> smem_;
    uint32_t block_sync_ = 0;
    std::vector<uint32_t> warp_sync_;
    std::vector<Val> partial_;       // the block partials in global memory
    std::vector<uint8_t> fenced_;    // blocks that ran __threadfence() between their partial and ticket
    std::vector<uint32_t> atomics_;  // atomic events in emission order
    // Thread-stage accumulators of the current block (core/accum.h), beside the registers in reg_.
    std::vector<KahanState<A>> kahan_;
    std::vector<double> wide_;
    std::vector<Val> stack_;
    std::vector<uint32_t> depth_;
    std::vector<uint64_t> count_;
    std::vector<uint32_t> atomic_operand_flags_;
    std::vector<uint8_t> has_;       // threads of the current block that loaded an element
    bool in_warp_stage_ = false;     // the first pass's warp stage (where divergent-shuffle applies)

    uint32_t emit(EventKind kind, uint32_t thread, uint32_t detail, uint32_t aux, uint32_t d0, uint32_t d1,
                  const V& v, uint8_t fl) {
        Event e;
        e.kind = kind;
        e.flags = uint8_t(fl | finisher_);
        e.step = step_;
        e.thread = uint16_t(thread);
        e.detail = uint16_t(detail);
        e.block = block_;
        e.aux = aux;
        e.dep[0] = d0;
        e.dep[1] = d1;
        e.value = pack_value(v);
        if (step_ > max_step_) max_step_ = step_;
        t_.events.push_back(e);
        return uint32_t(t_.events.size() - 1);
    }

    Val combine(uint32_t thread, const Val& a, const Val& b) { return combine_to(thread, a, b, OpT::combine(a.v, b.v)); }

    // A combine whose value the caller computed (the thread stage's f64 and Kahan accumulation,
    // where hidden state, not the two operands alone, decides the new value).
    Val combine_to(uint32_t thread, const Val& a, const Val& b, const V& r) {
        uint8_t fl = combined_flags(a.fl, b.fl);
        if constexpr (std::is_same_v<OpT, WitnessOp>)
            if (OpT::violated(r)) fl |= kOrderViolated;
        return {r, emit(EventKind::Combine, thread, 0, 0, a.ev, b.ev, r, fl), fl};
    }

    // A thread without data writes the identity into its register. Under uninit-tail the program has no
    // such line (`Value v; if (i < n) v = in[i];`): the register stays as declared, unwritten, and the
    // first event that reads it records the undefined value it holds.
    void identity_fill(uint32_t thread) {
        if (s_.has(Bug::UninitTail)) return;
        uint32_t ev = emit(EventKind::IdentityFill, thread, 0, 0, kNoEvent, kNoEvent, identity_, kIdentity);
        reg_[thread] = {identity_, ev, kIdentity};
    }

    // ---- 2. shared memory with a happens-before check ---------------------------------------
    void reset_block(uint32_t threads) {
        reg_.assign(threads, unwritten_reg_);
        Slot fresh;
        fresh.cur = fresh.prev = unwritten_mem_;
        smem_.assign(32 * ((threads + 31) / 32) + 32, fresh);
        block_sync_ = 0;
        warp_sync_.assign((threads + 31) / 32, 0);
    }
    uint32_t partial_slot(uint32_t w) const { return uint32_t(smem_.size()) - 32 + w; }

    void write_slot(uint32_t slot, uint32_t thread, const Val& v, uint32_t level = 0) {
        Slot& sl = smem_[slot];
        uint32_t ev = emit(EventKind::SharedStore, thread, slot, 0, v.ev, kNoEvent, v.v, v.fl);
        sl.prev = sl.cur;
        sl.prev_level = sl.level;
        sl.cur = {v.v, ev, v.fl};
        sl.writer = thread;
        sl.block_sync = block_sync_;
        sl.warp_sync = warp_sync_[thread / 32];
        sl.level = level;
        sl.written = true;
    }

    // A load sees the latest store (a slot never stored holds the unwritten state), unless the writer's
    // store of the previous level of a warp tree races with it: with no __syncwarp between them (the
    // volatile unroll) nothing orders that store first, and the emulator picks the legal order where the
    // lane still sees the slot's older contents.
    Val read_slot(uint32_t slot, uint32_t thread, uint32_t level = 0) {
        Slot& sl = smem_[slot];
        Val got = sl.cur;
        uint8_t extra = 0;
        if (sl.written && sl.writer != thread && level > 0 && sl.level + 1 == level) {
            const bool same_warp = sl.writer / 32 == thread / 32;
            const bool race = same_warp ? sl.warp_sync == warp_sync_[thread / 32] : sl.block_sync == block_sync_;
            if (race) {
                got = sl.prev;
                extra = kStale;
            }
        }
        uint8_t fl = uint8_t(got.fl | extra);
        uint32_t ev = emit(EventKind::SharedLoad, thread, slot, 0, got.ev, kNoEvent, got.v, fl);
        return {got.v, ev, fl};
    }

    // between_levels: the __syncwarp() a Harris kernel-5 style unroll leaves out (volatile-unroll);
    // the sync after the first stores stands for the __syncthreads() that kernel keeps.
    void warp_sync(uint32_t w, bool between_levels) {
        if (between_levels && s_.has(Bug::VolatileUnroll)) return;
        emit(EventKind::WarpSync, 32 * w, 0, lanes_of_warp(w), kNoEvent, kNoEvent, identity_, 0);
        ++warp_sync_[w];
    }

    // The lanes of warp w that exist in the block now being run (barrier and __syncwarp lane masks).
    uint32_t lanes_of_warp(uint32_t w) const {
        const uint32_t n = uint32_t(reg_.size()) - std::min(uint32_t(reg_.size()), 32 * w);
        return n >= 32 ? 0xffffffffu : (1u << n) - 1;
    }

    void block_barrier(uint32_t warps, bool honoured) {
        for (uint32_t w = 0; w < warps; ++w) emit(EventKind::Barrier, 32 * w, 0, lanes_of_warp(w), kNoEvent, kNoEvent, identity_, 0);
        if (!honoured) return;
        ++block_sync_;
        for (auto& ws : warp_sync_) ++ws;
    }

    // ---- 3. thread stage -----------------------------------------------------------------------
    // item(tid, k, index) says whether thread tid has a k-th item and which input it is.
    template <class ItemFn>
    void thread_stage(uint32_t threads, ItemFn item) {
        has_.assign(threads, 0);
        std::vector<uint8_t>& has = has_;
        if (s_.accum == Accum::Kahan) kahan_.assign(threads, KahanState<A>{});
        if (s_.accum == Accum::F64) wide_.assign(threads, 0.0);
        if (s_.accum == Accum::Pairwise) {
            stack_.assign(size_t(threads) * kPairwiseStack, Val{});
            depth_.assign(threads, 0);
            count_.assign(threads, 0);
        }
        for (uint64_t k = 0; k < K_; ++k) {
            step_ = uint16_t(k);
            for (uint32_t tid = 0; tid < threads; ++tid) {
                uint64_t index = 0;
                if (!item(tid, k, index)) continue;
                A x = load_element(index);
                V lifted = OpT::lift(x, uint32_t(index));
                Val ld{lifted, emit(EventKind::Load, tid, uint32_t(k), uint32_t(index), kNoEvent, kNoEvent, lifted, 0), 0};
                if (gstage_ == GridStage::AtomicElement) {
                    atomic(tid, ld);
                } else {
                    accumulate(tid, ld, !has[tid]);
                }
                has[tid] = 1;
            }
        }
        if (gstage_ == GridStage::AtomicElement) return;
        if (s_.accum == Accum::Pairwise) {
            // The stack's last merges happen after the thread's last item, on the stage's last step.
            step_ = uint16_t(K_ - 1);
            for (uint32_t tid = 0; tid < threads; ++tid)
                if (has[tid])
                    reg_[tid] = pairwise_finish(&stack_[size_t(tid) * kPairwiseStack], depth_[tid],
                                                [&](const Val& a, const Val& b) { return combine(tid, a, b); });
        }
        step_ = 0;
        for (uint32_t tid = 0; tid < threads; ++tid)
            if (!has[tid]) identity_fill(tid);
    }

    // One item into thread tid's accumulator under the schedule's accumulation choice (core/accum.h).
    void accumulate(uint32_t tid, const Val& ld, bool first) {
        if constexpr (std::is_same_v<OpT, SumOp<A>> && std::is_floating_point_v<A>) {
            switch (s_.accum) {
                case Accum::Plain: break;
                case Accum::Kahan:
                    if (first) {
                        kahan_[tid] = kahan_start(ld.v);
                        reg_[tid] = ld;
                    } else {
                        kahan_add(kahan_[tid], ld.v);
                        reg_[tid] = combine_to(tid, reg_[tid], ld, kahan_[tid].sum);
                    }
                    return;
                case Accum::F64:
                    if (first) {
                        wide_[tid] = wide_start(ld.v);
                        reg_[tid] = ld;
                    } else {
                        wide_[tid] = wide_add(wide_[tid], ld.v);
                        reg_[tid] = combine_to(tid, reg_[tid], ld, wide_round<A>(wide_[tid]));
                    }
                    return;
                case Accum::Pairwise:
                    pairwise_push(&stack_[size_t(tid) * kPairwiseStack], depth_[tid], ++count_[tid], ld,
                                  [&](const Val& a, const Val& b) { return combine(tid, a, b); });
                    return;
            }
        }
        reg_[tid] = first ? ld : combine(tid, reg_[tid], ld);
    }

    A load_element(uint64_t i) const {
        switch (in_.type) {
            case DType::F32: return A(in_.f32[i]);
            case DType::F64: return A(in_.f64[i]);
            case DType::I32: return A(in_.i32[i]);
            case DType::BF16: return A(bf16_to_float(in_.h16[i]));
            case DType::F16: return A(f16_to_float(in_.h16[i]));
        }
        return A(0);
    }

    // ---- 4. warp stage ----------------------------------------------------------------------
    // Steps a warp stage takes for the widest warp (`widest` lanes) of the block.
    uint16_t warp_stage_steps(uint32_t widest, bool first_pass_store) const {
        if (first_pass_store && s_.block_stage == BlockStage::SmemTreeShfl) return 0;  // no separate warp stage
        if (shuffle_) return uint16_t(unbounded_ || divergent_shuffle() ? 5 : levels_for(widest));
        return uint16_t(levels_for(widest) + (first_pass_store ? 1 : 0));
    }

    // Reduces lanes [0, active) of warp w into lane 0's register.
    // in_registers: values start in registers (the first pass); else in slots at region_base.
    void warp_reduce(uint32_t w, uint32_t active, uint32_t widest, bool in_registers, uint32_t region_base = 0) {
        if (in_registers && s_.block_stage == BlockStage::SmemTreeShfl) return;  // the block stage takes the values
        if (shuffle_)
            shuffle_reduce(w, active, widest);
        else
            smem_reduce(w, active, widest, in_registers, in_registers ? 32 * w : region_base);
    }

    // A correct loop lets every lane execute the shuffle but combines only where the result is used
    // and the source holds data: down lanes below the offset, ascending every 2*offset-th lane, xor
    // every lane (the butterfly leaves the total in all of them). The bound also keeps partial warps
    // from reading lanes that do not participate.
    static bool useful(uint32_t lane, uint32_t src, uint32_t off, uint32_t active, bool xor_, bool ascending) {
        if (src >= active) return false;
        if (xor_) return true;
        if (ascending) return lane % (2 * off) == 0;
        return lane < off;
    }

    // divergent-shuffle: the first pass's warp reduction sits inside `if (i < n)`.
    bool divergent_shuffle() const { return in_warp_stage_ && s_.has(Bug::DivergentShuffle); }

    // Every lane that executes the call records its own Shuffle event, whether or not it uses the
    // value: which lanes executed is what the mask rule is checked against.
    void shuffle_reduce(uint32_t w, uint32_t active, uint32_t widest) {
        const bool xor_ = warp_ == WarpStage::ShflXor;
        const bool ascending = warp_ == WarpStage::ShflDownAsc;
        const bool divergent = divergent_shuffle();
        const bool unbounded = unbounded_ || divergent;  // the loop combines in every lane at every level
        const uint32_t top = unbounded ? 16 : bit_floor_u32(widest > 1 ? widest - 1 : 0);
        const uint32_t levels = unbounded ? 5 : levels_for(widest);
        const uint32_t active_mask = active == 32 ? 0xffffffffu : (1u << active) - 1;
        const uint32_t mask = s_.has(Bug::FullMaskPartialWarp) || divergent ? 0xffffffffu : active_mask;
        // The lanes that execute the shuffles: all participants, or (divergent-shuffle) those with an element.
        uint32_t executing = active_mask;
        if (divergent)
            for (uint32_t l = 0; l < active; ++l)
                if (!has_[32 * w + l]) executing &= ~(1u << l);
        const uint16_t base = step_;
        const uint32_t my_top = unbounded ? 16 : bit_floor_u32(active > 1 ? active - 1 : 0);
        Val snap[32];
        for (uint32_t level = 0; level < levels; ++level) {
            uint32_t off = ascending ? (1u << level) : (top >> level);
            if (!unbounded && off > my_top) continue;
            step_ = uint16_t(base + level);
            for (uint32_t l = 0; l < active; ++l) snap[l] = reg_[32 * w + l];
            for (uint32_t lane = 0; lane < active; ++lane) {
                if (!(executing >> lane & 1u)) continue;
                uint32_t src = xor_ ? (lane ^ off) : (lane + off);
                Val got;
                if (src >= 32) {
                    got = snap[lane];  // __shfl_down_sync past the warp returns the caller's own value
                } else if (src >= active || !(executing >> src & 1u)) {
                    got = {poison_, kNoEvent, kUndefined};  // that lane did not execute the call, or does not exist
                } else {
                    got = snap[src];
                }
                uint32_t thread = 32 * w + lane;
                uint32_t sev = emit(EventKind::Shuffle, thread, off | (std::min(src, 255u) << 8), mask, got.ev,
                                    kNoEvent, got.v, got.fl);
                if (!unbounded && !useful(lane, src, off, active, xor_, ascending)) continue;
                Val shuffled{got.v, sev, got.fl};
                bool other_first = xor_ && src < lane;  // keep lower lane ⊕ higher lane
                reg_[thread] = other_first ? combine(thread, shuffled, snap[lane]) : combine(thread, snap[lane], shuffled);
            }
        }
        step_ = base;
    }

    void smem_reduce(uint32_t w, uint32_t active, uint32_t widest, bool store_first, uint32_t base_slot) {
        const uint16_t base = step_;
        if (store_first) {
            for (uint32_t lane = 0; lane < active; ++lane) write_slot(base_slot + lane, 32 * w + lane, reg_[32 * w + lane]);
            warp_sync(w, false);
            ++step_;
        }
        const uint16_t level_base = step_;
        const uint32_t levels = levels_for(widest);
        for (uint32_t level = 0; level < levels; ++level) {
            step_ = uint16_t(level_base + level);
            uint32_t stride = warp_ == WarpStage::SmemSequential ? (bit_floor_u32(widest - 1) >> level) : (1u << level);
            for (uint32_t lane = 0; lane < active; ++lane) {
                uint32_t a = 0;
                if (warp_ == WarpStage::SmemDivergent) {
                    if (lane % (2 * stride) != 0) continue;
                    a = lane;
                } else if (warp_ == WarpStage::SmemStrided) {
                    a = 2 * stride * lane;
                } else {
                    if (lane >= stride) continue;
                    a = lane;
                }
                if (a + stride >= active) continue;
                uint32_t thread = 32 * w + lane;
                Val x = read_slot(base_slot + a, thread, level + 1);
                Val y = read_slot(base_slot + a + stride, thread, level + 1);
                Val c = combine(thread, x, y);
                write_slot(base_slot + a, thread, c, level + 1);
                reg_[thread] = c;
            }
            warp_sync(w, true);
        }
        step_ = base;
    }

    // ---- 5. block stage ---------------------------------------------------------------------
    // Combines the warp partials (lane 0 of each of W warps) into thread 0's register.
    void block_stage(uint32_t W) {
        if (s_.block_stage == BlockStage::SmemTreeShfl) return smem_tree_shfl();
        if (W <= 1) return;
        const uint16_t a = step_;
        const bool divergent = s_.has(Bug::DivergentBarrier);
        const uint32_t first_writers = barrier_broken_ ? 1 : W;  // with the bug, warp 0 runs ahead
        auto store_partials = [&](uint32_t from, uint32_t to) {
            for (uint32_t w = from; w < to; ++w) write_slot(partial_slot(w), 32 * w, reg_[32 * w]);
        };
        // __syncthreads() inside `if (lane == 0)`: only lane 0 of each warp arrives (aux = 1).
        auto divergent_barrier = [&](uint32_t from, uint32_t to) {
            for (uint32_t w = from; w < to; ++w) emit(EventKind::Barrier, 32 * w, 0, 1u, kNoEvent, kNoEvent, identity_, 0);
        };
        auto late_writers = [&]() {
            if (!barrier_broken_) return;
            store_partials(1, W);
            if (divergent) {
                ++step_;
                divergent_barrier(1, W);
            }
            ++step_;
        };

        step_ = a;
        store_partials(0, first_writers);
        ++step_;
        if (divergent) {
            divergent_barrier(0, 1);
            ++step_;
        } else if (!barrier_broken_) {
            block_barrier(W, true);
            ++step_;
        }
        if (s_.block_stage == BlockStage::WarpPartials) {
            if (shuffle_) {
                for (uint32_t l = 0; l < W; ++l) reg_[l] = read_slot(partial_slot(l), l);
                ++step_;
                warp_reduce(0, W, W, true);
                step_ += warp_stage_steps(W, false);
            } else {
                warp_reduce(0, W, W, false, partial_slot(0));
                step_ += warp_stage_steps(W, false);
            }
            late_writers();
            return;
        }
        // Shared-memory tree over the partials, sequential addressing, a barrier after each level.
        const uint32_t levels = levels_for(W);
        for (uint32_t level = 0; level < levels; ++level) {
            uint32_t stride = bit_floor_u32(W - 1) >> level;
            for (uint32_t tid = 0; tid < stride && tid + stride < W; ++tid) {
                Val x = read_slot(partial_slot(tid), tid);
                Val y = read_slot(partial_slot(tid + stride), tid);
                Val c = combine(tid, x, y);
                write_slot(partial_slot(tid), tid, c);
                reg_[tid] = c;
            }
            ++step_;
            if (level == 0) late_writers();
            block_barrier(W, true);
            ++step_;
        }
    }

    // The summary's blockReduce over every thread of the block (a power of two >= 64): each stores its
    // value, a barrier tree halves the slots down to 64, warp 0 adds smem[t] + smem[t + 32], then an
    // unrolled __shfl_down_sync(0xffffffff, v, 16 .. 1) in which every lane combines.
    void smem_tree_shfl() {
        const uint32_t n = uint32_t(reg_.size()), W = n / 32;
        for (uint32_t tid = 0; tid < n; ++tid) write_slot(tid, tid, reg_[tid]);
        ++step_;
        block_barrier(W, true);
        ++step_;
        for (uint32_t s = n / 2; s > 32; s >>= 1) {
            for (uint32_t tid = 0; tid < s; ++tid) {
                Val x = read_slot(tid, tid);
                Val y = read_slot(tid + s, tid);
                Val c = combine(tid, x, y);
                write_slot(tid, tid, c);
                reg_[tid] = c;
            }
            ++step_;
            block_barrier(W, true);
            ++step_;
        }
        for (uint32_t lane = 0; lane < 32; ++lane) {
            Val x = read_slot(lane, lane);
            Val y = read_slot(lane + 32, lane);
            reg_[lane] = combine(lane, x, y);
        }
        ++step_;
        Val snap[32];
        for (uint32_t off = 16; off > 0; off >>= 1) {
            for (uint32_t l = 0; l < 32; ++l) snap[l] = reg_[l];
            for (uint32_t lane = 0; lane < 32; ++lane) {
                const uint32_t src = lane + off;
                const Val got = src >= 32 ? snap[lane] : snap[src];  // past the warp: the caller's own value
                uint32_t sev = emit(EventKind::Shuffle, lane, off | (src << 8), 0xffffffffu, got.ev, kNoEvent, got.v, got.fl);
                reg_[lane] = combine(lane, snap[lane], Val{got.v, sev, got.fl});
            }
            ++step_;
        }
    }

    // ---- 6. grid stage and the finishing block ------------------------------------------------
    void grid_stage_of_block() {
        const Val partial = reg_[0];
        const bool single = G_ == 1;
        switch (gstage_) {
            case GridStage::AtomicBlock:
                atomic(0, partial);
                ++step_;
                return;
            case GridStage::AtomicElement: return;
            case GridStage::TwoPass:
            case GridStage::LastBlock:
            case GridStage::Cooperative:
                if (single) {
                    final_store(partial);
                    return;
                }
                break;
        }
        uint32_t ev = emit(EventKind::BlockPartial, 0, 0, block_, partial.ev, kNoEvent, partial.v, partial.fl);
        partial_[block_] = {partial.v, ev, partial.fl};
        ++step_;
        if (gstage_ == GridStage::LastBlock) {
            uint32_t ticket = opt_.tickets.empty() ? block_ : opt_.tickets.at(block_);
            // __threadfence() makes the partial visible to every block before the ticket can be seen.
            if (!s_.has(Bug::MissingThreadfence)) {
                emit(EventKind::Fence, 0, 0, 0, kNoEvent, kNoEvent, identity_, 0);
                fenced_[block_] = 1;
            }
            emit(EventKind::Ticket, 0, 0, ticket, ev, kNoEvent, partial.v, 0);
            ++step_;
        } else if (gstage_ == GridStage::Cooperative) {
            emit(EventKind::GridSync, 0, 0, 0, ev, kNoEvent, partial.v, 0);
            ++step_;
        }
    }

    void final_store(const Val& v) {
        t_.result_event = emit(EventKind::FinalStore, 0, 0, 0, v.ev, kNoEvent, v.v, v.fl);
        ++step_;
    }

    // The finishing stage: one block reduces the G block partials with min(B, G) threads.
    void finish_grid() {
        if (G_ == 1 || gstage_ == GridStage::AtomicBlock || gstage_ == GridStage::AtomicElement) return;
        uint32_t fb = G_;  // two-pass: the second launch, shown as block `grid`
        if (gstage_ == GridStage::Cooperative) fb = 0;
        if (gstage_ == GridStage::LastBlock) {
            fb = G_ - 1;
            if (!opt_.tickets.empty())
                for (uint32_t b = 0; b < G_; ++b)
                    if (opt_.tickets[b] == G_ - 1) fb = b;
        }
        t_.finisher_block = fb;
        block_ = fb;
        finisher_ = kFinisher;
        const uint32_t P = s_.finish_threads();
        reset_block(P);
        const uint64_t Kp = (uint64_t(G_) + P - 1) / P;
        step_ = grid_step_;
        std::vector<uint8_t> has(P, 0);
        // A block that ran no fence between its partial and its ticket: nothing orders the partial before
        // the ticket, so a legal order is the one where the partial of the block that finished just before
        // the last one (ticket G-2) is not visible yet when the last block reads it: it sees the slot's
        // older contents (unwritten).
        uint64_t stale = G_;
        if (gstage_ == GridStage::LastBlock && G_ >= 2) {
            uint32_t before_last = G_ - 2;
            if (!opt_.tickets.empty())
                for (uint32_t b = 0; b < G_; ++b)
                    if (opt_.tickets[b] == G_ - 2) before_last = b;
            if (!fenced_[before_last]) stale = before_last;
        }
        for (uint64_t k = 0; k < Kp; ++k) {
            for (uint32_t tid = 0; tid < P; ++tid) {
                uint64_t idx = assign_ == Assign::Contiguous ? tid * Kp + k : tid + k * P;
                if (idx >= G_) continue;
                Val p = partial_[idx];
                if (idx == stale) p = unwritten_mem_;
                Val ld{p.v, emit(EventKind::PartialLoad, tid, uint32_t(k), uint32_t(idx), p.ev, kNoEvent, p.v, p.fl), p.fl};
                reg_[tid] = has[tid] ? combine(tid, reg_[tid], ld) : ld;
                has[tid] = 1;
            }
            ++step_;
        }
        uint16_t fill_step = step_;
        step_ = grid_step_;
        for (uint32_t tid = 0; tid < P; ++tid)
            if (!has[tid]) identity_fill(tid);
        step_ = fill_step;
        const uint32_t W = (P + 31) / 32;
        for (uint32_t w = 0; w < W; ++w) warp_reduce(w, std::min(32u, P - 32 * w), std::min(32u, P), true);
        step_ += warp_stage_steps(std::min(32u, P), true);
        block_stage(W);
        final_store(reg_[0]);
    }

    // ---- 7. atomics in order ------------------------------------------------------------------
    // Emitted with the operand only; values and the chain are filled once every position is known.
    void atomic(uint32_t tid, const Val& operand) {
        uint32_t ev = emit(EventKind::Atomic, tid, 0, 0, kNoEvent, operand.ev, operand.v, operand.fl);
        atomics_.push_back(ev);
    }

    void order_atomics() {
        if (atomics_.empty()) return;
        std::vector<uint32_t> order(atomics_.size());
        if (opt_.atomic_positions.empty()) {
            for (uint32_t i = 0; i < order.size(); ++i) order[i] = atomics_[i];
        } else {
            if (opt_.atomic_positions.size() != atomics_.size())
                throw Error("replayed atomic order has " + std::to_string(opt_.atomic_positions.size()) +
                            " positions for " + std::to_string(atomics_.size()) + " atomics");
            std::vector<uint8_t> seen(order.size(), 0);
            for (uint32_t i = 0; i < order.size(); ++i) {
                uint32_t p = opt_.atomic_positions[i];
                if (p >= order.size() || seen[p]) throw Error("replayed atomic order is not a permutation");
                seen[p] = 1;
                order[p] = atomics_[i];
            }
        }
        Val mem{identity_, kNoEvent, kIdentity};
        finisher_ = 0;
        for (uint32_t pos = 0; pos < order.size(); ++pos) {
            Event& e = t_.events[order[pos]];
            V operand = unpack_value<V>(e.value);
            uint8_t ofl = e.flags;
            V r = OpT::combine(mem.v, operand);
            uint8_t fl = combined_flags(mem.fl, ofl);
            if constexpr (std::is_same_v<OpT, WitnessOp>)
                if (OpT::violated(r)) fl |= kOrderViolated;
            e.value = pack_value(r);
            e.dep[0] = mem.ev;
            e.aux = pos;
            e.flags = uint8_t((e.flags & (kHazard | kFinisher)) | fl);
            mem = {r, order[pos], fl};
        }
        t_.result_event = mem.ev;
    }
};
template <class OpT, class A>
void run_with(const Schedule& s, const InputData& in, const EmulatorOptions& opt, Trace& t) {
    Emulator<OpT, A> e(s, in, opt, t);
    e.run();
}

template <class A>
void dispatch_op(const Schedule& s, const InputData& in, const EmulatorOptions& opt, Trace& t) {
    switch (s.op) {
        case Op::Sum: return run_with<SumOp<A>, A>(s, in, opt, t);
        case Op::Max: return run_with<MaxOp<A>, A>(s, in, opt, t);
        case Op::Min: return run_with<MinOp<A>, A>(s, in, opt, t);
        case Op::Prod: return run_with<ProdOp<A>, A>(s, in, opt, t);
        case Op::Witness: return run_with<WitnessOp, A>(s, in, opt, t);
        case Op::ArgMax:
            if constexpr (sizeof(A) == 4) return run_with<ArgMaxOp<A>, A>(s, in, opt, t);
            break;
        case Op::SumCount:
            if constexpr (sizeof(A) == 4) return run_with<SumCountOp<A>, A>(s, in, opt, t);
            break;
    }
    throw Error("--op " + std::string(to_string(s.op)) + " is not available with --type " + std::string(to_string(s.type)));
}

}  // namespace

uint64_t identity_bits(const Schedule& s) {
    if (s.has(Bug::WrongIdentity)) return 0;
    auto bits = [&](auto acc) -> uint64_t {
        using A = decltype(acc);
        switch (s.op) {
            case Op::Sum: return pack_value(SumOp<A>::identity());
            case Op::Max: return pack_value(MaxOp<A>::identity());
            case Op::Min: return pack_value(MinOp<A>::identity());
            case Op::Prod: return pack_value(ProdOp<A>::identity());
            case Op::Witness: return pack_value(WitnessOp::identity());
            case Op::ArgMax:
                if constexpr (sizeof(A) == 4) return pack_value(ArgMaxOp<A>::identity());
                break;
            case Op::SumCount:
                if constexpr (sizeof(A) == 4) return pack_value(SumCountOp<A>::identity());
                break;
        }
        throw Error("--op " + std::string(to_string(s.op)) + " is not available with --type " + std::string(to_string(s.type)));
    };
    switch (s.type) {
        case DType::F64: return bits(double{});
        case DType::I32: return bits(int32_t{});
        default: return bits(float{});
    }
}

TraceEstimate estimate_trace(const Schedule& s) {
    // An upper bound: loads and thread combines (2n), then per thread at most one identity fill and
    // the warp stage's events (every lane records each shuffle it executes, and xor and the unbounded
    // loops combine in every lane at every level), then the block stage per warp and the grid stage per
    // block (partial, fence, ticket), and the finishing block likewise.
    const uint64_t G = s.grid_size(), T = s.total_threads(), W = s.warps_per_block();
    const uint64_t P = s.finish_threads();
    const bool every_lane = s.effective_warp() == WarpStage::ShflDown || s.effective_warp() == WarpStage::ShflDownAsc ||
                            s.effective_warp() == WarpStage::ShflXor;  // every lane records each shuffle it executes
    const uint64_t per_thread = every_lane ? 11 : 6;
    const uint64_t per_block = 12 * W + 8 * 6 + 8;
    uint64_t events = 2 * s.n + per_thread * T + G * per_block + 3 * G + per_thread * P + per_block + 64;
    uint64_t inputs = s.n <= kTraceInputsLimit ? s.n * sizeof(double) : 0;
    return {events, events * (sizeof(Event) + sizeof(EventTime)) + inputs};
}

uint64_t default_trace_limit_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return 4ull << 30;
    return uint64_t(pages) * uint64_t(page) / 2;
}

std::string check_traceable(const Schedule& s, uint64_t max_bytes) {
    if (max_bytes == 0) max_bytes = default_trace_limit_bytes();
    if (s.chunk() > 60000)
        return "each thread would take " + std::to_string(s.chunk()) +
               " items, more than the 60000 steps a trace can show; raise --grid or --block";
    const uint64_t G = s.grid_size(), P = s.finish_threads();
    if ((G + P - 1) / P > 60000)
        return "the finishing stage would give each of its " + std::to_string(P) + " threads " +
               std::to_string((G + P - 1) / P) + " block partials, more than the 60000 steps a trace can show; raise --block or --items";
    TraceEstimate e = estimate_trace(s);
    if (e.bytes > max_bytes) {
        char buf[320];
        snprintf(buf, sizeof buf,
                 "the trace would hold up to %.3g events (%.1f GB), over the %.1f GB limit (half of this machine's memory); "
                 "use a smaller --n",
                 double(e.events), double(e.bytes) / 1e9, double(max_bytes) / 1e9);
        return buf;
    }
    return {};
}

void fill_reference(Trace& t, const InputData& in) {
    const Schedule& s = t.schedule;
    const size_t n = in.size();
    double abs_sum = 0.0;
    ExactSum exact;
    for (size_t i = 0; i < n; ++i) {
        double x = in.value(i);
        exact.add(x);
        abs_sum += std::fabs(x);
    }
    t.abs_sum = abs_sum;
    auto fold = [&](auto op_tag, auto acc_tag) {
        using OpT = decltype(op_tag);
        using A = decltype(acc_tag);
        auto v = OpT::identity();
        for (size_t i = 0; i < n; ++i) v = OpT::combine(v, OpT::lift(A(in.value(i)), uint32_t(i)));
        return v;
    };
    const bool f64 = s.type == DType::F64, i32 = s.type == DType::I32;
    auto wrap_sum = [&]() {
        uint32_t acc = 0;
        for (size_t i = 0; i < n; ++i) acc += uint32_t(int32_t(in.value(i)));
        return int32_t(acc);
    };
    switch (s.op) {
        case Op::Sum:
        case Op::SumCount: {
            uint64_t bits;
            if (i32) {
                bits = pack_value(wrap_sum());
                t.reference_exact = exact.rounded();
            } else if (f64) {
                bits = pack_value(exact.rounded());
                t.reference_exact = exact.rounded();
            } else {
                bits = pack_value(exact.rounded_float());
                t.reference_exact = exact.rounded();
            }
            if (s.op == Op::SumCount) bits |= uint64_t(uint32_t(n)) << 32;
            t.reference_value = bits;
            break;
        }
        case Op::Prod: {
            long double p = 1.0L;
            for (size_t i = 0; i < n; ++i) p *= in.value(i);
            t.reference_exact = double(p);
            if (i32) {
                uint32_t acc = 1;
                for (size_t i = 0; i < n; ++i) acc *= uint32_t(int32_t(in.value(i)));
                t.reference_value = pack_value(int32_t(acc));
            } else {
                t.reference_value = f64 ? pack_value(double(p)) : pack_value(float(p));
            }
            break;
        }
        case Op::Max:
        case Op::Min:
        case Op::ArgMax:
        case Op::Witness: {
            uint64_t bits = 0;
            if (s.op == Op::Witness) bits = pack_value(fold(WitnessOp{}, 0.0));
            else if (i32) {
                if (s.op == Op::Max) bits = pack_value(fold(MaxOp<int32_t>{}, int32_t{}));
                if (s.op == Op::Min) bits = pack_value(fold(MinOp<int32_t>{}, int32_t{}));
                if (s.op == Op::ArgMax) bits = pack_value(fold(ArgMaxOp<int32_t>{}, int32_t{}));
            } else if (f64) {
                if (s.op == Op::Max) bits = pack_value(fold(MaxOp<double>{}, double{}));
                if (s.op == Op::Min) bits = pack_value(fold(MinOp<double>{}, double{}));
            } else {
                if (s.op == Op::Max) bits = pack_value(fold(MaxOp<float>{}, float{}));
                if (s.op == Op::Min) bits = pack_value(fold(MinOp<float>{}, float{}));
                if (s.op == Op::ArgMax) bits = pack_value(fold(ArgMaxOp<float>{}, float{}));
            }
            t.reference_value = bits;
            t.reference_exact = numeric_value(s.op, s.type, bits);
            break;
        }
    }
}

Trace emulate(const Schedule& s, const InputData& input, const EmulatorOptions& options) {
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    if (input.size() != s.n || input.type != s.type)
        throw Error("the input holds " + std::to_string(input.size()) + " " + std::string(to_string(input.type)) +
                    " elements but the schedule asks for " + std::to_string(s.n) + " " + std::string(to_string(s.type)));
    if (std::string err = check_traceable(s, options.max_trace_bytes); !err.empty()) throw Error(err);
    Trace t;
    t.schedule = s;
    t.backend = Backend::Cpu;
    t.device = "CPU SIMT emulator";
    t.grid = s.grid_size();
    if (s.n <= kTraceInputsLimit) {
        t.inputs.resize(input.size());
        for (size_t i = 0; i < input.size(); ++i) t.inputs[i] = input.value(i);
    }
    switch (s.type) {
        case DType::F64: dispatch_op<double>(s, input, options, t); break;
        case DType::I32: dispatch_op<int32_t>(s, input, options, t); break;
        default: dispatch_op<float>(s, input, options, t); break;
    }
    // A replayed hardware order can make an atomic follow one emitted after it: renumbered as GPU traces are,
    // so operands point to earlier events (the emulator's own order already does).
    if (!options.atomic_positions.empty() && first_forward_operand(t) != kNoEvent) order_operands_first(t);
    attach_checked_hazards(t);  // hazards come from the rules alone, as for GPU traces
    if (t.result_event != kNoEvent) {
        t.result_value = t.events[t.result_event].value;
        t.result_flags = t.events[t.result_event].flags;
    }
    fill_reference(t, input);
    return t;
}

Trace emulate(const Schedule& s) {
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    if (std::string err = check_traceable(s); !err.empty()) throw Error(err);  // before allocating the input
    return emulate(s, make_input(s));
}

}  // namespace rl
