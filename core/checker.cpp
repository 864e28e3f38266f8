// core/checker.cpp — the trace checker: hazards by the CUDA rules, from a trace's events alone.
//
// Sections: 1. the trace seen by the rules (block instances, positions, helpers)
//           2. barriers   3. shared memory (happens-before)   4. shuffles (mask and reads)
//           5. values (identity, uninitialised registers)   6. across blocks (fence, stale partials, global races)
//           7. order witness and atomic chains   8. grouping per warp instruction, entry points
//
// The checker never looks at the schedule's bugs or at hazards already in the trace: it reads the
// events (what each thread did, which store a load saw, which lanes ran a shuffle and with what mask),
// the block geometry (threads per block, blocks) and the operator. docs/checker.md lists the rules.
#include "core/checker.h"
#include "core/analysis.h"
#include "core/text_format.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rl {
namespace {

// ---- 1. the trace seen by the rules ------------------------------------------------------------
// A block instance is one block's run with its own shared memory: a first-pass block, or the
// finishing stage (the second launch of two-pass, the last block, block 0 after grid.sync()).
uint32_t instance_key(const Event& e) { return e.block * 2u + ((e.flags & kFinisher) ? 1u : 0u); }

// Order of events in one thread or warp: the step, then the order of emission within it.
uint64_t pos(const Trace& t, uint32_t i) { return (uint64_t(t.events[i].step) << 32) | i; }

std::string lanes_text(uint32_t mask) { return lane_ranges(mask); }
std::string lane_word(uint32_t mask) { return std::popcount(mask) == 1 ? "lane " : "lanes "; }
// The word that agrees with a lane mask as its subject: one lane "reads", several lanes "read".
std::string agree(uint32_t mask, const char* one, const char* many) { return std::popcount(mask) == 1 ? one : many; }
// "lanes 0-3" or "lane 7": a mask as the subject or object of a sentence.
std::string lanes_phrase(uint32_t mask) { return lane_word(mask) + lanes_text(mask); }


struct Finding {
    HazardKind kind;
    uint32_t event;
    uint32_t lanes;
    std::string what;
    bool per_lane;  // one lane's finding: merged with its warp's other lanes at the same instruction
};

class Checker {
public:
    Checker(const Trace& t, uint64_t race_pairs) : t_(t), race_pairs_(race_pairs) {
        B_ = std::max<uint32_t>(1, t.schedule.block);
        G_ = t.grid ? t.grid : t.schedule.grid_size();
        if (!t.launches.empty()) G_ = uint32_t(std::min<uint64_t>(launch_blocks(t), 0xfffffffeu));  // every launch's blocks
        finish_threads_ = t.finish_threads ? t.finish_threads
                          : t.schedule.block_stage == BlockStage::SmemTreeShfl ? B_ : std::min(B_, G_);
    }

    // Each rule reads all the events of a trace of millions: a rule whose kinds the trace lacks is skipped (barriers()
    // notes the kinds present as it reads them).
    std::vector<Finding> run() {
        barriers();
        if (has(EventKind::SharedStore) || has(EventKind::SharedLoad)) shared_memory();
        if (has(EventKind::Shuffle)) shuffles();
        if (has(EventKind::WarpSync)) warp_sync_masks();
        values();
        if (has(EventKind::Ticket) || has(EventKind::PartialLoad)) across_blocks();
        if (!(t_.launches.empty() && t_.kernel_file.empty()) && (has(EventKind::BlockPartial) || has(EventKind::FinalStore)))
            global_races();
        order_witness();
        if (has(EventKind::Atomic)) atomic_chains();
        return std::move(found_);
    }

private:
    const Trace& t_;
    uint64_t race_pairs_;  // the global-memory-race rule's budget of access pairs (a note when it runs out)
    uint32_t B_ = 1, G_ = 1, finish_threads_ = 1;
    std::vector<uint8_t> used_;  // some later event reads this event's value (filled by shuffles(), which asks)
    KindMask kinds_ = 0;         // the kinds of events in the trace (barriers() fills it)
    bool has(EventKind k) const { return kinds_ >> unsigned(k) & 1u; }
    std::vector<Finding> found_;
    // Per block instance: steps of complete barriers (sorted), and per warp the __syncwarp() events.
    std::unordered_map<uint32_t, std::vector<uint16_t>> complete_barriers_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> warp_syncs_;
    std::vector<uint8_t> cone_;  // events the result depends on (filled when first asked)
    struct DataReduction {       // the reduction of the loads in that cone (filled when first asked)
        uint64_t value = 0;      // packed
        uint32_t loads = 0;
    };
    std::optional<DataReduction> data_;
    // A plain run's tickets per trace block (filled when first asked): what orders two blocks of one launch.
    std::optional<std::unordered_map<uint32_t, std::vector<uint32_t>>> tickets_;

    // Threads of a block instance: the second launch of two-pass has min(block, grid) threads (the whole
    // block for smem-tree-shfl).
    // A plain run's block has its own launch's threads.
    uint32_t threads_of(const Event& e) const {
        if (!t_.launches.empty()) return std::max<uint32_t>(1, t_.launches[launch_of_block(t_, e.block)].block);
        if ((e.flags & kFinisher) && e.block >= G_) return finish_threads_;
        return B_;
    }
    // " of block 3" where the sentence names its thread's block; nothing in a trace with launches, whose messages
    // start with the whole place ("In launch 2, block 0, warp 0, lanes 0-15: ", section 8).
    std::string of_block(const Event& e) const {
        return t_.launches.empty() ? " of block " + std::to_string(e.block) : std::string();
    }
    uint32_t existing_lanes(const Event& e) const {
        const uint32_t n = threads_of(e), first = 32 * e.warp();
        if (n <= first) return 0;
        return n - first >= 32 ? 0xffffffffu : (1u << (n - first)) - 1;
    }
    static uint32_t lanes_named(const Event& e, uint32_t existing) { return e.aux ? e.aux : existing; }

    void add(HazardKind k, uint32_t ev, uint32_t lanes, std::string what, bool per_lane = false) {
        found_.push_back({k, ev, lanes, std::move(what), per_lane});
    }

