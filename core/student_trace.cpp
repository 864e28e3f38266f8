// core/student_trace.cpp — a student kernel's records (host fibers or GPU) into a checked Trace.
//
// Sections: 1. validation of what a recorder guarantees   2. steps (program order, operands and the
//           warp/block synchronisation groups)   3. one barrier event per warp   4. canonical order and
//           taint flags   5. atomic chains per out slot   6. the result and the rest of the Trace
//
// Both backends record the same fields for the same program, so the same function makes both traces and
// a test can compare them event by event. Steps come from the records alone (never from a clock).
#include "core/student_trace.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"  // fill_reference
#include "core/error.h"
#include "core/event_order.h"
#include "core/gpu_trace.h"  // order_atomics
#include "core/ops.h"

namespace rl {
namespace {

std::string record_at(size_t i) { return "student kernel record " + std::to_string(i) + ": "; }

bool is_sync(EventKind k) { return k == EventKind::Shuffle || k == EventKind::Barrier || k == EventKind::WarpSync; }

// An Atomic's dep[0] is the atomic it followed: the memory system's order, not the program's. It neither
// delays the atomic's step (a chain as long as the input would need as many steps) nor is it set yet.
bool orders_step(const StudentRecord& r, int k) { return !(r.kind == EventKind::Atomic && k == 0); }

// ---- 1. validation ----------------------------------------------------------------------------------
void check_records(const StudentRun& run, const std::vector<StudentRecord>& recs) {
    const Schedule& s = run.schedule;
    const uint32_t grid = s.grid_size();
    for (size_t i = 0; i < recs.size(); ++i) {
        const StudentRecord& r = recs[i];
        if (uint8_t(r.kind) >= kEventKindCount)
            throw Error(record_at(i) + "event kind " + std::to_string(int(uint8_t(r.kind))) + " is not one of the " +
                        std::to_string(kEventKindCount) + " kinds");
        if (r.launch > 1 || (r.launch == 1 && !run.second_launch))
            throw Error(record_at(i) + "launch " + std::to_string(r.launch) + " was not run");
        const uint32_t blocks = r.launch == 0 ? grid : 1;
        if (r.block >= blocks)
            throw Error(record_at(i) + "block " + std::to_string(r.block) + " is outside a grid of " + std::to_string(blocks) + " blocks");
        if (r.thread >= s.block)
            throw Error(record_at(i) + "thread " + std::to_string(r.thread) + " is outside a block of " + std::to_string(s.block) + " threads");
        for (int k = 0; k < 2; ++k) {
            const uint32_t d = r.dep[k];
            if (d == kNoEvent) continue;
            if (d >= recs.size()) throw Error(record_at(i) + "operand " + std::to_string(d) + " is out of range");
            if (d == i) throw Error(record_at(i) + "the event is its own operand");
            if (r.kind == EventKind::Atomic && k == 0) throw Error(record_at(i) + "an atomic arrived with its predecessor set");
            const StudentRecord& o = recs[d];
            if (o.launch == r.launch && o.block == r.block && o.thread == r.thread && o.seq >= r.seq)
                throw Error(record_at(i) + "operand " + std::to_string(d) + " is a later event of its own thread");
            if (o.launch > r.launch) throw Error(record_at(i) + "operand " + std::to_string(d) + " comes from a later launch");
        }
    }
}

// ---- 2. steps ---------------------------------------------------------------------------------------
// step(e) = max(step(previous event of its thread) + 1, step(operand) + 1); the members of one group (a
// warp's k-th shuffle, a block's k-th barrier, a warp's k-th __syncwarp) share the largest of theirs; a
// block's k-th barrier also follows the last event of each thread that reached fewer than k + 1 barriers
// (it exited before that barrier: exited threads do not count, as on the hardware).
class Stepper {
public:
    explicit Stepper(const std::vector<StudentRecord>& recs) : r_(recs) {}

