// core/costs.cpp — bank conflicts, divergent warps and idle lanes of a trace (core/costs.h), warp-step by warp-step.
#include "core/costs.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <tuple>

namespace rl {

uint32_t shared_slot_bytes(const Trace& t) {
    const Schedule& s = t.schedule;
    const bool wide = s.type == DType::F64;
    // A student's kernel keeps shared arrays of its element type (float, int or double).
    if (!t.kernel_file.empty() || !t.lines.empty()) return wide ? 8 : s.type == DType::BF16 || s.type == DType::F16 ? 2 : 4;
    // The lab's schedules: `struct alignas(8) Value { A value; unsigned index; }` (argmax, sum-count; witness: two
    // unsigned) or `typedef A Value` with A double, int or float (bf16 and f16 accumulate in float).
    if (s.op == Op::Witness) return 8;
    if (s.op == Op::ArgMax || s.op == Op::SumCount) return wide ? 16 : 8;
    return wide ? 8 : 4;
}

uint32_t bank_conflict_degree(const uint32_t* slots, uint32_t count, uint32_t slot_bytes) {
    if (count == 0) return 0;
    slot_bytes = std::max<uint32_t>(1, slot_bytes);
    // A warp's access has at most 32 slots of at most 16 bytes (5 words when unaligned): the stack holds the usual case.
    const size_t per_slot = (slot_bytes + kBankWordBytes - 1) / kBankWordBytes + 1;
    uint64_t stack[32 * 5];
    std::vector<uint64_t> heap;
    uint64_t* words = stack;
    if (size_t(count) * per_slot > std::size(stack)) heap.resize(size_t(count) * per_slot), words = heap.data();
    size_t n = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t first = uint64_t(slots[i]) * slot_bytes, last = first + slot_bytes - 1;
        for (uint64_t w = first / kBankWordBytes; w <= last / kBankWordBytes; ++w) words[n++] = w;
    }
    std::sort(words, words + n);
    n = size_t(std::unique(words, words + n) - words);  // one word read by many lanes: a broadcast
    uint32_t per_bank[kSharedBanks] = {};
    uint32_t worst = 0;
    for (size_t i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[words[i] % kSharedBanks]);
    return worst;
}

namespace {

class CostPass {
public:
    CostPass(const Trace& t, const std::vector<uint32_t>& event_lines) : t_(t), ev_lines_(event_lines) {
        r_.slot_bytes = shared_slot_bytes(t);
        r_.has_lines = !ev_lines_.empty() || !t.lines.empty();
        B_ = std::max<uint32_t>(1, t.schedule.block);
        G_ = t.grid ? t.grid : t.schedule.grid_size();
        finish_threads_ = t.finish_threads ? t.finish_threads
                          : t.schedule.block_stage == BlockStage::SmemTreeShfl ? B_ : std::min(B_, G_);
    }