    // ---- 2. barriers ---------------------------------------------------------------------------
    // __syncthreads() must be reached by every thread of the block that has not exited. A thread that
    // still has events at or after the barrier's step has not exited; it must arrive at that barrier.
    void barriers() {
        std::unordered_map<uint32_t, std::vector<int32_t>> last_step;  // per instance, per thread
        std::unordered_map<uint32_t, std::vector<uint32_t>> at;        // barrier events per instance
        uint32_t cached = kNoEvent;  // events of one instance come in runs: look its vector up once per run
        std::vector<int32_t>* cur = nullptr;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            kinds_ |= 1u << unsigned(e.kind);
            if (instance_key(e) != cached) {
                cached = instance_key(e);
                cur = &last_step[cached];
                if (cur->empty()) cur->assign(threads_of(e), -1);
            }
            auto& ls = *cur;
            if (e.kind == EventKind::Barrier || e.kind == EventKind::WarpSync) {
                uint32_t lanes = lanes_named(e, existing_lanes(e));
                for (uint32_t l = 0; l < 32; ++l)
                    if ((lanes >> l & 1u) && 32 * e.warp() + l < ls.size()) ls[32 * e.warp() + l] = std::max<int32_t>(ls[32 * e.warp() + l], e.step);
                if (e.kind == EventKind::Barrier) at[instance_key(e)].push_back(i);
                else warp_syncs_[(uint64_t(instance_key(e)) << 16) | e.warp()].push_back(i);
            } else if (e.thread < ls.size()) {
                ls[e.thread] = std::max<int32_t>(ls[e.thread], e.step);
            }
        }
        for (auto& [inst, evs] : at) {
            const auto& ls = last_step[inst];
            std::sort(evs.begin(), evs.end(), [&](uint32_t a, uint32_t b) { return pos(t_, a) < pos(t_, b); });
            for (size_t k = 0; k < evs.size();) {
                const uint16_t step = t_.events[evs[k]].step;
                size_t j = k;
                std::vector<uint32_t> arrived((ls.size() + 31) / 32, 0);
                for (; j < evs.size() && t_.events[evs[j]].step == step; ++j) {
                    const Event& e = t_.events[evs[j]];
                    if (e.warp() < arrived.size()) arrived[e.warp()] |= lanes_named(e, existing_lanes(e));
                }
                // One barrier reached from two places in the source (a student's kernel records each arrival's
                // line in detail): `__syncthreads()` in both arms of a branch that is not uniform. A warp split
                // between two lines hangs; a split by whole warps completes (on the H200 and the emulator) and lands here.
                uint16_t line_a = t_.events[evs[k]].detail, line_b = line_a;
                for (size_t m = k; m < j; ++m) line_b = t_.events[evs[m]].detail != line_a ? t_.events[evs[m]].detail : line_b;
                if (line_b != line_a)
                    for (size_t m = k; m < j; ++m) {
                        const Event& e = t_.events[evs[m]];
                        if (e.detail == line_a) continue;
                        add(HazardKind::DivergentBarrier, evs[m], lanes_named(e, existing_lanes(e)),
                            "`__syncthreads()` at step " + std::to_string(step) + " is reached at line " + std::to_string(e.detail) +
                                " by " + lane_word(lanes_named(e, existing_lanes(e))) + lanes_text(lanes_named(e, existing_lanes(e))) +
                                " of warp " + std::to_string(e.warp()) + " and at line " + std::to_string(line_a) +
                                " by other threads: the branch around it is not the same for the whole block");
                    }
                // Non-exited threads that do not arrive, per warp.
                std::vector<uint32_t> missing(arrived.size(), 0);
                uint32_t count = 0;
                for (uint32_t th = 0; th < ls.size(); ++th)
                    if (ls[th] >= int32_t(step) && !(arrived[th / 32] >> (th % 32) & 1u)) missing[th / 32] |= 1u << (th % 32), ++count;
                if (count == 0) {
                    complete_barriers_[inst].push_back(step);
                } else {
                    std::string who;
                    int shown = 0;
                    for (uint32_t w = 0; w < missing.size(); ++w) {
                        if (!missing[w]) continue;
                        if (shown++ == 4) { who += ", ..."; break; }
                        who += (who.empty() ? "" : ", ") + lane_word(missing[w]) + lanes_text(missing[w]) + " of warp " + std::to_string(w);
                    }
                    for (size_t m = k; m < j; ++m) {
                        const Event& e = t_.events[evs[m]];
                        uint32_t lanes = lanes_named(e, existing_lanes(e));
                        add(HazardKind::DivergentBarrier, evs[m], lanes,
                            "`__syncthreads()` at step " + std::to_string(step) + " is reached by " + lane_word(lanes) +
                                lanes_text(lanes) + " of warp " + std::to_string(e.warp()) + ", but not by " +
                                std::to_string(count) +
                                (count == 1 ? " thread of the block that has not exited (" : " threads of the block that have not exited (") +
                                who + "): it orders nothing");
                    }
                }
                k = j;
            }
        }
    }

    // ---- 3. shared memory ------------------------------------------------------------------------
    // A barrier or __syncwarp() recorded at step s orders what its threads did up to step s before what
    // they do after it. Steps, not event indices: a GPU trace lists each thread's events in its own slots,
    // so indices order one thread's events but not those of two threads at one step.
    bool barrier_between(uint32_t inst, uint16_t a, uint16_t b) const {
        auto it = complete_barriers_.find(inst);
        if (it == complete_barriers_.end()) return false;
        auto s = std::lower_bound(it->second.begin(), it->second.end(), a);
        return s != it->second.end() && *s < b;
    }
    bool warp_sync_between(uint32_t inst, const Event& x, const Event& y) const {
        auto it = warp_syncs_.find((uint64_t(inst) << 16) | x.warp());
        if (it == warp_syncs_.end()) return false;
        for (uint32_t s : it->second) {
            const Event& e = t_.events[s];
            const uint32_t lanes = lanes_named(e, existing_lanes(e));
            if (x.step <= e.step && e.step < y.step && (lanes >> x.lane() & 1u) && (lanes >> y.lane() & 1u)) return true;
        }
        return false;
    }
    // x happens before y (both in one block instance): program order in one thread, a __syncwarp()
    // naming both lanes of one warp, or a barrier every non-exited thread reached.
    bool happens_before(uint32_t inst, uint32_t xi, uint32_t yi) const {
        const Event &x = t_.events[xi], &y = t_.events[yi];
        if (x.thread == y.thread) return pos(t_, xi) < pos(t_, yi);
        if (barrier_between(inst, x.step, y.step)) return true;
        return x.warp() == y.warp() && warp_sync_between(inst, x, y);
    }

    // The racing store named in the words: one of another warp first (a missing __syncthreads()), then
    // the latest one before the load (the value the program meant it to see), then the first after it.
    bool better_racer(const Event& ld, uint32_t li, uint32_t a, uint32_t b) const {
        const bool a_other = t_.events[a].warp() != ld.warp(), b_other = t_.events[b].warp() != ld.warp();
        if (a_other != b_other) return a_other;
        const bool a_before = pos(t_, a) < pos(t_, li), b_before = pos(t_, b) < pos(t_, li);
        if (a_before != b_before) return a_before;
        return a_before ? pos(t_, a) > pos(t_, b) : pos(t_, a) < pos(t_, b);
    }