    std::vector<uint32_t> run() {
        // Threads in program order; groups and their members.
        for (uint32_t i = 0; i < r_.size(); ++i) {
            const uint64_t tk = thread_key(r_[i]);
            auto [it, fresh] = thread_index_.try_emplace(tk, uint32_t(threads_.size()));
            if (fresh) threads_.push_back({});
            threads_[it->second].recs.push_back(i);
        }
        for (Thread& th : threads_) {
            std::sort(th.recs.begin(), th.recs.end(), [&](uint32_t a, uint32_t b) { return r_[a].seq < r_[b].seq; });
            for (size_t k = 1; k < th.recs.size(); ++k)
                if (r_[th.recs[k]].seq == r_[th.recs[k - 1]].seq)
                    throw Error(record_at(th.recs[k]) + "two events of one thread share position " + std::to_string(r_[th.recs[k]].seq));
            for (uint32_t i : th.recs) {
                if (!is_sync(r_[i].kind)) continue;
                Group& g = groups_[group_key(r_[i])];
                ++g.members;
                if (r_[i].kind == EventKind::Barrier) th.barriers = std::max(th.barriers, r_[i].group + 1);
            }
        }
        // Barrier arrivals per thread, per block instance (threads without records reached none).
        for (uint32_t t = 0; t < threads_.size(); ++t) block_threads_[block_key(r_[threads_[t].recs[0]])].push_back(t);

        step_.assign(r_.size(), -1);
        waiters_.resize(r_.size());
        for (uint32_t t = 0; t < threads_.size(); ++t) queue_.push_back(t);
        while (!queue_.empty()) {
            const uint32_t t = queue_.back();
            queue_.pop_back();
            advance(t);
        }
        std::vector<uint32_t> out(r_.size());
        for (uint32_t i = 0; i < r_.size(); ++i) {
            if (step_[i] < 0)
                throw Error(record_at(i) + "its step cannot be found: it waits for an operand or a " + std::string(to_string(r_[i].kind)) +
                            " that no order of the records allows (the records are not from one run)");
            if (step_[i] > 65534)
                throw Error("the kernel runs more than 65535 steps (a thread's events, one after another): "
                            "shorten its loops or use fewer elements per thread");
            out[i] = uint32_t(step_[i]);
        }
        return out;
    }

private:
    struct Thread {
        std::vector<uint32_t> recs;
        size_t pos = 0;
        int32_t last = -1;
        uint32_t barriers = 0;  // barriers it reaches
        bool waiting = false;   // counted as ready in its current group
    };
    struct Group {
        uint32_t members = 0, ready = 0;
        int32_t base = 0;
        bool done = false;
        std::vector<uint32_t> recs;
    };
    const std::vector<StudentRecord>& r_;
    std::vector<Thread> threads_;
    std::unordered_map<uint64_t, uint32_t> thread_index_;
    std::map<std::tuple<uint8_t, uint32_t, uint32_t, uint8_t, uint32_t>, Group> groups_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> block_threads_;
    std::vector<int32_t> step_;
    std::vector<std::vector<uint32_t>> waiters_;  // threads waiting for this record's step
    std::vector<uint32_t> queue_;

    static uint64_t block_key(const StudentRecord& r) { return (uint64_t(r.launch) << 40) | r.block; }
    static uint64_t thread_key(const StudentRecord& r) { return (block_key(r) << 16) | r.thread; }
    static std::tuple<uint8_t, uint32_t, uint32_t, uint8_t, uint32_t> group_key(const StudentRecord& r) {
        const uint32_t warp = r.kind == EventKind::Barrier ? 0u : r.thread / 32u;
        return {r.launch, r.block, warp, uint8_t(r.kind), r.group};
    }