    CostReport run() {
        const size_t n = t_.events.size();
        if (n == 0) return std::move(r_);
        index_blocks();
        uint32_t steps = t_.step_count;
        for (const Event& e : t_.events) steps = std::max<uint32_t>(steps, uint32_t(e.step) + 1);
        r_.steps.assign(steps, StepCosts{});
        lives(steps);
        // Warp-steps are read in (step, block, warp) order, each lane's events in program order. Student and GPU traces
        // come in that order already; the emulator's come a block at a time, sorted here block by block while its
        // events are in the cache; anything else by two stable counting sorts over the whole trace.
        auto same = [&](uint32_t a, uint32_t b) {
            const Event &x = t_.events[a], &y = t_.events[b];
            return x.step == y.step && x.block == y.block && x.warp() == y.warp();
        };
        auto walk = [&](const uint32_t* first, const uint32_t* last) {
            for (const uint32_t* run = first; run != last;) {
                const uint32_t* end = run + 1;
                while (end != last && same(*end, *run)) ++end;
                warp_step(t_.events[*run].step, run, end);
                run = end;
            }
        };
        auto key = [&](uint32_t i) {
            const Event& e = t_.events[i];
            return std::make_tuple(e.step, e.block, e.warp());
        };
        bool ordered = true;
        size_t runs = 1;
        for (uint32_t i = 1; i < n && ordered; ++i) ordered = !(key(i) < key(i - 1));
        for (uint32_t i = 1; i < n; ++i) runs += t_.events[i].block != t_.events[i - 1].block;
        std::vector<uint32_t> order;
        if (ordered) {
            order.resize(n);
            for (uint32_t i = 0; i < n; ++i) order[i] = i;
            walk(order.data(), order.data() + n);
        } else if (runs == blocks_.size()) {
            std::vector<uint64_t> keyed;
            for (uint32_t b0 = 0; b0 < n;) {
                uint32_t b1 = b0 + 1;
                while (b1 < n && t_.events[b1].block == t_.events[b0].block) ++b1;
                keyed.clear();
                for (uint32_t i = b0; i < b1; ++i)  // step, warp (< 2048: 16-bit threads), then the event's place
                    keyed.push_back(uint64_t(t_.events[i].step) << 48 | uint64_t(t_.events[i].warp()) << 37 | (i - b0));
                std::sort(keyed.begin(), keyed.end());
                order.resize(keyed.size());
                for (size_t k = 0; k < keyed.size(); ++k) order[k] = b0 + uint32_t(keyed[k] & ((1ull << 37) - 1));
                walk(order.data(), order.data() + order.size());
                b0 = b1;
            }
            std::stable_sort(r_.accesses.begin(), r_.accesses.end(),
                             [](const SharedAccess& a, const SharedAccess& b) { return std::tie(a.step, a.block, a.warp) < std::tie(b.step, b.block, b.warp); });
        } else {
            std::vector<uint64_t> warp_base(blocks_.size() + 1, 0);
            for (size_t b = 0; b < blocks_.size(); ++b) warp_base[b + 1] = warp_base[b] + (thread_base_[b + 1] - thread_base_[b] + 31) / 32;
            std::vector<uint32_t> warp_of(n), by_warp(n);
            uint32_t cached = kNoEvent;
            size_t b = 0;
            for (uint32_t i = 0; i < n; ++i) {
                const Event& e = t_.events[i];
                if (e.block != cached) cached = e.block, b = instance(e.block);
                warp_of[i] = uint32_t(warp_base[b] + e.warp());
            }
            std::vector<uint32_t> at(size_t(warp_base.back()) + 1, 0);
            for (uint32_t i = 0; i < n; ++i) ++at[size_t(warp_of[i]) + 1];
            for (size_t w = 1; w < at.size(); ++w) at[w] += at[w - 1];
            for (uint32_t i = 0; i < n; ++i) by_warp[at[warp_of[i]]++] = i;
            std::vector<uint32_t> start(size_t(steps) + 1, 0);
            for (const Event& e : t_.events) ++start[size_t(e.step) + 1];
            for (uint32_t s = 0; s < steps; ++s) start[s + 1] += start[s];
            order.resize(n);
            for (uint32_t i : by_warp) order[start[t_.events[i].step]++] = i;
            walk(order.data(), order.data() + n);
        }
        for (const StepCosts& c : r_.steps) {
            r_.lane_steps += c.lanes;
            r_.live_lane_steps += c.live;
            r_.active_lane_steps += c.active;
        }
        for (const LineCost& c : lines_)
            if (c.accesses || c.divergent_warp_steps) r_.lines.push_back(c);
        return std::move(r_);
    }

private:
    const Trace& t_;
    const std::vector<uint32_t>& ev_lines_;
    CostReport r_;
    uint32_t B_ = 1, G_ = 1, finish_threads_ = 1;
    std::vector<uint32_t> blocks_;        // the block instances, ascending
    std::vector<uint64_t> thread_base_;   // per instance: index of its thread 0 in last_step_
    std::vector<int32_t> last_step_;      // per thread of every instance: the step of its last event, -1: none
    std::vector<LineCost> lines_;  // indexed by line (source lines are small numbers)
    LineCost& line_cost(uint32_t line) {
        if (line >= lines_.size()) lines_.resize(size_t(line) + 1);
        lines_[line].line = line;
        return lines_[line];
    }