    void shared_memory() {
        // Each block instance's shared-memory events (in index order), then per slot its stores and its loads: one
        // list per instance and scratch lists reused, not two lists per slot (a million small allocations).
        std::unordered_map<uint32_t, uint32_t> id_of;  // instance -> its list
        std::vector<uint32_t> instance;
        std::vector<std::vector<uint32_t>> events;
        uint32_t cached = kNoEvent, cur = 0;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind != EventKind::SharedStore && e.kind != EventKind::SharedLoad) continue;
            if (instance_key(e) != cached) {
                cached = instance_key(e);
                auto [it, fresh] = id_of.try_emplace(cached, uint32_t(events.size()));
                if (fresh) {
                    instance.push_back(cached);
                    events.emplace_back();
                }
                cur = it->second;
            }
            events[cur].push_back(i);
        }
        std::vector<uint32_t> at, by_slot, stores, loads;
        for (uint32_t id = 0; id < events.size(); ++id) {
            const std::vector<uint32_t>& ev = events[id];
            uint32_t slots = 0;
            for (uint32_t i : ev) slots = std::max<uint32_t>(slots, t_.events[i].detail + 1u);
            at.assign(size_t(slots) + 1, 0);
            for (uint32_t i : ev) ++at[t_.events[i].detail + 1u];
            for (uint32_t k = 0; k < slots; ++k) at[k + 1] += at[k];
            by_slot.resize(ev.size());
            for (uint32_t i : ev) by_slot[at[t_.events[i].detail]++] = i;  // at[k] ends as slot k's end
            for (uint32_t k = 0, begin = 0; k < slots; begin = at[k++]) {
                stores.clear();
                loads.clear();
                for (uint32_t m = begin; m < at[k]; ++m)
                    (t_.events[by_slot[m]].kind == EventKind::SharedStore ? stores : loads).push_back(by_slot[m]);
                check_slot(instance[id], stores, loads);
            }
            std::vector<uint32_t>().swap(events[id]);
        }
    }

    // Each load of one slot against every store to it by another thread.
    void check_slot(uint32_t inst, const std::vector<uint32_t>& stores, const std::vector<uint32_t>& loads) {
        if (loads.empty()) return;
        for (uint32_t li : loads) {
            const Event& ld = t_.events[li];
            uint32_t racer = kNoEvent;
            bool ordered_store = false;
            for (uint32_t si : stores) {
                const Event& st = t_.events[si];
                if (happens_before(inst, si, li)) { ordered_store = true; continue; }
                if (st.thread == ld.thread || happens_before(inst, li, si)) continue;
                if (racer == kNoEvent || better_racer(ld, li, si, racer)) racer = si;
            }
            if (racer == kNoEvent && ordered_store) continue;
            const std::string who = "thread " + std::to_string(ld.thread) + " reads shared slot " + std::to_string(ld.detail);
            if (racer == kNoEvent) {
                add(HazardKind::SharedSlotNeverWritten, li, 1u << ld.lane(),
                    who + ", which no thread of the block stored before it in this launch: the value is unspecified", true);
                continue;
            }
            const Event& st = t_.events[racer];
            const bool same_warp = st.warp() == ld.warp();
            std::string saw;
            if (ld.dep[0] == kNoEvent) saw = "; it saw no stored value at all";
            else if (ld.dep[0] != racer && st.step <= ld.step) saw = "; it saw the older value";
            else if (st.step > ld.step) saw = "; in this run the store came after the load";
            add(same_warp ? HazardKind::ImplicitWarpSync : HazardKind::SharedMemoryRace, li, 1u << ld.lane(),
                who + ", which thread " + std::to_string(st.thread) + " stores at step " + std::to_string(st.step) +
                    (same_warp ? " in the same warp with no `__syncwarp()` between them"
                               : " in another warp with no `__syncthreads()` that both reach between them") + saw,
                true);
        }
    }

    // ---- 4. shuffles and __syncwarp masks ---------------------------------------------------------
    // The rules of a `__shfl_*_sync(mask, ...)` (CUDA Programming Guide, warp shuffle functions):
    //  - each calling lane has its own bit set in its mask;
    //  - every non-exited lane a mask names executes that same call with that same mask. Lanes never launched
    //    count as exited (naming them breaks no rule); lanes that exist and skip the call break it. Lanes with
    //    masks that name none of each other (0x0000ffff by lanes 0-15, 0xffff0000 by lanes 16-31) are legal.
    // Reading a lane that did not execute the call, or does not exist, returns an undefined value (an error
    // when the value is used).
    struct WarpCall {  // one warp instruction: the lanes that executed it, each lane's mask and event
        uint32_t executed = 0, masks_or = 0;
        uint32_t mask_of[32] = {};
        uint32_t event_of[32] = {};
    };

    // The lanes of `lanes` grouped by the mask each passed: "lanes 4-7 <verb> 0x0000000f" or "lane 4 <verb>s
    // 0x00000001, lanes 5-7 <verb> 0x000000f0"; `masks` counts the distinct masks.
    static std::string lanes_using(uint32_t lanes, const WarpCall& c, const char* one, const char* many, int* masks = nullptr) {
        std::string out;
        int distinct = 0;
        while (lanes) {
            const uint32_t m = c.mask_of[std::countr_zero(lanes)];
            uint32_t same = 0;
            for (uint32_t l = 0; l < 32; ++l)
                if ((lanes >> l & 1u) && c.mask_of[l] == m) same |= 1u << l;
            out += (out.empty() ? "" : ", ") + lanes_phrase(same) + agree(same, one, many) + hex32(m);
            lanes &= ~same;
            ++distinct;
        }
        if (masks) *masks = distinct;
        return out;
    }

    void shuffles() {
        used_ = used_values(t_);
        // A warp instruction's shuffles come as runs of consecutive shuffle events; runs are sorted by
        // (instance, warp, step) so that one instruction split over several runs is still one group.
        auto key = [&](uint32_t i) {
            const Event& e = t_.events[i];
            return std::tuple(instance_key(e), e.warp(), e.step);
        };
        struct Run { std::tuple<uint32_t, uint32_t, uint16_t> key; uint32_t begin, end; };  // into `all`
        std::vector<uint32_t> all;
        std::vector<Run> runs;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            if (t_.events[i].kind != EventKind::Shuffle) continue;
            if (runs.empty() || runs.back().key != key(i)) runs.push_back({key(i), uint32_t(all.size()), uint32_t(all.size())});
            all.push_back(i);
            ++runs.back().end;
        }
        std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.key < b.key; });
        std::vector<uint32_t> sh;
        sh.reserve(all.size());
        for (const Run& r : runs) sh.insert(sh.end(), all.begin() + r.begin, all.begin() + r.end);
        for (size_t k = 0; k < sh.size();) {
            size_t j = k;
            WarpCall call;
            for (; j < sh.size() && key(sh[j]) == key(sh[k]); ++j) {
                const Event& e = t_.events[sh[j]];
                if (!(call.executed >> e.lane() & 1u)) call.event_of[e.lane()] = sh[j];
                call.executed |= 1u << e.lane();
                call.mask_of[e.lane()] = e.aux;
                call.masks_or |= e.aux;
            }
            check_shuffle_masks(sh[k], call);
            check_shuffle_reads(sh, k, j, call);
            k = j;
        }
    }

    void check_shuffle_masks(uint32_t first_event, const WarpCall& c) {
        const Event& first = t_.events[first_event];
        const uint32_t existing = existing_lanes(first);
        const std::string where = "warp " + std::to_string(first.warp()) + ", offset " + std::to_string(first.shuffle_offset());

        // Lanes whose mask leaves out their own bit.
        uint32_t outside = 0;
        for (uint32_t l = 0; l < 32; ++l)
            if ((c.executed >> l & 1u) && !(c.mask_of[l] >> l & 1u)) outside |= 1u << l;
        if (outside) {
            int masks = 0;
            const std::string who = lanes_using(outside, c, " calls it with ", " call it with ", &masks);
            add(HazardKind::MaskOmitsOwnLane, c.event_of[std::countr_zero(outside)], outside,
                "`__shfl_*_sync` in " + where + ": " + who + (masks == 1 ? ", a mask" : ", masks") +
                    " without the calling lane's own bit: each lane that calls it must be named in its mask");
        }

        // Lanes a mask names that exist but did not execute the call.
        const uint32_t skipped = c.masks_or & existing & ~c.executed;
        if (skipped) {
            uint32_t namers = 0, named = 0;  // the executing lanes whose mask names a skipped lane, and all they name
            for (uint32_t l = 0; l < 32; ++l)
                if ((c.executed >> l & 1u) && (c.mask_of[l] & skipped)) namers |= 1u << l, named |= c.mask_of[l];
            int masks = 0;
            const std::string namers_text = lanes_using(namers, c, " calls it with ", " call it with ", &masks);
            const std::string call = masks == 1 ? "`__shfl_*_sync(" + hex32(c.mask_of[std::countr_zero(namers)]) + ")`"
                                                : "`__shfl_*_sync` (" + namers_text + ")";
            std::string exited;
            const uint32_t never_launched = named & ~existing;
            if (never_launched)
                exited = "; " + lanes_phrase(never_launched) + agree(never_launched, " was", " were") +
                         " never launched (the block has " + std::to_string(threads_of(first)) + " threads): " +
                         agree(never_launched, "it counts as exited, and naming it breaks no rule",
                               "they count as exited, and naming them breaks no rule");
            add(HazardKind::MaskNamesInactiveLanes, first_event, skipped,
                call + " in " + where + ": " + (masks == 1 ? "the mask names " : "the masks name ") + lanes_phrase(skipped) +
                    agree(skipped, ", which exists but does not execute this call (it skipped it)",
                          ", which exist but do not execute this call (they skipped it)") + exited);
        }

        // Lanes a mask names that execute the call with another mask. Each group of lanes that share a mask is
        // checked against the executing lanes it names.
        uint32_t callers = 0, others = 0;
        std::string parts;
        for (uint32_t rest = c.executed; rest;) {
            const uint32_t m = c.mask_of[std::countr_zero(rest)];
            uint32_t with_m = 0;
            for (uint32_t l = 0; l < 32; ++l)
                if ((rest >> l & 1u) && c.mask_of[l] == m) with_m |= 1u << l;
            rest &= ~with_m;
            const uint32_t other = m & c.executed & ~with_m;
            if (!other) continue;
            callers |= with_m;
            others |= other;
            parts += (parts.empty() ? "" : "; ") + lanes_phrase(with_m) + agree(with_m, " uses mask ", " use mask ") + hex32(m) +
                     ", which names " + lanes_phrase(other) + ", but " + lanes_using(other, c, " uses ", " use ");
        }
        if (callers)
            add(HazardKind::MaskNamesInactiveLanes, c.event_of[std::countr_zero(callers)], callers | others,
                "`__shfl_*_sync` in " + where + ": " + parts + ": every lane a mask names must call it with that same mask");
    }

    void check_shuffle_reads(const std::vector<uint32_t>& sh, size_t k, size_t j, const WarpCall& c) {
        const Event& first = t_.events[sh[k]];
        const uint32_t existing = existing_lanes(first);
        const std::string where = "warp " + std::to_string(first.warp()) + ", offset " + std::to_string(first.shuffle_offset());
        uint32_t absent = 0, skipping = 0, unnamed = 0, readers = 0, first_ev = kNoEvent;
        for (size_t m = k; m < j; ++m) {
            const Event& e = t_.events[sh[m]];
            const uint32_t src = e.source_lane();
            if (!used_[sh[m]]) continue;
            const bool own = src >= 32 || src == e.lane();  // past the warp: the caller's own value
            const uint32_t bit = own ? 0u : 1u << src;
            if (!own && !(existing & bit)) absent |= bit;
            else if (!own && !(c.executed & bit)) skipping |= bit;
            else if (!own && !(e.aux & bit)) unnamed |= bit;
            else {
                // The source lane held the value: undefined only if no write ever reached its register.
                if (unwritten_operand(e, e.dep[0]))
                    add(HazardKind::UninitialisedTail, sh[m], 1u << e.lane(),
                        "in " + where + ", lane " + std::to_string(e.lane()) + " reads " +
                            (own ? std::string("its own register") : "the register of lane " + std::to_string(src)) +
                            ", which was never assigned: it holds whatever was there",
                        true);
                continue;
            }
            readers |= 1u << e.lane();
            if (first_ev == kNoEvent) first_ev = sh[m];
        }
        if (!readers) return;
        std::vector<std::string> why;
        if (absent)
            why.push_back(lanes_phrase(absent) + agree(absent, ", which was", ", which were") + " never launched (the block has " +
                          std::to_string(threads_of(first)) + " threads)");
        if (skipping)
            why.push_back(lanes_phrase(skipping) + agree(skipping, ", which exists but did not execute this call",
                                                         ", which exist but did not execute this call"));
        if (unnamed) why.push_back(lanes_phrase(unnamed) + ", which the mask does not name");
        std::string list;
        for (size_t m = 0; m < why.size(); ++m) list += (m ? "; and " : "") + why[m];
        add(HazardKind::ReadFromNonParticipatingLane, first_ev, readers,
            where + ": " + lanes_phrase(readers) + agree(readers, " reads and uses ", " read and use ") + list +
                ": the value read is undefined, whatever the mask says");
    }

    // `__syncwarp(mask)` has the same own-bit rule. A student's kernel records a lane that calls it without its own
    // bit as an event of its own (thread = that lane); the lab's kernels name every lane of the warp.
    void warp_sync_masks() {
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind != EventKind::WarpSync || e.aux == 0 || (e.aux >> e.lane() & 1u)) continue;  // 0: all lanes
            add(HazardKind::MaskOmitsOwnLane, i, 1u << e.lane(),
                "lane " + std::to_string(e.lane()) + " of warp " + std::to_string(e.warp()) + " calls `__syncwarp(" +
                    hex32(e.aux) + ")`, a mask without its own bit: each lane that calls it must be named in its mask",
                true);
        }
    }

    // ---- 5. values -------------------------------------------------------------------------------
    // An operand read from a register that no write reached, as MemorySanitizer finds it: at the read,
    // not where the register was declared. Either the operand has no producing event and the recorder flags
    // the read undefined (the lab's recorders carry the register's shadow to the read), or its producer is a
    // declaration recorded without a value (an identity fill flagged undefined: a student kernel's
    // `rl::Value<T> v;`). A value computed from it keeps the flag but names its producer, so only reads of
    // the register itself are found.
    bool unwritten_operand(const Event& e, uint32_t dep) const {
        if (!(e.flags & kUndefined)) return false;  // the read of an unwritten register is flagged, first of all
        if (dep == kNoEvent) return true;
        if (dep >= t_.events.size()) return false;
        const Event& d = t_.events[dep];
        return d.kind == EventKind::IdentityFill && (d.flags & kUndefined);
    }

    // Events that take a thread's register as an operand: the value it stores, writes or combines.
    void register_reads(uint32_t i, const Event& e) {
        const char* does = nullptr;
        std::string slot;
        switch (e.kind) {
            case EventKind::SharedStore:
                if (unwritten_operand(e, e.dep[0])) does = " stores to shared slot ", slot = std::to_string(e.detail);
                break;
            case EventKind::BlockPartial:
            case EventKind::FinalStore:
                if (unwritten_operand(e, e.dep[0])) does = " writes to global memory";
                break;
            case EventKind::Atomic:
                if (unwritten_operand(e, e.dep[1])) does = " adds atomically to the output";
                break;
            case EventKind::Combine:
                if (unwritten_operand(e, e.dep[0]) || unwritten_operand(e, e.dep[1])) does = " combines";
                break;
            default: break;
        }
        if (!does) return;
        add(HazardKind::UninitialisedTail, i, 1u << e.lane(),
            "thread " + std::to_string(e.thread) + of_block(e) + does + slot +
                " its register, which was never assigned: it holds whatever was there",
            true);
    }

    // A starting value is wrong only when it changes the result of the reduction asked for (docs/checker.md):
    // it must reach the result (a flag or a counter that never flows into it is no starting value), and combined
    // with r, the reduction of the data the result combines, it must give something other than r. r is folded here
    // from the loads in the result's dependency cone: the data the result was computed from (the whole input
    // when every element reaches it). For max and min (idempotent, selective) e ⊕ r = r means the result is the
    // same with e as with the identity; for sum and prod, e ⊕ r = r means e is lost to rounding or to a zero.
    const std::vector<uint8_t>& result_cone() {
        if (cone_.empty()) cone_ = dependency_mask(t_, t_.result_event);
        return cone_;
    }
    const DataReduction& data_reduction(uint64_t identity) {
        if (!data_) {
            // Folded left to right by element index, the order the reduction asks for (an operator that is not
            // commutative sees its elements in order; a sum rounds as a serial loop would).
            std::vector<std::pair<uint32_t, uint64_t>> loads;  // element index, value
            const auto& cone = result_cone();
            for (uint32_t i = 0; i < t_.events.size(); ++i) {
                const Event& e = t_.events[i];
                if (cone[i] && e.kind == EventKind::Load && !(e.flags & kUndefined)) loads.emplace_back(e.aux, e.value);
            }
            std::stable_sort(loads.begin(), loads.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            DataReduction r{identity, uint32_t(loads.size())};
            for (const auto& [index, value] : loads) r.value = combine_bits(t_.schedule.op, t_.schedule.type, r.value, value);
            data_ = r;
        }
        return *data_;
    }
    // `with` and `without` a starting value, combined with the data's reduction: do they differ?
    bool changes_result(uint64_t with, uint64_t without, uint64_t identity) {
        const uint64_t r = data_reduction(identity).value;
        return combine_bits(t_.schedule.op, t_.schedule.type, with, r) != combine_bits(t_.schedule.op, t_.schedule.type, without, r);
    }
    std::string data_words(uint64_t identity) {
        const DataReduction& d = data_reduction(identity);
        return std::string(to_string(t_.schedule.op)) + " of the " + std::to_string(d.loads) +
               (d.loads == 1 ? " element the result combines is " : " elements the result combines is ") +
               format_value(t_.schedule.op, t_.schedule.type, d.value);
    }

    void values() {
        const uint64_t identity = identity_bits(t_.schedule.op, t_.schedule.type);
        const std::string op(to_string(t_.schedule.op));
        auto text = [&](uint64_t bits) { return format_value(t_.schedule.op, t_.schedule.type, bits); };
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind == EventKind::PartialLoad && !t_.launches.empty() && (e.detail & kDetailOutside)) {
                // (a plain run's load of out, tmp or a program's buffer outside its elements: the recorder marks it)
                // (its size from the runner, when the trace has it: "outside tmp's 64 elements")
                const uint32_t b = event_buffer(e);
                const std::string name = buffer_name(b);
                add(HazardKind::OutOfBoundsRead, i, 1u << e.lane(),
                    "thread " + std::to_string(e.thread) + " reads " + name + "[" +
                        (e.aux == 0xffffffffu ? std::string("a negative or huge index") : std::to_string(e.aux)) + "], outside " +
                        (b < t_.buffer_elements.size() ? name + "'s " + std::to_string(t_.buffer_elements[b]) +
                                                             (t_.buffer_elements[b] == 1 ? " element" : " elements")
                                                       : "the elements of " + name) +
                        ": the value is undefined",
                    true);
            } else if (e.kind == EventKind::Load && !(e.flags & kFinisher) && e.aux >= t_.schedule.n) {
                add(HazardKind::OutOfBoundsRead, i, 1u << e.lane(),
                    "thread " + std::to_string(e.thread) + of_block(e) + " reads element " +
                        (e.aux == 0xffffffffu ? std::string("at a negative or huge index") : std::to_string(e.aux)) +
                        ", outside the " + std::to_string(t_.schedule.n) + " elements of the input: the value is undefined",
                    true);
            } else if (e.kind == EventKind::IdentityFill && !(e.flags & kUndefined) && e.value != identity &&
                       result_cone()[i] && changes_result(e.value, identity, identity)) {
                // (one flagged undefined is a declaration without a value: found where it is read)
                add(HazardKind::WrongIdentity, i, 1u << e.lane(),
                    "thread " + std::to_string(e.thread) + of_block(e) + " starts from " +
                        text(e.value) + ", which is not the identity of " + op + " and changes the result: the " +
                        data_words(identity) + ", and " + op + " of " + text(e.value) + " with it is " +
                        text(combine_bits(t_.schedule.op, t_.schedule.type, e.value, data_reduction(identity).value)),
                    true);
            } else if (e.kind == EventKind::Atomic && e.dep[0] == kNoEvent && e.dep[1] < t_.events.size() &&
                       !(e.flags & kUndefined)) {
                // The first atomic finds the output's starting value s: it made s ⊕ operand where the identity makes
                // the operand itself. s changes the result when (s ⊕ operand) ⊕ r differs from operand ⊕ r.
                const uint64_t operand = t_.events[e.dep[1]].value;
                const uint64_t from_identity = combine_bits(t_.schedule.op, t_.schedule.type, identity, operand);
                if (from_identity != e.value && result_cone()[i] && changes_result(e.value, from_identity, identity))
                    add(HazardKind::WrongIdentity, i, 1u << e.lane(),
                        "the output did not start at the identity of " + op + ": its first atomic turned " + text(operand) +
                            " into " + text(e.value) + ", a start that changes the result (the " + data_words(identity) + ")");
            }
            register_reads(i, e);
        }
    }

    // ---- 6. across blocks ----------------------------------------------------------------------
    void across_blocks() {
        // One pass collects the partials, fences, tickets and partial loads; the rules then read those alone.
        std::vector<uint32_t> partial_of(G_, kNoEvent);
        std::vector<uint8_t> fenced(G_, 1);
        std::unordered_map<uint64_t, std::vector<uint32_t>> fences;  // per block and thread
        std::vector<uint32_t> tickets, partial_loads;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind == EventKind::PartialLoad && (e.aux < G_ || !t_.launches.empty())) partial_loads.push_back(i);
            if (e.flags & kFinisher) continue;
            if (e.kind == EventKind::BlockPartial && e.block < G_) partial_of[e.block] = i;
            if (e.kind == EventKind::Fence) fences[(uint64_t(e.block) << 16) | e.thread].push_back(i);
            if (e.kind == EventKind::Ticket && e.block < G_) tickets.push_back(i);
        }
        for (uint32_t i : tickets) {
            const Event& e = t_.events[i];
            const uint32_t p = partial_of[e.block];
            if (p == kNoEvent || t_.events[p].thread != e.thread || pos(t_, p) > pos(t_, i)) continue;
            bool ok = false;
            auto it = fences.find((uint64_t(e.block) << 16) | e.thread);
            if (it != fences.end())
                for (uint32_t f : it->second) ok = ok || (pos(t_, p) < pos(t_, f) && pos(t_, f) < pos(t_, i));
            if (ok) continue;
            fenced[e.block] = 0;
            add(HazardKind::MissingThreadfence, i, 1u << e.lane(),
                (t_.launches.empty() ? "block " + std::to_string(e.block) : std::string("the block")) + " stores its partial (step " + std::to_string(t_.events[p].step) +
                    ") and draws ticket " + std::to_string(e.aux) + " (step " + std::to_string(e.step) +
                    ") with no `__threadfence()` between: the last block may see the ticket before the partial");
        }
        if (!t_.launches.empty()) {
            stale_reads_in_launches(partial_loads, fenced);
            return;
        }
        for (uint32_t i : partial_loads) {
            const Event& e = t_.events[i];
            const uint32_t p = partial_of[e.aux];
            if (e.dep[0] == p && p != kNoEvent) continue;
            std::string what = "the finishing block's thread " + std::to_string(e.thread) + " loads block " +
                               std::to_string(e.aux) + "'s partial";
            if (p == kNoEvent) what += ", which that block never stored";
            else what += " but does not see the value block " + std::to_string(e.aux) + " stored at step " +
                         std::to_string(t_.events[p].step) + ": it read a stale value";
            if (p != kNoEvent && !fenced[e.aux]) what += " (block " + std::to_string(e.aux) + " has no `__threadfence()` before its ticket)";
            add(HazardKind::StalePartialRead, i, 1u << e.lane(), what, true);
        }
    }

    // A plain run's loads of out, tmp or a program's buffer: a value an earlier launch left is ordered by the launch
    // boundary (every launch ends before the next begins), as is the start value. Only a store by another block of the
    // same launch can be missed: when some block of the load's launch stores that element, the load must see such a
    // store (the last-block pattern: stores, fence, ticket, then the last block reads them); seeing an older value is
    // a stale read. Stores by the load's own block are its block's business (program order, barriers).
    void stale_reads_in_launches(const std::vector<uint32_t>& partial_loads, const std::vector<uint8_t>& fenced) {
        if (partial_loads.empty()) return;
        auto key = [&](const Event& e) {  // launch, buffer, element
            return std::tuple(launch_of_block(t_, e.block), event_buffer(e), e.aux);
        };
        std::map<std::tuple<size_t, uint32_t, uint32_t>, std::vector<uint32_t>> stores;
        for (uint32_t i : partial_loads) {
            const Event& e = t_.events[i];
            if (!(e.detail & kDetailOutside)) stores.try_emplace(key(e));
        }
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind != EventKind::BlockPartial && e.kind != EventKind::FinalStore) continue;
            auto it = stores.find(key(e));
            if (it != stores.end()) it->second.push_back(i);
        }
        for (uint32_t i : partial_loads) {
            const Event& e = t_.events[i];
            if (e.detail & kDetailOutside) continue;  // an out-of-bounds read (section 5)
            uint32_t missed = kNoEvent;  // the latest store by another block of this launch
            bool seen = false;
            for (uint32_t st : stores[key(e)]) {
                const Event& x = t_.events[st];
                if (x.block == e.block) continue;
                seen = seen || e.dep[0] == st;
                if (missed == kNoEvent || pos(t_, st) > pos(t_, missed)) missed = st;
            }
            if (missed == kNoEvent || seen) continue;
            // Nothing orders the store before the load (no ticket between the blocks): not a stale read but a race
            // between the blocks, which global_races() reports with both of them.
            if (!(ticket_window(missed).release < ticket_window(i).acquire)) continue;
            const Event& x = t_.events[missed];
            const std::string slot = buffer_name(buffer_of(e)) + "[" + std::to_string(e.aux) + "]";
            std::string what = "thread " + std::to_string(e.thread) + " loads " + slot + ", which " + block_name(t_, x.block) +
                               " stores at step " + std::to_string(x.step) + " in the same launch, but does not see that value: it read a stale value";
            if (x.block < fenced.size() && !fenced[x.block]) what += " (that block has no `__threadfence()` before its ticket)";
            add(HazardKind::StalePartialRead, i, 1u << e.lane(), what, true);
        }
    }

    // A plain run's blocks of one launch are ordered only by its tickets (the last-block pattern's counter, drawn in
    // order): an access x of block A comes before an access y of block B when x happens before a ticket of A (program
    // order, or a barrier of A), y after a ticket of B, and A's ticket is the lower. release: the lowest ticket x
    // comes before (none: past every ticket); acquire: the highest ticket before y (none: -1).
    struct TicketWindow {
        int64_t release = INT64_MAX, acquire = -1;
        bool synced() const { return release != INT64_MAX || acquire != -1; }
    };
    TicketWindow ticket_window(uint32_t xi) {
        if (!tickets_) {
            tickets_.emplace();
            if (has(EventKind::Ticket))
                for (uint32_t i = 0; i < t_.events.size(); ++i)
                    if (t_.events[i].kind == EventKind::Ticket) (*tickets_)[t_.events[i].block].push_back(i);
        }
        TicketWindow w;
        const Event& x = t_.events[xi];
        auto it = tickets_->find(x.block);
        if (it == tickets_->end()) return w;
        for (uint32_t k : it->second) {
            const int64_t n = t_.events[k].aux;
            if (k == xi || happens_before(instance_key(x), xi, k)) w.release = std::min(w.release, n);
            if (happens_before(instance_key(x), k, xi)) w.acquire = std::max(w.acquire, n);
        }
        return w;
    }

    // Blocks of one launch as words: "block 3", "blocks 0 and 3", "blocks 0-3, 7" (numbered within the launch).
    static std::string blocks_text(const std::vector<uint32_t>& b) {
        if (b.size() == 1) return "block " + std::to_string(b[0]);
        if (b.size() == 2) return "blocks " + std::to_string(b[0]) + " and " + std::to_string(b[1]);
        std::string out;
        size_t runs = 0, k = 0;
        for (; k < b.size() && runs < 16; ++runs) {
            size_t j = k;
            while (j + 1 < b.size() && b[j + 1] == b[j] + 1) ++j;
            out += (out.empty() ? "" : ", ") + std::to_string(b[k]) + (j > k ? "-" + std::to_string(b[j]) : "");
            k = j + 1;
        }
        if (k < b.size()) out += " and " + std::to_string(b.size() - k) + " more";
        return "blocks " + out;
    }

    // ---- 6b. races between the blocks of one launch on global memory (a plain run) -------------------------
    // A global element that a block stores with a plain store, and another block of the same launch stores, loads or
    // updates atomically, with neither access ordered before the other (ticket_window), is a data race: CUDA runs the
    // blocks of a launch in no set order. A later launch orders everything (the key holds the launch); atomics among
    // themselves never race. One finding per element, naming every block of a racing pair. A student's dialect kernel
    // (no launches: every global access is to out) has the lab's finishing stage (kFinisher) as its second launch; the
    // lab's own schedules are not checked here (their kernels write one partial per block by construction).
    size_t launch_of(const Event& e) const {
        return t_.launches.empty() ? ((e.flags & kFinisher) ? 1 : 0) : launch_of_block(t_, e.block);
    }
    uint32_t buffer_of(const Event& e) const { return t_.launches.empty() ? kBufferOut : event_buffer(e); }
    enum Role : uint8_t { kLoad = 1, kStore = 2, kAtomic = 4 };
    struct GlobalAccess {
        uint32_t event, block;
        uint8_t role;
        TicketWindow w;
    };
    void global_races() {
        auto key = [&](const Event& e, uint32_t buffer, uint32_t element) {
            return uint64_t(launch_of(e)) << 40 | uint64_t(buffer) << 32 | element;
        };
        std::vector<std::pair<uint64_t, uint32_t>> acc;  // (launch, buffer, element), event
        bool in_stored = false;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            if (e.kind != EventKind::BlockPartial && e.kind != EventKind::FinalStore) continue;
            acc.emplace_back(key(e, buffer_of(e), e.aux), i);
            in_stored = in_stored || buffer_of(e) == 0;
        }
        std::vector<uint64_t> stored;
        for (const auto& a : acc) stored.push_back(a.first);
        std::sort(stored.begin(), stored.end());
        stored.erase(std::unique(stored.begin(), stored.end()), stored.end());
        if (stored.size() == acc.size() && !has(EventKind::PartialLoad) && !has(EventKind::Atomic) && !in_stored) return;
        for (uint32_t i = 0; i < t_.events.size(); ++i) {
            const Event& e = t_.events[i];
            uint64_t k;
            const bool plain = !t_.launches.empty();
            if (e.kind == EventKind::PartialLoad && !(plain && (e.detail & kDetailOutside))) k = key(e, buffer_of(e), e.aux);
            else if (e.kind == EventKind::Load && in_stored && !(e.flags & kUndefined)) k = key(e, 0, e.aux);
            else if (e.kind == EventKind::Atomic) k = key(e, buffer_of(e), plain ? atomic_element(t_, i) : e.detail);
            else continue;
            if (std::binary_search(stored.begin(), stored.end(), k)) acc.emplace_back(k, i);
        }
        std::sort(acc.begin(), acc.end(), [&](const auto& a, const auto& b) {
            return std::tuple(a.first, t_.events[a.second].block, pos(t_, a.second)) < std::tuple(b.first, t_.events[b.second].block, pos(t_, b.second));
        });
        uint64_t budget = race_pairs_;  // pairs of accesses examined, over the whole trace
        uint64_t uncompared = 0;        // elements left (wholly or partly) uncompared when the budget ran out
        std::string uncompared_names;
        uint32_t uncompared_event = kNoEvent;
        collect_flags();
        std::vector<GlobalAccess> g;
        std::vector<uint8_t> racing;
        std::vector<size_t> stores;
        std::vector<uint64_t> rel, acq;  // per access: the flag edges it is released into / acquires (bitsets)
        for (size_t a = 0, b = 0; a < acc.size(); a = b) {
            for (b = a; b < acc.size() && acc[b].first == acc[a].first; ++b) {}
            if (t_.events[acc[a].second].block == t_.events[acc[b - 1].second].block) continue;  // one block alone
            g.clear();
            stores.clear();
            for (size_t m = a; m < b; ++m) {
                const Event& e = t_.events[acc[m].second];
                const uint8_t role = e.kind == EventKind::Atomic ? kAtomic
                                     : (e.kind == EventKind::Load || e.kind == EventKind::PartialLoad) ? kLoad : kStore;
                if (role == kStore) stores.push_back(g.size());
                g.push_back({acc[m].second, e.block, role, {}});
            }
            if (stores.empty()) continue;  // loads and atomics alone never race
            bool synced = !flags_.empty();
            for (GlobalAccess& x : g) {
                x.w = ticket_window(x.event);
                synced = synced || x.w.synced();
            }
            racing.assign(g.size(), 0);
            if (!synced) {
                // Nothing orders any two of them: an access races with every access of another block when one of the
                // two stores. Blocks that store: the first and the last storing block tell whether another one stores.
                const uint32_t first_store = g[stores.front()].block, last_store = g[stores.back()].block;
                for (size_t m = 0; m < g.size(); ++m)
                    racing[m] = g[m].role == kStore || first_store != g[m].block || last_store != g[m].block;
            } else {
                // Each plain store against every access of another block (a pair of stores once): atomics and loads
                // never race among themselves, so the work is the accesses times the stores, not their square.
                flag_bits(g, rel, acq);
                bool cut = false;
                for (size_t s : stores) {
                    for (size_t m = 0; m < g.size(); ++m) {
                        if (!budget) {
                            cut = true;
                            break;
                        }
                        --budget;
                        if (g[m].block == g[s].block || (g[m].role == kStore && m < s)) continue;
                        if (g[s].w.release < g[m].w.acquire || g[m].w.release < g[s].w.acquire) continue;
                        if (flag_ordered(rel, acq, s, m) || flag_ordered(rel, acq, m, s) || flag_pair(g[s], g[m])) continue;
                        racing[s] = racing[m] = 1;
                    }
                    if (cut) break;
                }
                if (cut) {
                    const Event& e = t_.events[g[0].event];
                    if (uncompared_event == kNoEvent) uncompared_event = g[0].event;
                    if (uncompared < 8)
                        uncompared_names += (uncompared_names.empty() ? "" : ", ") + buffer_name(buffer_of(e)) + "[" +
                                            std::to_string(uint32_t(acc[a].first)) + "] of launch " + std::to_string(launch_of(e) + 1);
                    ++uncompared;
                }
            }
            report_race(g, racing);
        }
        if (uncompared)
            add(HazardKind::RaceCheckIncomplete, uncompared_event, 1u << t_.events[uncompared_event].lane(),
                "the global-memory-race rule examines at most " + std::to_string(race_pairs_) + " pairs of accesses and stopped: " +
                    std::to_string(uncompared) + (uncompared == 1 ? " element was" : " elements were") +
                    " not (wholly) compared (" + uncompared_names + (uncompared > 8 ? " and " + std::to_string(uncompared - 8) + " more" : "") +
                    "), so a race there would not be reported");
    }

    // ---- 6c. flags: a fence, then a store that another block's load observes --------------------------
    // Thread T of block A does x, then __threadfence(), then stores a flag; thread U of block B loads that flag and
    // sees T's value (its dep), then does y: x happens before y (the fence releases what A did before it, including
    // other threads' accesses before a barrier; the observing load acquires it; the lessons' "a fence plus a flag
    // the reader waits for"). Edges chain: U's load before a fence of B that releases into C's load. An edge is
    // (fence, store, load); reach_ holds, per edge, the edges it leads to (itself included) as a bitset.
    struct FlagEdge {
        uint32_t fence, store, load;
    };
    std::vector<FlagEdge> flags_;
    std::vector<uint64_t> reach_;  // flags_.size() rows of words_ words
    size_t words_ = 0;
    std::unordered_map<uint32_t, std::vector<uint32_t>> fences_in_, loads_in_;  // per block instance: its edges
    static constexpr size_t kMaxFlagEdges = 1024;  // past it, further flags order nothing (races reported, never missed)
    void collect_flags() {
        if (t_.launches.empty() || !has(EventKind::Fence) || !has(EventKind::PartialLoad)) return;
        std::unordered_map<uint64_t, std::vector<uint32_t>> fences;  // per block and thread, in order
        for (uint32_t i = 0; i < t_.events.size(); ++i)
            if (t_.events[i].kind == EventKind::Fence) fences[(uint64_t(t_.events[i].block) << 16) | t_.events[i].thread].push_back(i);
        for (uint32_t i = 0; i < t_.events.size() && flags_.size() < kMaxFlagEdges; ++i) {
            const Event& e = t_.events[i];
            if (e.kind != EventKind::PartialLoad || (e.detail & kDetailOutside) || e.dep[0] == kNoEvent || e.dep[0] >= t_.events.size()) continue;
            const uint32_t s = e.dep[0];
            const Event& x = t_.events[s];
            if ((x.kind != EventKind::BlockPartial && x.kind != EventKind::FinalStore) || x.block == e.block) continue;
            auto it = fences.find((uint64_t(x.block) << 16) | x.thread);
            if (it == fences.end()) continue;
            uint32_t f = kNoEvent;  // the storing thread's last fence before the store
            for (uint32_t c : it->second)
                if (pos(t_, c) < pos(t_, s) && (f == kNoEvent || pos(t_, c) > pos(t_, f))) f = c;
            if (f != kNoEvent) flags_.push_back({f, s, i});
        }
        if (flags_.empty()) return;
        const size_t n = flags_.size();
        words_ = (n + 63) / 64;
        reach_.assign(n * words_, 0);
        for (uint32_t k = 0; k < n; ++k) {
            fences_in_[instance_key(t_.events[flags_[k].fence])].push_back(k);
            loads_in_[instance_key(t_.events[flags_[k].load])].push_back(k);
            flag_pairs_.insert({flags_[k].store, t_.events[flags_[k].load].block, t_.events[flags_[k].load].thread});
        }
        for (uint32_t k = 0; k < n; ++k) {
            reach_[k * words_ + k / 64] |= uint64_t(1) << (k % 64);
            const uint32_t inst = instance_key(t_.events[flags_[k].load]);
            auto it = fences_in_.find(inst);
            if (it != fences_in_.end())
                for (uint32_t j : it->second)
                    if (happens_before(inst, flags_[k].load, flags_[j].fence)) reach_[k * words_ + j / 64] |= uint64_t(1) << (j % 64);
        }
        for (size_t j = 0; j < n; ++j)  // transitive closure (Warshall, a row of words at a time)
            for (size_t k = 0; k < n; ++k)
                if (reach_[k * words_ + j / 64] >> (j % 64) & 1u)
                    for (size_t w = 0; w < words_; ++w) reach_[k * words_ + w] |= reach_[j * words_ + w];
    }
    // Per access of g: rel, the edges its accesses reach through a fence after it (closed); acq, the edges whose load
    // comes before it in its block.
    void flag_bits(const std::vector<GlobalAccess>& g, std::vector<uint64_t>& rel, std::vector<uint64_t>& acq) const {
        if (flags_.empty()) return;
        rel.assign(g.size() * words_, 0);
        acq.assign(g.size() * words_, 0);
        for (size_t m = 0; m < g.size(); ++m) {
            const uint32_t xi = g[m].event, inst = instance_key(t_.events[xi]);
            if (auto it = fences_in_.find(inst); it != fences_in_.end())
                for (uint32_t k : it->second)
                    if (happens_before(inst, xi, flags_[k].fence))
                        for (size_t w = 0; w < words_; ++w) rel[m * words_ + w] |= reach_[k * words_ + w];
            if (auto it = loads_in_.find(inst); it != loads_in_.end())
                for (uint32_t k : it->second)
                    if (happens_before(inst, flags_[k].load, xi)) acq[m * words_ + k / 64] |= uint64_t(1) << (k % 64);
        }
    }
    bool flag_ordered(const std::vector<uint64_t>& rel, const std::vector<uint64_t>& acq, size_t x, size_t y) const {
        if (flags_.empty()) return false;
        for (size_t w = 0; w < words_; ++w)
            if (rel[x * words_ + w] & acq[y * words_ + w]) return true;
        return false;
    }
    // The flag itself: a store after a fence and a load by a thread that observes it (that thread's spinning loads
    // included) are the synchronisation, not a race between the blocks.
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> flag_pairs_;  // store, loading block, loading thread
    bool flag_pair(const GlobalAccess& s, const GlobalAccess& m) const {
        if (m.role != kLoad || flag_pairs_.empty()) return false;
        const Event& l = t_.events[m.event];
        return flag_pairs_.count({s.event, l.block, uint32_t(l.thread)}) > 0;
    }

    void report_race(const std::vector<GlobalAccess>& g, const std::vector<uint8_t>& racing) {
        std::vector<uint32_t> by[3];  // storing, loading, atomic blocks (numbered within the launch)
        uint32_t event = kNoEvent, lowest = kNoEvent;
        for (size_t m = 0; m < g.size(); ++m)
            if (racing[m]) lowest = std::min(lowest, g[m].block);
        if (lowest == kNoEvent) return;
        const size_t launch = launch_of(t_.events[g[0].event]);
        const uint32_t first = t_.launches.empty() ? 0 : t_.launches[launch].first_block;
        for (size_t m = 0; m < g.size(); ++m) {
            if (!racing[m]) continue;
            const int r = g[m].role == kStore ? 0 : g[m].role == kLoad ? 1 : 2;
            if (by[r].empty() || by[r].back() != g[m].block - first) by[r].push_back(g[m].block - first);
            // The finding sits on the first racing store of a block after the lowest (else on the lowest's store).
            if (g[m].role == kStore && (event == kNoEvent || (t_.events[event].block == lowest && g[m].block != lowest))) event = g[m].event;
        }
        if (event == kNoEvent) return;
        const Event& e = t_.events[event];  // a store: aux is its element
        const std::string slot = buffer_name(buffer_of(e)) + "[" + std::to_string(e.aux) + "]";
        auto all = [](const std::vector<uint32_t>& b, const char* verb_one, const char* verb_many) {
            return blocks_text(b) + (b.size() == 1 ? verb_one : b.size() == 2 ? std::string(" both") + verb_many : std::string(" all") + verb_many);
        };
        std::string who;
        if (by[0] == by[1] && by[0].size() >= 2 && by[2].empty()) {
            who = all(by[0], " loads and stores ", " load and store ") + slot;
        } else {
            who = all(by[0], " stores ", " store ") + slot;
            if (!by[1].empty()) who += (by[2].empty() ? " and " : ", ") + blocks_text(by[1]) + (by[1].size() == 1 ? " loads it" : " load it");
            if (!by[2].empty()) who += " and " + blocks_text(by[2]) + (by[2].size() == 1 ? " applies an atomic to it" : " apply atomics to it");
        }
        const std::string then = !by[1].empty() ? "a block may load " + slot + " before or after another block's store to it"
                                 : !by[2].empty() ? "an atomic may come before or after the plain store, which then overwrites it"
                                                  : slot + " keeps whichever store happens to land last";
        add(HazardKind::GlobalMemoryRace, event, 1u << e.lane(),
            "In launch " + std::to_string(launch + 1) + ", " + who +
                " with nothing ordering them: CUDA runs the blocks of one launch in no set order, so " + then +
                ". Combine the blocks' values with an atomic (atomicAdd, atomicMax), or store one partial per block "
                "(out[blockIdx.x]) and combine the partials in a second launch");
    }

    // ---- 7. order witness and atomic chains --------------------------------------------------
    static bool witness_broken(const Event& e) {
        return !(e.flags & kUndefined) && unpack_value<WitnessValue>(e.value).lo == kWitnessViolated;
    }
    std::string range(uint32_t d) const {
        if (d >= t_.events.size()) return "?";
        auto w = unpack_value<WitnessValue>(t_.events[d].value);
        if (w.lo == kWitnessViolated) return "violated";
        if (w.lo == kWitnessEmpty) return "[]";
        return "[" + std::to_string(w.lo) + ".." + std::to_string(w.hi) + "]";
    }

    // The merges in the result's cone where the witness first broke: neither operand was broken.
    void order_witness() {
        if (t_.schedule.op != Op::Witness || t_.result_event >= t_.events.size()) return;
        std::vector<uint8_t> seen(t_.events.size(), 0);
        std::vector<uint32_t> stack{t_.result_event}, sites;
        while (!stack.empty()) {
            uint32_t i = stack.back();
            stack.pop_back();
            if (i >= t_.events.size() || seen[i]) continue;
            seen[i] = 1;
            const Event& e = t_.events[i];
            if (!witness_broken(e)) continue;
            bool inherited = false;
            for (uint32_t d : e.dep) inherited = inherited || (d < t_.events.size() && witness_broken(t_.events[d]));
            if (!inherited && (e.kind == EventKind::Combine || e.kind == EventKind::Atomic)) sites.push_back(i);
            for (uint32_t d : e.dep) stack.push_back(d);
        }
        for (uint32_t i : sites) {
            const Event& e = t_.events[i];
            add(HazardKind::OrderViolation, i, 1u << e.lane(),
                std::string(e.kind == EventKind::Atomic ? "atomic" : "merge") + " of " + range(e.dep[0]) + " with " +
                    range(e.dep[1]) + " is out of left-to-right order; a non-commutative operator gives a different result",
                true);
        }
    }

    // One address updated by a chain of atomics as long as the input: correct, but serialised. A cost
    // finding, not a correctness hazard. dep[0] links each atomic to the one it followed (a GPU trace may
    // list them out of order, so the links are followed with a memo).
    void atomic_chains() {
        const uint32_t n = uint32_t(t_.events.size());
        std::unordered_map<uint32_t, uint32_t> len;  // chain length ending at each atomic
        len.reserve(256);
        uint32_t best = 0, best_end = kNoEvent;
        for (uint32_t i = 0; i < n; ++i) {
            if (t_.events[i].kind != EventKind::Atomic || len[i]) continue;
            std::vector<uint32_t> path;
            uint32_t c = i;
            while (c < n && t_.events[c].kind == EventKind::Atomic && !len[c] && path.size() <= n) {
                path.push_back(c);
                c = t_.events[c].dep[0];
            }
            uint32_t base = (c < n && t_.events[c].kind == EventKind::Atomic) ? len[c] : 0;
            for (size_t k = path.size(); k-- > 0;) len[path[k]] = ++base;
            if (len[i] > best) best = len[i], best_end = i;
        }
        if (best < 2 || best < t_.schedule.n) return;
        uint32_t start = best_end;
        for (uint32_t k = 1; k < best && t_.events[start].dep[0] < n; ++k) start = t_.events[start].dep[0];  // bounded: a malformed cycle ends
        add(HazardKind::AtomicContention, start, 1u << t_.events[start].lane(),
            std::to_string(best) + " atomics to one address for " + std::to_string(t_.schedule.n) +
                " elements, each waiting for the one before: a chain as long as the input (correct, but serialised)");
    }