    void advance(uint32_t t) {
        Thread& th = threads_[t];
        while (th.pos < th.recs.size()) {
            const uint32_t i = th.recs[th.pos];
            if (step_[i] >= 0) { th.last = step_[i]; ++th.pos; continue; }  // resolved with its group
            int32_t base = th.last + 1;
            for (int k = 0; k < 2; ++k) {
                const uint32_t d = r_[i].dep[k];
                if (d == kNoEvent || !orders_step(r_[i], k)) continue;
                if (step_[d] < 0) { waiters_[d].push_back(t); return; }
                base = std::max(base, step_[d] + 1);
            }
            if (!is_sync(r_[i].kind)) {
                resolve(i, base);
                th.last = base;
                ++th.pos;
                continue;
            }
            if (th.waiting) return;
            th.waiting = true;
            Group& g = groups_[group_key(r_[i])];
            g.base = std::max(g.base, base);
            g.recs.push_back(i);
            ++g.ready;
            try_group(g, r_[i]);
            return;  // resumed from the queue when the group completes
        }
        // Finished: barriers that waited for this thread to exit may now complete.
        const StudentRecord& any = r_[th.recs[0]];
        for (uint32_t k = th.barriers;; ++k) {
            auto it = groups_.find({any.launch, any.block, 0u, uint8_t(EventKind::Barrier), k});
            if (it == groups_.end()) break;
            if (!it->second.recs.empty()) try_group(it->second, r_[it->second.recs[0]]);
        }
    }

    void try_group(Group& g, const StudentRecord& member) {
        if (g.done || g.ready < g.members || g.recs.empty()) return;
        int32_t step = g.base;
        if (member.kind == EventKind::Barrier) {
            for (uint32_t t : block_threads_[block_key(member)]) {
                const Thread& th = threads_[t];
                if (th.barriers > member.group) continue;
                if (th.pos < th.recs.size()) return;  // still running: it must exit first
                step = std::max(step, th.last + 1);
            }
        }
        g.done = true;
        for (uint32_t i : g.recs) {
            resolve(i, step);
            const uint32_t t = thread_index_.at(thread_key(r_[i]));
            threads_[t].waiting = false;
            queue_.push_back(t);
        }
    }