    uint32_t line_of(uint32_t i) const {
        if (!ev_lines_.empty()) return i < ev_lines_.size() && ev_lines_[i] <= 0xffff ? ev_lines_[i] : 0;  // lines_ is by line
        return i < t_.lines.size() ? t_.lines[i] : 0;
    }
    // Threads of a block instance, as the checker counts them: a plain CUDA launch's own block size; the second
    // launch of the lab's two-pass (block == grid) its finishing threads.
    uint32_t threads_of(uint32_t block) const {
        for (const LaunchScope& l : t_.launches)
            if (block >= l.first_block && block - l.first_block < l.grid) return std::max<uint32_t>(1, l.block);
        return block >= G_ ? finish_threads_ : B_;
    }
    uint32_t existing_lanes(uint32_t block, uint32_t warp) const {
        const uint32_t n = threads_of(block), first = 32 * warp;
        if (n <= first) return 0;
        return n - first >= 32 ? 0xffffffffu : (1u << (n - first)) - 1;
    }
    size_t instance(uint32_t block) const {
        return size_t(std::lower_bound(blocks_.begin(), blocks_.end(), block) - blocks_.begin());
    }
    // Lanes an event speaks for: a barrier's arrivals (aux; 0 in old traces: all), a __syncwarp's named lanes and
    // its caller; any other event its own lane. The exit event is no activity.
    uint32_t named_lanes(const Event& e, uint32_t existing) const {
        if (e.kind == EventKind::Barrier) return (e.aux ? e.aux : existing) & existing;
        if (e.kind == EventKind::WarpSync) return ((e.aux ? e.aux : existing) & existing) | (1u << e.lane());
        return 1u << e.lane();
    }

    void index_blocks() {
        uint32_t cached = kNoEvent;
        for (const Event& e : t_.events)
            if (e.block != cached) blocks_.push_back(cached = e.block);
        std::sort(blocks_.begin(), blocks_.end());
        blocks_.erase(std::unique(blocks_.begin(), blocks_.end()), blocks_.end());
        thread_base_.resize(blocks_.size() + 1, 0);
        for (size_t b = 0; b < blocks_.size(); ++b) thread_base_[b + 1] = thread_base_[b] + threads_of(blocks_[b]);
        last_step_.assign(thread_base_.back(), -1);
    }

    // Each thread's last step and each block's span; then lane slots and live lanes per step by difference arrays.
    void lives(uint32_t steps) {
        std::vector<int32_t> first(blocks_.size(), int32_t(steps)), last(blocks_.size(), -1);
        uint32_t cached = kNoEvent;
        size_t b = 0;
        for (const Event& e : t_.events) {
            if (e.block != cached) cached = e.block, b = instance(e.block);
            first[b] = std::min<int32_t>(first[b], e.step);
            last[b] = std::max<int32_t>(last[b], e.step);
            const uint32_t existing = existing_lanes(e.block, e.warp());
            uint32_t lanes = e.kind == EventKind::Barrier || e.kind == EventKind::WarpSync ? named_lanes(e, existing) : 1u << e.lane();
            lanes &= existing | (1u << e.lane());
            for (; lanes; lanes &= lanes - 1) {
                const uint32_t th = 32 * e.warp() + uint32_t(std::countr_zero(lanes));
                if (th >= threads_of(e.block)) continue;  // outside the launch (the trace readers refuse it)
                int32_t& ls = last_step_[thread_base_[b] + th];
                ls = std::max<int32_t>(ls, e.step);
            }
        }
        std::vector<int64_t> slots(size_t(steps) + 1, 0), live(size_t(steps) + 1, 0);
        for (size_t k = 0; k < blocks_.size(); ++k) {
            if (last[k] < 0) continue;
            const uint32_t threads = threads_of(blocks_[k]);
            slots[size_t(first[k])] += 32 * int64_t((threads + 31) / 32);
            slots[size_t(last[k]) + 1] -= 32 * int64_t((threads + 31) / 32);
            for (uint32_t th = 0; th < threads; ++th) {
                const int32_t ls = last_step_[thread_base_[k] + th];
                if (ls < first[k]) continue;  // recorded nothing: it left at once
                live[size_t(first[k])] += 1;
                live[size_t(ls) + 1] -= 1;
            }
        }
        int64_t sl = 0, lv = 0;
        for (uint32_t s = 0; s < steps; ++s) {
            sl += slots[s], lv += live[s];
            r_.steps[s].lanes = uint64_t(sl);
            r_.steps[s].live = uint64_t(lv);
        }
    }