public:
    // The packed identity of an operator and type, and op(a, b) on packed values.
    static uint64_t identity_bits(Op op, DType type) {
        return with_op(op, type, [](auto o) { return pack_value(decltype(o)::identity()); });
    }
    static uint64_t combine_bits(Op op, DType type, uint64_t a, uint64_t b) {
        return with_op(op, type, [&](auto o) {
            using O = decltype(o);
            using V = typename O::Value;
            return pack_value(O::combine(unpack_value<V>(a), unpack_value<V>(b)));
        });
    }
    template <class F> static uint64_t with_op(Op op, DType type, F f) {
        auto by_acc = [&](auto acc) -> uint64_t {
            using A = decltype(acc);
            switch (op) {
                case Op::Sum: return f(SumOp<A>{});
                case Op::Max: return f(MaxOp<A>{});
                case Op::Min: return f(MinOp<A>{});
                case Op::Prod: return f(ProdOp<A>{});
                case Op::Witness: return f(WitnessOp{});
                case Op::ArgMax:
                    if constexpr (sizeof(A) == 4) return f(ArgMaxOp<A>{});
                    break;
                case Op::SumCount:
                    if constexpr (sizeof(A) == 4) return f(SumCountOp<A>{});
                    break;
            }
            return 0;
        };
        switch (type) {
            case DType::F64: return by_acc(double{});
            case DType::I32: return by_acc(int32_t{});
            default: return by_acc(float{});
        }
    }
};