    void resolve(uint32_t i, int32_t step) {
        step_[i] = step;
        for (uint32_t t : waiters_[i]) queue_.push_back(t);
        waiters_[i].clear();
    }
};

}  // namespace

Trace trace_from_student_records(const StudentRun& run, std::vector<StudentRecord> recs, const InputData& input) {
    const Schedule& s = run.schedule;
    if (recs.size() >= kBadDep) throw Error("a student kernel recorded more events than a trace can number");
    check_records(run, recs);
    const uint32_t G = s.grid_size();
    const std::vector<uint32_t> step = Stepper(recs).run();

    // ---- 3. one barrier (and __syncwarp) event per warp, line and group ------------------------------
    // Arrivals of one warp at one barrier become one event (thread = the warp's first lane, aux = the lanes
    // that arrived, detail = the source line: two lines at one barrier is a divergent barrier). Arrivals at one
    // `__syncwarp(mask)` become one event too (aux = the mask, thread = the lowest lane that called it, a lane the
    // mask names). A lane that calls it with a mask that leaves out its own bit keeps an event of its own (thread =
    // that lane): the checker finds the breach there (mask-omits-own-lane).
    std::vector<uint32_t> merged_into(recs.size(), kNoEvent);
    {
        std::map<std::tuple<uint8_t, uint32_t, uint32_t, uint8_t, uint32_t, uint32_t, uint32_t>, uint32_t> first;
        for (uint32_t i = 0; i < recs.size(); ++i) {
            StudentRecord& r = recs[i];
            if (r.kind != EventKind::Barrier && r.kind != EventKind::WarpSync) continue;
            if (r.kind == EventKind::WarpSync && !(r.aux >> (r.thread % 32u) & 1u)) {
                r.detail = r.line;
                continue;
            }
            const uint32_t warp = r.thread / 32u;
            const uint32_t named = r.kind == EventKind::WarpSync ? r.aux : 0u;
            auto [it, fresh] = first.try_emplace({r.launch, r.block, warp, uint8_t(r.kind), r.group, r.line, named}, i);
            StudentRecord& head = recs[it->second];
            if (fresh) {
                head.detail = r.line;
                head.aux = r.kind == EventKind::Barrier ? (1u << (r.thread % 32u)) : r.aux;
                head.thread = r.kind == EventKind::Barrier ? uint16_t(warp * 32u) : r.thread;
            } else {
                if (r.kind == EventKind::Barrier) head.aux |= 1u << (r.thread % 32u);
                else head.thread = std::min(head.thread, r.thread);
                merged_into[i] = it->second;
            }
        }
    }

    // ---- 4. canonical order: the smallest (launch, step, block, thread, seq) first among the events whose
    // operands are placed (a topological order, so every operand comes before its use; atomics' chain
    // links are set later and go the same way, see 5.) ----------------------------------------------------
    std::vector<uint32_t> keep;
    keep.reserve(recs.size());
    for (uint32_t i = 0; i < recs.size(); ++i)
        if (merged_into[i] == kNoEvent) keep.push_back(i);
    auto key = [&](uint32_t i) {
        const StudentRecord& r = recs[i];
        return std::tuple(r.launch, step[i], r.block, r.thread, r.seq);
    };
    std::sort(keep.begin(), keep.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    std::vector<uint32_t> index(recs.size(), kNoEvent);
    for (uint32_t k = 0; k < keep.size(); ++k) index[keep[k]] = k;
    // Operands always have a smaller step than their user (section 2), so the sorted order is topological.

    Trace t;
    t.schedule = s;
    t.backend = run.backend;
    t.device = run.device;
    t.kernel_file = run.kernel_file;
    t.grid = G;
    t.finish_threads = s.block;
    t.events.resize(keep.size());
    t.lines.resize(keep.size());
    std::vector<uint64_t> old_bits(keep.size());
    bool timed = false;
    for (uint32_t k = 0; k < keep.size(); ++k) timed = timed || recs[keep[k]].globaltimer_ns != 0;
    if (timed) t.times.resize(keep.size());
    uint32_t max_step = 0;
    for (uint32_t k = 0; k < keep.size(); ++k) {
        const StudentRecord& r = recs[keep[k]];
        Event& e = t.events[k];
        e.kind = r.kind;
        e.flags = uint8_t(r.flags & (kUndefined | kStale));
        e.step = uint16_t(step[keep[k]]);
        e.thread = r.thread;
        e.detail = uint16_t(r.detail);
        e.block = r.launch == 1 ? G : r.block;
        if (r.launch == 1) e.flags |= kFinisher;
        e.aux = r.aux;
        for (int d = 0; d < 2; ++d) e.dep[d] = r.dep[d] == kNoEvent ? kNoEvent : index[r.dep[d]];
        e.value = r.value;
        t.lines[k] = r.line;
        old_bits[k] = r.atomic_old;
        if (timed) t.times[k] = {r.globaltimer_ns, r.clock, r.sm};
        max_step = std::max<uint32_t>(max_step, e.step);
    }

    // Taint and identity flags, from each event's operands (the recorders set only where a value is born
    // undefined); operands come first, so one pass in order sees them final.
    auto flags_of = [&](uint32_t d) -> uint8_t { return d == kNoEvent ? 0 : t.events[d].flags; };
    for (Event& e : t.events) {
        const uint8_t own = e.flags;
        switch (e.kind) {
            case EventKind::IdentityFill:
                if (!(own & kUndefined)) e.flags |= kIdentity;
                break;
            case EventKind::Combine: {
                uint8_t fl = combined_flags(flags_of(e.dep[0]), flags_of(e.dep[1]));
                if (s.op == Op::Witness && WitnessOp::violated(unpack_value<WitnessValue>(e.value)) &&
                    !(fl & kOrderViolated))
                    fl |= kOrderViolated;
                e.flags = uint8_t(own | fl);
                break;
            }
            case EventKind::Shuffle: case EventKind::SharedLoad: case EventKind::PartialLoad:
            case EventKind::BlockPartial: case EventKind::FinalStore:
                if (e.dep[0] != kNoEvent) e.flags |= uint8_t(flags_of(e.dep[0]) & (kTaintFlags | kIdentity));
                break;
            default: break;
        }
    }

    // ---- 5. atomic chains, one per out slot (detail), from the values the atomics replaced ----------------
    std::map<uint32_t, std::vector<uint32_t>> atomics_of_slot;
    for (uint32_t k = 0; k < t.events.size(); ++k)
        if (t.events[k].kind == EventKind::Atomic) atomics_of_slot[t.events[k].detail].push_back(k);
    uint32_t last_atomic_out0 = kNoEvent;
    for (auto& [slot, list] : atomics_of_slot) {
        Trace chain;  // the slot's atomics alone, ordered by core's Eulerian trail
        chain.schedule = s;
        std::vector<uint64_t> olds;
        for (uint32_t k : list) {
            Event e = t.events[k];
            e.dep[1] = kNoEvent;  // operands outside the sub-trace; their flags are already in e.flags below
            e.flags = uint8_t((e.flags & kFinisher) | (flags_of(t.events[k].dep[1]) & (kTaintFlags | kIdentity)));
            chain.events.push_back(e);
            olds.push_back(old_bits[k]);
            if (timed) chain.times.push_back(t.times[k]);
        }
        order_atomics(chain, olds, run.out_identity);
        for (size_t m = 0; m < list.size(); ++m) {
            Event& e = t.events[list[m]];
            const Event& c = chain.events[m];
            e.flags = c.flags;
            e.aux = c.aux;
            e.dep[0] = c.dep[0] == kNoEvent ? kNoEvent : list[c.dep[0]];
        }
        if (slot == 0 && chain.result_event != kNoEvent) last_atomic_out0 = list[chain.result_event];
    }

    // The atomics' chain links follow the memory system's order, which can run against the steps (block 1's
    // atomic at step 9 first, block 0's at step 7 after it): events move so that every operand comes first.
    t.result_event = last_atomic_out0;
    order_operands_first(t);
    last_atomic_out0 = t.result_event;

    // ---- 6. the result: what last wrote out[0] -------------------------------------------------------------
    // Atomics on out[0] end with the chain's last; otherwise the store to out[0] in the last launch whose value
    // memory holds (the latest such, by step), which becomes the FinalStore.
    const uint8_t last_launch = run.second_launch ? 1 : 0;
    uint32_t writer = last_atomic_out0;
    if (writer == kNoEvent) {
        for (uint32_t k = 0; k < t.events.size(); ++k) {
            const Event& e = t.events[k];
            const bool in_last = ((e.flags & kFinisher) != 0) == (last_launch == 1);
            if (e.kind == EventKind::BlockPartial && e.aux == 0 && in_last && e.value == run.final_out0) writer = k;
        }
        if (writer != kNoEvent) t.events[writer].kind = EventKind::FinalStore;
    }
    t.result_event = writer;
    if (writer != kNoEvent) {
        t.result_value = t.events[writer].value;
        t.result_flags = t.events[writer].flags;
    } else {
        t.result_value = run.out_identity;  // nothing wrote out[0]: it still holds the identity
        t.result_flags = kIdentity;
    }
    t.finisher_block = run.second_launch ? G : kNoEvent;
    if (!run.second_launch)
        for (const Event& e : t.events)
            if (e.kind == EventKind::Ticket && e.aux + 1 == G) t.finisher_block = e.block;

    t.step_count = uint16_t(t.events.empty() ? 0 : max_step + 1);
    // Scopes: where shuffles or __syncwarp first happen, then shared memory or barriers, then global results.
    uint16_t first[4] = {0, t.step_count, t.step_count, t.step_count};
    for (const Event& e : t.events) {
        if (e.flags & kFinisher) continue;
        int sc = 0;
        switch (e.kind) {
            case EventKind::Shuffle: case EventKind::WarpSync: sc = 1; break;
            case EventKind::SharedStore: case EventKind::SharedLoad: case EventKind::Barrier: sc = 2; break;
            case EventKind::BlockPartial: case EventKind::Atomic: case EventKind::Ticket: case EventKind::PartialLoad:
            case EventKind::FinalStore: case EventKind::Fence: case EventKind::GridSync: sc = 3; break;
            default: break;
        }
        if (sc) first[sc] = std::min(first[sc], e.step);
    }
    for (int sc = 2; sc >= 1; --sc) first[sc] = std::min(first[sc], first[sc + 1]);
    std::copy(first, first + 4, t.scope_start);

    if (s.n <= kTraceInputsLimit) {
        t.inputs.resize(input.size());
        for (size_t i = 0; i < input.size(); ++i) t.inputs[i] = input.value(i);
    }
    fill_reference(t, input);
    attach_checked_hazards(t);
    return t;
}

}  // namespace rl