    struct Access {
        uint32_t line;
        EventKind kind;
        uint32_t event;
        uint32_t lanes;
        uint32_t count;
        uint32_t slots[32];  // one per lane: a lane's k-th access here is the k-th instruction
    };
    std::vector<Access> acc_;
    std::vector<std::pair<uint32_t, uint32_t>> line_masks_;

    // One warp on one step: events [run, end) of one block and warp, each lane's in program order.
    void warp_step(uint16_t step, const uint32_t* run, const uint32_t* end) {
        const Event& head = t_.events[*run];
        const uint32_t block = head.block, warp = head.warp();
        const uint32_t existing = existing_lanes(block, warp);
        const size_t b = instance(block);
        uint32_t live = 0;
        for (uint32_t m = existing; m; m &= m - 1) {
            const uint32_t l = uint32_t(std::countr_zero(m));
            if (last_step_[thread_base_[b] + 32 * warp + l] >= int32_t(step)) live |= 1u << l;
        }
        line_masks_.clear();
        acc_.clear();
        uint32_t active = 0;
        for (const uint32_t* p = run; p != end; ++p) {
            const Event& e = t_.events[*p];
            if (e.kind == EventKind::Exit) continue;
            const uint32_t lanes = named_lanes(e, existing) & (live | (1u << e.lane()));
            active |= lanes;
            const uint32_t line = line_of(*p);
            auto lm = std::find_if(line_masks_.begin(), line_masks_.end(), [&](const auto& x) { return x.first == line; });
            if (lm == line_masks_.end()) line_masks_.push_back({line, lanes});
            else lm->second |= lanes;
            if (e.kind != EventKind::SharedLoad && e.kind != EventKind::SharedStore) continue;
            // The k-th access of this lane at this line and kind on this step belongs to the warp's k-th instruction
            // there: the first such instruction (in order) that does not have this lane yet.
            const uint32_t bit = 1u << e.lane();
            auto ac = std::find_if(acc_.begin(), acc_.end(), [&](const Access& x) { return x.line == line && x.kind == e.kind && !(x.lanes & bit); });
            if (ac == acc_.end()) {
                acc_.push_back({line, e.kind, *p, 0, 0, {}});
                ac = acc_.end() - 1;
            }
            ac->lanes |= 1u << e.lane();
            ac->slots[ac->count++] = e.detail;
        }
        StepCosts& sc = r_.steps[step];
        sc.active += uint64_t(std::popcount(active));
        bool split = false;
        for (const auto& [line, mask] : line_masks_) {
            if (mask == 0 || mask == live) continue;
            split = true;
            ++line_cost(line).divergent_warp_steps;
        }
        if (split) ++sc.divergent_warps, ++r_.divergent_warp_steps;
        for (const Access& a : acc_) {
            const uint32_t d = bank_conflict_degree(a.slots, a.count, r_.slot_bytes);
            SharedAccess sa;
            sa.event = a.event;
            sa.block = block;
            sa.line = a.line;
            sa.step = step;
            sa.warp = uint16_t(warp);
            sa.kind = a.kind;
            sa.lanes = uint8_t(std::popcount(a.lanes));
            sa.degree = uint8_t(d);
            r_.accesses.push_back(sa);
            ++sc.accesses;
            if (d > 1) ++sc.conflicted;
            if (d > sc.max_degree) sc.max_degree = d, sc.worst_line = a.line;
            LineCost& lc = line_cost(a.line);
            ++lc.accesses;
            lc.passes += d;
            if (d > 1) ++lc.conflicted;
            lc.max_degree = std::max(lc.max_degree, d);
            ++r_.shared_accesses;
            r_.passes += d;
            if (d > 1) ++r_.conflicted;
            if (d > r_.max_degree) r_.max_degree = d, r_.worst_line = a.line;
        }
    }
};

}  // namespace

CostReport compute_costs(const Trace& t, const std::vector<uint32_t>& event_lines) {
    return CostPass(t, event_lines).run();
}

}  // namespace rl