// ---- 8. grouping per warp instruction -------------------------------------------------------------
// One hazard per warp instruction: one lane's findings of the same kind, block, warp and step become
// one entry with a lane mask (each event keeps its own kHazard flag).
std::vector<Hazard> group(const Trace& t, std::vector<Finding> found, std::vector<uint32_t>& flagged) {
    auto key = [&](const Finding& f) {
        const Event& e = t.events[f.event];
        return std::tuple(instance_key(e), e.step, e.warp(), uint8_t(f.kind), uint8_t(e.kind), f.per_lane ? 0u : f.event + 1u);
    };
    std::stable_sort(found.begin(), found.end(), [&](const Finding& a, const Finding& b) {
        return key(a) < key(b) || (key(a) == key(b) && a.event < b.event);
    });
    std::vector<Hazard> out;
    std::vector<int> merged;
    for (size_t k = 0; k < found.size(); ++k) {
        const Finding& f = found[k];
        const Event& e = t.events[f.event];
        flagged.push_back(f.event);
        if (k > 0 && f.per_lane && key(found[k - 1]) == key(f)) {
            Hazard& h = out.back();
            if (!(h.lanes & f.lanes)) ++merged.back();
            h.lanes |= f.lanes;
            continue;
        }
        out.push_back({f.kind, f.event, e.block, e.warp(), f.lanes, f.what});
        merged.push_back(0);
    }
    for (size_t k = 0; k < out.size(); ++k)
        if (merged[k] > 0)
            out[k].what += " (and " + std::to_string(merged[k]) + (merged[k] == 1 ? " more lane" : " more lanes") +
                           " of this warp at this step)";
    // A trace with launches names the whole place first: its blocks are numbered within their launch.
    // (A race between blocks names its launch and blocks itself.)
    if (!t.launches.empty())
        for (Hazard& h : out)
            if (h.kind != HazardKind::GlobalMemoryRace && h.kind != HazardKind::RaceCheckIncomplete) h.what = "In " + place_text(t, h.block, h.warp, h.lanes) + ": " + h.what;
    // Listed in program order (instance, step, warp, kind), not by event index: a GPU trace lists each
    // thread's events in its own slots, so index order would differ between two traces of one run.
    auto place = [&](const Hazard& h) {
        const Event& e = t.events[h.event];
        return std::tuple(instance_key(e), e.step, h.warp, uint8_t(h.kind), h.lanes, h.event);
    };
    std::stable_sort(out.begin(), out.end(), [&](const Hazard& a, const Hazard& b) { return place(a) < place(b); });
    return out;
}

}  // namespace

namespace {
// The checker's findings grouped, hazards apart from notes; `flagged` gets the hazards' events (a note marks
// no event: nothing is wrong there).
Findings checked(const Trace& t, std::vector<uint32_t>& flagged, uint64_t race_pairs = kRacePairBudget) {
    std::vector<Finding> hazards, notes;
    for (Finding& f : Checker(t, race_pairs).run()) (is_note(f.kind) ? notes : hazards).push_back(std::move(f));
    std::vector<uint32_t> noted;
    Findings out;
    out.hazards = group(t, std::move(hazards), flagged);
    out.notes = group(t, std::move(notes), noted);
    return out;
}
}  // namespace

Findings check_findings(const Trace& t, uint64_t race_pairs) {
    std::vector<uint32_t> flagged;
    return checked(t, flagged, race_pairs);
}

std::vector<Hazard> check_trace(const Trace& t) { return check_findings(t).hazards; }

void attach_checked_hazards(Trace& t) {
    std::vector<uint32_t> flagged;
    Findings f = checked(t, flagged);
    t.hazards = std::move(f.hazards);
    t.notes = std::move(f.notes);
    for (Event& e : t.events) e.flags &= uint8_t(~kHazard);
    for (uint32_t i : flagged) t.events[i].flags |= kHazard;
}

}  // namespace rl
