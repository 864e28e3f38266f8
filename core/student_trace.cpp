// core/student_trace.cpp — a student kernel's records (host fibers or GPU) into a checked Trace.
//
// Sections: 1. validation of what a recorder guarantees   2. steps (program order, operands and the
//           warp/block synchronisation groups)   3. one barrier event per warp   4. canonical order and
//           taint flags   5. atomic chains per out slot   6. the result and the rest of the Trace
//
// Both backends record the same fields for the same program, so the same function makes both traces and
// a test can compare them event by event. Steps come from the records alone (never from a clock).
//
// Two kinds of run: the dialect's (launch 0, and the lab's one-block launch 1 over the block partials as block ==
// grid, kFinisher) and a plain CUDA run's (StudentRun::launches: up to 16 launches, each stepped on its own and placed
// after the one before, block b of launch k as block first_block + b, global buffers named in the events' detail).
#include "core/student_trace.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"  // fill_reference
#include "core/error.h"
#include "core/event_order.h"
#include "core/gpu_trace.h"  // order_atomics
#include "core/ops.h"
#include "core/phase_clock.h"

namespace rl {
namespace {

std::string record_at(size_t i) { return "student kernel record " + std::to_string(i) + ": "; }

bool is_sync(EventKind k) { return k == EventKind::Shuffle || k == EventKind::Barrier || k == EventKind::WarpSync; }

// An Atomic's dep[0] is the atomic it followed: the memory system's order, not the program's. It neither
// delays the atomic's step (a chain as long as the input would need as many steps) nor is it set yet.
bool orders_step(const StudentRecord& r, int k) { return !(r.kind == EventKind::Atomic && k == 0); }

// ---- 1. validation ----------------------------------------------------------------------------------
// A plain CUDA run (run.launches non-empty) checks each record against its own launch's grid and block; the dialect
// has launch 0 over the schedule's grid and the lab's optional one-block launch 1.
// It also keeps a plain run's buffer bits (pad0 bits 1..4, which the stepper overwrites) in `buffer_bits`: the pass
// that reads every record anyway (each pass over millions of 80-byte records costs what reading them costs).
void check_records(const StudentRun& run, const std::vector<StudentRecord>& recs, std::vector<uint8_t>& buffer_bits) {
    const Schedule& s = run.schedule;
    const uint32_t grid = s.grid_size();
    const bool plain = !run.launches.empty();
    if (plain) {
        if (std::string why = launches_problem(run.launches); !why.empty()) throw Error("the run's launches: " + why);
        if (run.second_launch) throw Error("the run's launches: a plain run has no lab-made second launch");
    }
    if (plain) buffer_bits.resize(recs.size());
    for (size_t i = 0; i < recs.size(); ++i) {
        const StudentRecord& r = recs[i];
        if (plain) buffer_bits[i] = uint8_t(r.pad0 >> 1 & 0xf);
        if (uint8_t(r.kind) >= kEventKindCount)
            throw Error(record_at(i) + "event kind " + std::to_string(int(uint8_t(r.kind))) + " is not one of the " +
                        std::to_string(kEventKindCount) + " kinds");
        if (plain && r.launch >= run.launches.size())
            throw Error(record_at(i) + "launch " + std::to_string(r.launch + 1) + " is not one of the run's " +
                        std::to_string(run.launches.size()) + (run.launches.size() == 1 ? " launch" : " launches"));
        if (!plain && (r.launch > 1 || (r.launch == 1 && !run.second_launch)))
            throw Error(record_at(i) + "launch " + std::to_string(r.launch) + " was not run");
        const uint32_t blocks = plain ? run.launches[r.launch].grid : r.launch == 0 ? grid : 1;
        const uint32_t threads = plain ? run.launches[r.launch].block : s.block;
        if (r.block >= blocks)
            throw Error(record_at(i) + "block " + std::to_string(r.block) + " is outside a grid of " + std::to_string(blocks) + " blocks");
        if (r.thread >= threads)
            throw Error(record_at(i) + "thread " + std::to_string(r.thread) + " is outside a block of " + std::to_string(threads) + " threads");
        if (r.kind == EventKind::Barrier && (r.pad0 & kWarpArrival)) {
            // A warp's arrival: its lanes in aux, recorded under the lowest (the stepper gives the others theirs).
            const uint32_t own = 1u << (r.thread % 32u), warp = r.thread / 32u * 32u;
            if ((r.aux & (own | (own - 1))) != own)
                throw Error(record_at(i) + "a warp's barrier arrival (lanes " + std::to_string(r.aux) +
                            ") is recorded under a thread that is not its lowest lane");
            if (warp + 32u - uint32_t(__builtin_clz(r.aux)) > threads)
                throw Error(record_at(i) + "a warp's barrier arrival names a lane outside a block of " + std::to_string(threads) + " threads");
        }
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
// (it exited before that barrier: exited threads do not count, as on the hardware). A thread's Exit record (the
// plain-CUDA engine's, for a thread that skipped a barrier alive) says how many of the block's barriers it passed,
// reached or skipped: those do not wait for it to exit, and its exit comes no earlier than any of them, so that the
// checker finds it alive there and missing. Without one a thread passed the barriers it reached.
//
// The records are visited thread by thread (records_by_thread: each thread's records together, block by block);
// every table is a flat array indexed by thread, group or record, so that millions of records cost a few passes
// and no allocation each. A thread runs until an operand's step is not known yet (it waits on that record) or it
// reaches a sync record (it waits for its group). The steps found do not depend on the order threads are run in:
// each is fixed once every step it depends on is.
class Stepper {
public:
    // Overwrites each sync record's `group` with its group's id here (unique per launch, block, warp for shuffles
    // and __syncwarp, kind and k), which section 3 merges by.
    // per_launch: an operand from an earlier launch does not delay a record (a plain run's launches are stepped each
    // on its own and placed one after another afterwards: the launch boundary orders them).
    Stepper(std::vector<StudentRecord>& recs, const std::vector<uint32_t>& order, bool per_launch = false)
        : r_(recs), order_(order), per_launch_(per_launch) {}

    struct Group {
        uint32_t members = 0, ready = 0;
        int32_t base = 0;
        uint32_t start = 0;   // its members in members_ (threads while it waits, records once it is done)
        uint32_t block = 0;   // block instance
        uint32_t k = 0;       // a barrier's index
        EventKind kind = EventKind::Barrier;
        bool done = false;
        int32_t step = 0;           // once done
        uint32_t exits = 0xffffffffu;  // threads whose exit waits for this barrier: a list through next_waiter_
    };

    // Each record's step goes to its pad1 (as int32, -1 until found); pad0 is left 0 but a warp's barrier record's
    // kWarpArrival (section 3 marks merged records there). A record's fields hold what the stepper keeps of it: no array of millions beside them to fill.
    void run() {
        build_tables();
        next_waiter_.assign(threads_.size(), kNone);
        for (uint32_t t = uint32_t(threads_.size()); t-- > 0;) queue_.push_back(t);  // thread 0 runs first
        while (!queue_.empty()) {
            const uint32_t t = queue_.back();
            queue_.pop_back();
            advance(t);
        }
        if (resolved_ == r_.size() && max_step_ <= 65534) return;
        for (uint32_t i = 0; i < r_.size(); ++i) {
            if (step_of(r_[i]) < 0)
                throw Error(record_at(i) + "its step cannot be found: it waits for an operand or a " + std::string(to_string(r_[i].kind)) +
                            " that no order of the records allows (the records are not from one run)");
            if (step_of(r_[i]) > 65534)
                throw Error("the kernel runs more than 65535 steps (a thread's events, one after another): "
                            "shorten its loops or use fewer elements per thread");
        }
    }

    static int32_t step_of(const StudentRecord& r) { return int32_t(r.pad1); }
    int32_t last_step(uint8_t launch) const { return last_step_[launch]; }  // its largest step, -1: none

    const std::vector<Group>& groups() const { return groups_; }
    // A done group's records: members()[g.start, g.start + g.ready); kVirtualMember marks a lane's arrival that a
    // warp's record (another member) stands for.
    const std::vector<uint32_t>& members() const { return members_; }
    static bool virtual_member(uint32_t m) { return (m & kVirtualMember) != 0; }

private:
    static constexpr uint32_t kNone = 0xffffffffu;
    struct Thread {
        uint32_t pos = 0, end = 0;  // its records: order_[pos, end)
        uint32_t vpos = 0, vend = 0;  // its arrivals a warp's record stands for: virtual_[vpos, vend)
        int32_t last = -1;
        uint32_t barriers = 0;      // barriers it passes: reaches, or skips alive as its exit says
        uint32_t block = 0;         // block instance
        bool waiting = false;       // counted as ready in its current group
    };
    struct Block {
        uint32_t first_thread = 0, end_thread = 0;
        uint32_t barrier_first = 0, barrier_count = 0;  // barrier_gid_[first, first + count): the group of barrier k
    };
    std::vector<StudentRecord>& r_;
    const std::vector<uint32_t>& order_;
    bool per_launch_ = false;
    std::vector<Thread> threads_;
    // A lane's arrival at a barrier that its warp's record stands for (kWarpArrival, recorded under a lower lane): the
    // lane takes it before its own record order_[before] (or after its last one), as one member of the record's group.
    struct Virtual {
        uint32_t before, rec;
    };
    std::vector<Virtual> virtual_;
    static constexpr uint32_t kVirtualMember = 0x80000000u;  // members_: a virtual arrival's record (no event of its own)
    std::vector<Block> blocks_;
    std::vector<Group> groups_;
    std::vector<uint32_t> members_, barrier_gid_;
    // Threads waiting for a record's step: a list through next_waiter_ from waiter_[record], for the few records that
    // have one (kHasWaiters in their pad0): a thread waits only for an operand of another thread not yet placed.
    static constexpr uint8_t kHasWaiters = 2;
    std::unordered_map<uint32_t, uint32_t> waiter_;
    size_t resolved_ = 0;  // records with a step, and the largest (the checks at the end read no record when all is well)
    int32_t max_step_ = 0;
    std::array<int32_t, 256> last_step_ = filled(-1);  // by launch: its largest step (-1: no record)
    static std::array<int32_t, 256> filled(int32_t v) {
        std::array<int32_t, 256> a;
        a.fill(v);
        return a;
    }
    std::vector<uint32_t> next_waiter_;
    std::vector<uint32_t> queue_;

    static bool same_block(const StudentRecord& a, const StudentRecord& b) { return a.launch == b.launch && a.block == b.block; }

    // Threads, block instances and groups, from the records in thread order. A warp's barrier record (kWarpArrival)
    // is visited under its lowest lane, before the other lanes of aux (higher threads of the block): it is queued for
    // each of them (`pending`), and each takes it at the j-th gap in its seq (the lane's j-th arrival recorded by
    // another lane: a warp's records in index order are its arrivals in time), or after its last record. A lane whose
    // only acts are such arrivals has no record: it becomes a thread of its own at the end of its block.
    void build_tables() {
        std::vector<uint32_t> shuffle_gid[32], warpsync_gid[32];  // per warp of the current block, by k
        std::vector<std::vector<uint32_t>> pending;  // per thread of the current block: warp records naming it
        std::vector<uint32_t> pending_threads;       // the threads with some (each once)
        uint32_t cur = kNone, next_seq = 0;          // threads_.back()'s thread and the seq it takes next
        size_t taken = 0;                            // of pending[cur]
        auto add_virtual = [&](uint32_t rec, uint32_t before) {
            Thread& th = threads_.back();
            virtual_.push_back({before, rec});
            th.vend = uint32_t(virtual_.size());
            Group& g = groups_[r_[rec].group];  // its group id by now: its lane came first
            ++g.members;
            th.barriers = std::max(th.barriers, g.k + 1);
        };
        auto end_thread = [&]() {  // its arrivals after its last record
            if (cur == kNone || cur >= pending.size()) return;
            for (std::vector<uint32_t>& list = pending[cur]; taken < list.size(); ++taken) add_virtual(list[taken], threads_.back().end);
            pending[cur].clear();
        };
        auto end_block = [&](uint32_t p) {
            end_thread();
            cur = kNone;
            for (uint32_t lane : pending_threads) {
                if (pending[lane].empty()) continue;
                std::sort(pending[lane].begin(), pending[lane].end());
                threads_.push_back({p, p, uint32_t(virtual_.size()), uint32_t(virtual_.size())});
                threads_.back().block = uint32_t(blocks_.size() - 1);
                for (uint32_t rec : pending[lane]) add_virtual(rec, p);
                pending[lane].clear();
            }
            pending_threads.clear();
            if (!blocks_.empty()) {
                blocks_.back().end_thread = uint32_t(threads_.size());
                blocks_.back().barrier_count = uint32_t(barrier_gid_.size() - blocks_.back().barrier_first);
            }
        };
        for (size_t p = 0; p < order_.size(); ++p) {
            const uint32_t i = order_[p];
            StudentRecord& r = r_[i];
            r.pad0 = r.kind == EventKind::Barrier ? uint8_t(r.pad0 & kWarpArrival) : uint8_t(0);
            r.pad1 = uint32_t(-1);  // no step yet
            const bool new_block = p == 0 || !same_block(r, r_[order_[p - 1]]);
            if (new_block) {
                end_block(uint32_t(p));
                blocks_.push_back({uint32_t(threads_.size()), 0, uint32_t(barrier_gid_.size()), 0});
                for (auto& v : shuffle_gid) v.clear();
                for (auto& v : warpsync_gid) v.clear();
            }
            if (new_block || r.thread != r_[order_[p - 1]].thread) {
                end_thread();
                threads_.push_back({});
                threads_.back().pos = uint32_t(p);
                threads_.back().vpos = threads_.back().vend = uint32_t(virtual_.size());
                threads_.back().block = uint32_t(blocks_.size() - 1);
                blocks_.back().end_thread = uint32_t(threads_.size());
                cur = r.thread;
                next_seq = 0;
                taken = 0;
                if (cur < pending.size() && !std::is_sorted(pending[cur].begin(), pending[cur].end()))
                    std::sort(pending[cur].begin(), pending[cur].end());
            } else if (r.seq == r_[order_[p - 1]].seq) {
                throw Error(record_at(i) + "two events of one thread share position " + std::to_string(r.seq));
            } else if (r_[order_[p - 1]].kind == EventKind::Exit) {
                throw Error(record_at(order_[p - 1]) + "an exit that is not its thread's last event");
            }
            Thread& th = threads_.back();
            th.end = uint32_t(p + 1);
            // The gaps before this record: arrivals of this lane that a lower lane's record stands for.
            if (r.seq > next_seq && cur < pending.size())
                for (uint32_t gap = r.seq - next_seq; gap > 0 && taken < pending[cur].size(); --gap) add_virtual(pending[cur][taken++], uint32_t(p));
            next_seq = r.seq + 1;
            if (r.kind == EventKind::Exit) th.barriers = std::max(th.barriers, r.group);
            if (!is_sync(r.kind)) continue;
            const uint32_t k = r.group;
            std::vector<uint32_t>* slots = nullptr;
            uint32_t base = 0;  // barriers: into barrier_gid_
            if (r.kind == EventKind::Barrier) {
                th.barriers = std::max(th.barriers, k + 1);
                base = blocks_.back().barrier_first;
            } else {
                slots = &(r.kind == EventKind::Shuffle ? shuffle_gid : warpsync_gid)[r.thread / 32u];
            }
            uint32_t* gid = nullptr;
            if (slots) {
                if (slots->size() <= k) slots->resize(size_t(k) + 1, kNone);
                gid = &(*slots)[k];
            } else {
                if (barrier_gid_.size() <= base + uint64_t(k)) barrier_gid_.resize(size_t(base) + k + 1, kNone);
                gid = &barrier_gid_[base + k];
            }
            if (*gid == kNone) {
                *gid = uint32_t(groups_.size());
                Group g;
                g.block = uint32_t(blocks_.size() - 1);
                g.k = k;
                g.kind = r.kind;
                groups_.push_back(g);
            }
            ++groups_[*gid].members;
            r.group = *gid;
            if (r.pad0 & kWarpArrival) {  // the other lanes' arrivals (check_records: all above this one, in its block)
                const uint32_t warp = r.thread / 32u * 32u;
                for (uint32_t lanes = r.aux & (r.aux - 1); lanes; lanes &= lanes - 1) {
                    const uint32_t lane = warp + uint32_t(__builtin_ctz(lanes));
                    if (lane >= pending.size()) pending.resize(size_t(lane) + 1);
                    if (pending[lane].empty()) pending_threads.push_back(lane);
                    pending[lane].push_back(i);
                }
            }
        }
        end_block(uint32_t(order_.size()));
        uint32_t start = 0;
        for (Group& g : groups_) {
            g.start = start;
            start += g.members;
        }
        members_.assign(start, kNone);
    }

    // The thread's next act is an arrival a warp's record stands for (before its next record of its own, if any).
    bool at_virtual(const Thread& th) const { return th.vpos < th.vend && virtual_[th.vpos].before <= th.pos; }
    static bool running(const Thread& th) { return th.pos < th.end || th.vpos < th.vend; }

    void advance(uint32_t t) {
        Thread& th = threads_[t];
        while (running(th)) {
            if (at_virtual(th)) {  // a barrier arrival its warp's record stands for: no operands, no record to place
                const uint32_t i = virtual_[th.vpos].rec;
                if (step_of(r_[i]) >= 0) { th.last = step_of(r_[i]); ++th.vpos; continue; }  // its group is done
                if (th.waiting) return;
                th.waiting = true;
                Group& g = groups_[r_[i].group];
                g.base = std::max(g.base, th.last + 1);
                members_[g.start + g.ready++] = t;
                try_group(r_[i].group);
                return;
            }
            const uint32_t i = order_[th.pos];
            if (step_of(r_[i]) >= 0) { th.last = step_of(r_[i]); ++th.pos; continue; }  // resolved with its group
            const StudentRecord& r = r_[i];
            int32_t base = th.last + 1;
            for (int k = 0; k < 2; ++k) {
                const uint32_t d = r.dep[k];
                if (d == kNoEvent || !orders_step(r, k) || (per_launch_ && r_[d].launch != r.launch)) continue;
                if (step_of(r_[d]) < 0) {  // wait for it
                    auto [it, fresh] = waiter_.try_emplace(d, kNone);
                    next_waiter_[t] = it->second;
                    it->second = t;
                    r_[d].pad0 |= kHasWaiters;
                    return;
                }
                base = std::max(base, step_of(r_[d]) + 1);
            }
            if (r.kind == EventKind::Exit && !exit_step(t, r, base)) return;  // resumed when that barrier is placed
            if (!is_sync(r.kind)) {
                resolve(i, base);
                th.last = base;
                ++th.pos;
                continue;
            }
            if (th.waiting) return;
            th.waiting = true;
            Group& g = groups_[r.group];
            g.base = std::max(g.base, base);
            members_[g.start + g.ready++] = t;
            try_group(r.group);
            return;  // resumed from the queue when the group completes
        }
        // Finished: barriers that waited for this thread to exit may now complete.
        const Block& b = blocks_[th.block];
        for (uint32_t k = th.barriers; k < b.barrier_count; ++k) {
            const uint32_t g = barrier_gid_[b.barrier_first + k];
            if (g == kNone) break;
            if (groups_[g].ready) try_group(g);
        }
    }

    // An exit's step: after the thread's last event and no earlier than each barrier of its block it passed (false:
    // one of them is not placed yet; the thread waits for it).
    bool exit_step(uint32_t t, const StudentRecord& r, int32_t& base) {
        const Block& b = blocks_[threads_[t].block];
        for (uint32_t k = 0; k < r.group && k < b.barrier_count; ++k) {
            const uint32_t gid = barrier_gid_[b.barrier_first + k];
            if (gid == kNone) continue;
            Group& g = groups_[gid];
            if (!g.done) {
                next_waiter_[t] = g.exits;
                g.exits = t;
                return false;
            }
            base = std::max(base, g.step);
        }
        return true;
    }

    void try_group(uint32_t gid) {
        Group& g = groups_[gid];
        if (g.done || g.ready < g.members || g.ready == 0) return;
        int32_t step = g.base;
        if (g.kind == EventKind::Barrier) {
            const Block& b = blocks_[g.block];
            for (uint32_t t = b.first_thread; t < b.end_thread; ++t) {
                const Thread& th = threads_[t];
                if (th.barriers > g.k) continue;
                if (running(th)) return;  // it must exit first
                step = std::max(step, th.last + 1);
            }
        }
        g.done = true;
        g.step = step;
        for (uint32_t t = g.exits; t != kNone;) {
            const uint32_t next = next_waiter_[t];
            queue_.push_back(t);
            t = next;
        }
        g.exits = kNone;
        for (uint32_t m = g.start; m < g.start + g.ready; ++m) {
            const uint32_t t = members_[m];
            Thread& th = threads_[t];
            if (at_virtual(th)) {
                members_[m] = virtual_[th.vpos].rec | kVirtualMember;  // (its record is placed by its own lane, a member too)
            } else {
                const uint32_t i = order_[th.pos];
                members_[m] = i;  // the group's records, for section 3
                resolve(i, step);
            }
            th.waiting = false;
            queue_.push_back(t);
        }
    }

    void resolve(uint32_t i, int32_t step) {
        StudentRecord& r = r_[i];
        r.pad1 = uint32_t(step);
        ++resolved_;
        max_step_ = std::max(max_step_, step);
        last_step_[r.launch] = std::max(last_step_[r.launch], step);
        if (!(r.pad0 & kHasWaiters)) return;
        r.pad0 &= uint8_t(~kHasWaiters);
        auto it = waiter_.find(i);
        for (uint32_t t = it->second; t != kNone;) {
            const uint32_t next = next_waiter_[t];
            queue_.push_back(t);
            t = next;
        }
        waiter_.erase(it);
    }
};

// Where a plain run's chain of atomics on one word starts: the value it held before the first, which is the identity
// only when nothing else wrote it (an earlier launch's store, a program's cudaMemset or copy can leave any value). It
// is the one value the atomics replace once more than they make; none such (or several: no one chain): the identity.
uint64_t chain_start(const Trace& chain, const std::vector<uint64_t>& olds, uint64_t identity) {
    std::unordered_map<uint64_t, int64_t> balance;
    for (uint64_t v : olds) ++balance[v];
    for (const Event& e : chain.events) --balance[e.value];
    uint64_t start = identity;
    int starts = 0;
    for (const auto& [v, b] : balance)
        if (b > 0) start = v, starts += int(b);
    return starts == 1 ? start : identity;
}

// A plain run's result: the final writer of out[0] (buffer 1, element 0), in the last launch that wrote it: the
// chain of atomics on it or the latest store (by step) whose value memory holds at the end, whichever comes later;
// when no write there holds that value (a race the recorder saw settle otherwise), the latest write of that launch.
uint32_t plain_result(const Trace& t, uint32_t last_atomic, uint64_t final_out0) {
    auto launch = [&](uint32_t k) { return launch_of_block(t, t.events[k].block); };
    auto later = [&](uint32_t a, uint32_t b) {  // a comes after b (kNoEvent comes before everything)
        if (b == kNoEvent) return a != kNoEvent;
        if (a == kNoEvent) return false;
        return std::pair(t.events[a].step, a) > std::pair(t.events[b].step, b);
    };
    uint32_t last_store = kNoEvent;
    for (uint32_t k = 0; k < t.events.size(); ++k) {
        const Event& e = t.events[k];
        if (e.kind == EventKind::BlockPartial && event_buffer(e) == kBufferOut && e.aux == 0 && later(k, last_store)) last_store = k;
    }
    if (last_store == kNoEvent) return last_atomic;
    const size_t L = last_atomic != kNoEvent ? std::max(launch(last_store), launch(last_atomic)) : launch(last_store);
    uint32_t held = kNoEvent, any = kNoEvent;
    for (uint32_t k = 0; k < t.events.size(); ++k) {
        const Event& e = t.events[k];
        if (e.kind != EventKind::BlockPartial || event_buffer(e) != kBufferOut || e.aux != 0 || launch(k) != L) continue;
        if (later(k, any)) any = k;
        if (e.value == final_out0 && later(k, held)) held = k;
    }
    const bool atomic_here = last_atomic != kNoEvent && launch(last_atomic) == L;
    if (atomic_here && t.events[last_atomic].value == final_out0 && !later(held, last_atomic)) return last_atomic;
    if (held != kNoEvent) return held;
    return atomic_here && !later(any, last_atomic) ? last_atomic : any;
}

}  // namespace

void for_each_block_by_thread(const std::vector<StudentRecord>& r, size_t first,
                              const std::function<void(const uint32_t* order, size_t count, bool all)>& fn) {
    const size_t n = r.size();
    if (first >= n) return;
    auto before = [&](uint32_t a, uint32_t b) {
        const StudentRecord &x = r[a], &y = r[b];
        if (x.launch != y.launch) return x.launch < y.launch;
        if (x.block != y.block) return x.block < y.block;
        if (x.thread != y.thread) return x.thread < y.thread;
        return x.seq < y.seq;
    };
    // Both CPU backends record block after block: then a count per thread sorts each block's records, in one pass
    // that also finds where blocks end. A block that comes after a later one (a GPU's records, a test's) ends that:
    // all the records are sorted and given in one call.
    std::vector<uint32_t> at(size_t(0xffff) + 2, 0), seq, out;
    for (size_t b = first; b < n;) {
        if (b > first && !(r[b].launch > r[b - 1].launch || (r[b].launch == r[b - 1].launch && r[b].block > r[b - 1].block))) {
            out.resize(n - first);
            for (size_t i = first; i < n; ++i) out[i - first] = uint32_t(i);
            std::stable_sort(out.begin(), out.end(), before);
            fn(out.data(), out.size(), true);
            return;
        }
        size_t e = b;
        uint32_t threads = 0;
        for (; e < n && r[e].launch == r[b].launch && r[e].block == r[b].block; ++e) {
            ++at[r[e].thread + 1u];
            threads = std::max(threads, r[e].thread + 1u);
        }
        for (uint32_t t = 0; t < threads; ++t) at[t + 1] += at[t];
        out.resize(e - b);
        seq.resize(e - b);
        for (size_t i = b; i < e; ++i) {
            const uint32_t pos = at[r[i].thread]++;
            out[pos] = uint32_t(i);
            seq[pos] = r[i].seq;
        }
        // A thread's records come in program order, but for two operands a recorder swapped (core/student_record.h):
        // an insertion sort by seq within each thread's run (at[t] is now its end) costs a compare each.
        for (uint32_t t = 0, begin = 0; t < threads; begin = at[t++])
            for (uint32_t k = begin + 1; k < at[t]; ++k)
                for (uint32_t j = k; j > begin && seq[j] < seq[j - 1]; --j) {
                    std::swap(seq[j], seq[j - 1]);
                    std::swap(out[j], out[j - 1]);
                }
        std::fill(at.begin(), at.begin() + threads + 1, 0u);
        fn(out.data(), out.size(), false);
        b = e;
    }
}

std::vector<uint32_t> records_by_thread(const std::vector<StudentRecord>& r, size_t first) {
    std::vector<uint32_t> order;
    order.reserve(r.size() - std::min(first, r.size()));
    for_each_block_by_thread(r, first, [&](const uint32_t* o, size_t count, bool all) {
        if (all) order.clear();
        order.insert(order.end(), o, o + count);
    });
    return order;
}

Trace trace_from_student_records(const StudentRun& run, std::vector<StudentRecord> recs, const InputData& input) {
    const Schedule& s = run.schedule;
    if (recs.size() >= 0x80000000u) throw Error("a student kernel recorded more events than a trace can number");
    // A plain run's global accesses name their buffer in pad0 bits 1..3 (bit 4: a load outside its buffer); the
    // stepper takes pad0 for its own marks, so they are kept first.
    std::vector<uint8_t> buffer_bits;
    check_records(run, recs, buffer_bits);
    phase::mark("assembly: validation");
    const uint32_t G = s.grid_size();
    const bool plain = !run.launches.empty();
    std::vector<uint32_t> order = records_by_thread(recs);
    // (held by pointer: its tables, a few bytes a record, go once section 3 has read its groups, before the events)
    auto stepper = std::make_unique<Stepper>(recs, order, plain);
    stepper->run();  // each record's step in its pad1
    // Launch k + 1 starts on the step after launch k's last: every step of a launch after every step of the one
    // before, as the launch boundary orders them (an operand from an earlier launch is always on an earlier step). A
    // record's step is its launch's first step plus its own (pad1), added where it is read: no pass over the records.
    std::array<uint32_t, 256> base{};  // by launch (one launch, or the dialect's: all 0)
    if (run.launches.size() > 1) {
        int64_t next = 0;
        for (size_t k = 0; k < run.launches.size(); ++k) {
            base[k] = uint32_t(next);
            next += int64_t(stepper->last_step(uint8_t(k))) + 1;
        }
        if (next - 1 > 65534)
            throw Error("the kernels run more than 65535 steps (a thread's events, one after another, launch after "
                        "launch): shorten their loops, use fewer elements per thread or fewer launches");
    }
    auto step_of = [&base](const StudentRecord& r) { return r.pad1 + base[r.launch]; };
    phase::mark("assembly: steps");

    // ---- 3. one barrier (and __syncwarp) event per warp, line and group ------------------------------
    // Arrivals of one warp at one barrier become one event (thread = the warp's first lane, aux = the lanes
    // that arrived, detail = the source line: two lines at one barrier is a divergent barrier). Arrivals at one
    // `__syncwarp(mask)` become one event too (aux = the mask, thread = the lowest lane that called it, a lane the
    // mask names). A lane that calls it with a mask that leaves out its own bit keeps an event of its own (thread =
    // that lane): the checker finds the breach there (mask-omits-own-lane). The event is the first arrival's record
    // (the lowest index); the others are marked merged (pad0) and make no event.
    {
        struct Head {
            uint32_t line, named, rec, next;  // next: another head of the same warp
        };
        std::vector<Head> heads;
        uint32_t first_of_warp[32];
        const std::vector<uint32_t>& members = stepper->members();
        for (const Stepper::Group& g : stepper->groups()) {
            if (g.kind != EventKind::Barrier && g.kind != EventKind::WarpSync) continue;
            const bool barrier = g.kind == EventKind::Barrier;
            heads.clear();
            std::fill(std::begin(first_of_warp), std::end(first_of_warp), kNoEvent);
            auto head_of = [&](const StudentRecord& r) -> Head* {
                const uint32_t named = barrier ? 0u : r.aux;
                for (uint32_t h = first_of_warp[r.thread / 32u]; h != kNoEvent; h = heads[h].next)
                    if (heads[h].line == r.line && heads[h].named == named) return &heads[h];
                return nullptr;
            };
            const uint32_t* m = members.data() + g.start;
            // The lanes a record stands for: a warp's record (kWarpArrival) its aux, a thread's its own lane. A lane's
            // arrival that a warp's record stands for is a member with no record of its own (skipped).
            auto lanes_of = [](const StudentRecord& r) { return (r.pad0 & kWarpArrival) ? r.aux : 1u << (r.thread % 32u); };
            for (uint32_t k = 0; k < g.ready; ++k) {
                if (Stepper::virtual_member(m[k])) continue;
                StudentRecord& r = recs[m[k]];
                if (!barrier && !(r.aux >> (r.thread % 32u) & 1u)) continue;
                if (Head* h = head_of(r)) {
                    h->rec = std::min(h->rec, m[k]);
                } else {
                    const uint32_t w = r.thread / 32u;
                    heads.push_back({r.line, barrier ? 0u : r.aux, m[k], first_of_warp[w]});
                    first_of_warp[w] = uint32_t(heads.size() - 1);
                }
            }
            for (const Head& h : heads) {
                StudentRecord& head = recs[h.rec];
                head.detail = head.line;
                if (barrier) {
                    head.aux = lanes_of(head);
                    head.thread = uint16_t(head.thread / 32u * 32u);
                }
            }
            for (uint32_t k = 0; k < g.ready; ++k) {
                if (Stepper::virtual_member(m[k])) continue;
                StudentRecord& r = recs[m[k]];
                if (!barrier && !(r.aux >> (r.thread % 32u) & 1u)) {
                    r.detail = r.line;
                    continue;
                }
                // (a head's thread is already its warp's first lane: the same warp, line and mask find it)
                Head* h = head_of(r);
                if (h->rec == m[k]) continue;
                StudentRecord& head = recs[h->rec];
                if (barrier) head.aux |= lanes_of(r);
                else head.thread = std::min(head.thread, r.thread);
                r.pad0 = 1;
            }
        }
    }

    stepper.reset();
    phase::mark("assembly: barrier merge");
    // ---- 4. canonical order: (launch, step, block, thread, seq), every operand before its use (operands always
    // have a smaller step than their user, section 2; atomics' chain links are set later and go the same way, see
    // 5.). A count per (launch, step) over the records in thread order places them; each record's event index goes to
    // its `group` (its group is merged by now). A merged barrier's event took its warp's first lane as its thread,
    // which can put it before events of lanes below its own: such a step is sorted.
    auto merged = [](const StudentRecord& r) { return (r.pad0 & 1) != 0; };
    // (A plain run's launches have steps of their own already: its step alone is the bucket.)
    constexpr size_t kSteps = 65535;
    const size_t kBuckets = plain ? kSteps : 2 * kSteps;
    auto bucket = [&](const StudentRecord& r) { return plain ? size_t(step_of(r)) : size_t(r.launch) * kSteps + step_of(r); };
    std::vector<uint32_t> at(kBuckets + 1, 0);
    bool timed = false;
    for (const StudentRecord& r : recs) {  // (a count needs no order: the records as they lie, one stream)
        if (merged(r)) continue;
        ++at[bucket(r) + 1];
        timed = timed || r.globaltimer_ns != 0;
    }
    for (size_t b = 0; b < kBuckets; ++b) at[b + 1] += at[b];
    const uint32_t events = at[kBuckets];
    {
        auto before = [&](uint32_t a, uint32_t b) {
            const StudentRecord &x = recs[a], &y = recs[b];
            if (x.block != y.block) return x.block < y.block;
            if (x.thread != y.thread) return x.thread < y.thread;
            if (x.seq != y.seq) return x.seq < y.seq;
            return a < b;
        };
        std::vector<uint32_t> fill(at.begin(), at.end() - 1), last(kBuckets, kNoEvent);
        std::vector<uint8_t> unsorted(kBuckets, 0);
        bool any_unsorted = false;
        for (uint32_t i : order) {
            StudentRecord& r = recs[i];
            if (merged(r)) continue;
            const size_t b = bucket(r);
            if (last[b] != kNoEvent && !before(last[b], i)) unsorted[b] = 1, any_unsorted = true;
            last[b] = i;
            r.group = fill[b]++;
        }
        if (any_unsorted) {
            std::vector<std::vector<uint32_t>> lists(kBuckets);
            for (uint32_t i : order)
                if (!merged(recs[i]) && unsorted[bucket(recs[i])]) lists[bucket(recs[i])].push_back(i);
            for (size_t b = 0; b < kBuckets; ++b) {
                if (!unsorted[b]) continue;
                std::sort(lists[b].begin(), lists[b].end(), before);
                for (uint32_t k = 0; k < lists[b].size(); ++k) recs[lists[b][k]].group = at[b] + k;
            }
        }
    }
    order = {};  // (its memory, before the events take theirs)

    Trace t;
    t.schedule = s;
    t.backend = run.backend;
    t.device = run.device;
    t.kernel_file = run.kernel_file;
    t.grid = plain ? run.launches[0].grid : G;
    t.launches = run.launches;
    t.buffer_elements = run.buffer_elements;
    t.finish_threads = s.block;
    t.events.resize(events);
    t.lines.resize(events);
    if (timed) t.times.resize(events);
    uint32_t max_step = 0;
    // Per Atomic event: the value it replaced, and the memory word it updated (the dialect's out slot; a plain run's
    // buffer << 32 | element: an event's 16-bit detail cannot hold every element index).
    struct AtomicOf {
        uint64_t old, slot;
    };
    std::unordered_map<uint32_t, AtomicOf> atomic_of;
    // In record order (a stream through the records; each event lands in its step's run of the trace).
    for (size_t i = 0; i < recs.size(); ++i) {
        const StudentRecord& r = recs[i];
        if (merged(r)) continue;
        const uint32_t k = r.group;
        Event& e = t.events[k];
        e.kind = r.kind;
        e.flags = uint8_t(r.flags & (kUndefined | kStale));
        e.step = uint16_t(step_of(r));
        e.thread = r.thread;
        e.detail = uint16_t(r.detail);
        uint64_t slot = e.detail;
        if (plain) {
            // Every launch's blocks are instances of their own (no kFinisher): block b of launch k is first_block + b.
            e.block = run.launches[r.launch].first_block + r.block;
            const uint32_t buffer = buffer_bits[i] & 7u;
            const uint16_t tag = uint16_t(buffer << kDetailBufferShift);
            switch (r.kind) {
                case EventKind::PartialLoad:
                    e.detail = uint16_t(tag | ((buffer_bits[i] & 8u) ? kDetailOutside : 0) | std::min<uint32_t>(r.detail, 0xfffu));
                    break;
                case EventKind::BlockPartial: e.detail = tag; break;
                case EventKind::Atomic:
                    e.detail = uint16_t(tag | (r.detail & kDetailAtomicElement));
                    slot = uint64_t(buffer) << 32 | r.detail;
                    if (r.detail > kDetailAtomicElement) t.wide_atomic_elements.emplace_back(k, r.detail);
                    break;
                default: break;
            }
        } else {
            e.block = r.launch == 1 ? G : r.block;
            if (r.launch == 1) e.flags |= kFinisher;
        }
        e.aux = r.aux;
        for (int d = 0; d < 2; ++d)
            e.dep[d] = r.dep[d] == kNoEvent || merged(recs[r.dep[d]]) ? kNoEvent : recs[r.dep[d]].group;
        e.value = r.value;
        t.lines[k] = r.line;
        if (timed) t.times[k] = {r.globaltimer_ns, r.clock, r.sm};
        if (r.kind == EventKind::Atomic) atomic_of[k] = {r.atomic_old, slot};
        max_step = std::max<uint32_t>(max_step, e.step);
    }
    std::sort(t.wide_atomic_elements.begin(), t.wide_atomic_elements.end());  // (records come in thread order)
    auto old_bits = [&](uint32_t k) { return atomic_of.at(k).old; };
    buffer_bits = {};
    recs = {};  // the records' memory, before the checker takes its own

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

    phase::mark("assembly: order, events, flags");
    // ---- 5. atomic chains, one per out slot (detail), from the values the atomics replaced ----------------
    // (a plain run: one per buffer and element)
    const uint64_t out0_slot = plain ? uint64_t(kBufferOut) << 32 : 0;
    std::map<uint64_t, std::vector<uint32_t>> atomics_of_slot;
    for (uint32_t k = 0; k < t.events.size(); ++k)
        if (t.events[k].kind == EventKind::Atomic) atomics_of_slot[atomic_of.at(k).slot].push_back(k);
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
            olds.push_back(old_bits(k));
            if (timed) chain.times.push_back(t.times[k]);
        }
        const uint64_t start = plain ? chain_start(chain, olds, run.out_identity) : run.out_identity;
        order_atomics(chain, olds, start);
        for (size_t m = 0; m < list.size(); ++m) {
            Event& e = t.events[list[m]];
            const Event& c = chain.events[m];
            e.flags = c.flags;
            e.aux = c.aux;
            e.dep[0] = c.dep[0] == kNoEvent ? kNoEvent : list[c.dep[0]];
        }
        // A plain run's chain that starts from a value a store left (an earlier launch's partial in out[0]) follows
        // that store: the latest one to the word, before the first atomic, that wrote the start value.
        if (plain && start != run.out_identity) {
            uint32_t first = kNoEvent;
            for (uint32_t k : list)
                if (t.events[k].dep[0] == kNoEvent) first = k;
            uint32_t from = kNoEvent;
            for (uint32_t k = 0; k < t.events.size() && first != kNoEvent; ++k) {
                const Event& e = t.events[k];
                if (e.kind == EventKind::BlockPartial && e.value == start && e.step < t.events[first].step &&
                    (uint64_t(event_buffer(e)) << 32 | e.aux) == slot)
                    from = k;  // events are in step order: the last found is the latest
            }
            if (from != kNoEvent) t.events[first].dep[0] = from;
        }
        if (slot == out0_slot && chain.result_event != kNoEvent) last_atomic_out0 = list[chain.result_event];
    }

    // The atomics' chain links follow the memory system's order, which can run against the steps (block 1's
    // atomic at step 9 first, block 0's at step 7 after it): events move so that every operand comes first. When
    // every operand already comes first, that order is the one the events have (core/event_order.h).
    t.result_event = last_atomic_out0;
    if (first_forward_operand(t) != kNoEvent) order_operands_first(t);
    last_atomic_out0 = t.result_event;
    phase::mark("assembly: atomics, operands first");

    // ---- 6. the result: what last wrote out[0] -------------------------------------------------------------
    // Atomics on out[0] end with the chain's last; otherwise the store to out[0] in the last launch whose value
    // memory holds (the latest such, by step), which becomes the FinalStore.
    const uint8_t last_launch = run.second_launch ? 1 : 0;
    uint32_t writer = last_atomic_out0;
    if (plain) {
        writer = plain_result(t, last_atomic_out0, run.final_out0);
    } else if (writer == kNoEvent) {
        for (uint32_t k = 0; k < t.events.size(); ++k) {
            const Event& e = t.events[k];
            const bool in_last = ((e.flags & kFinisher) != 0) == (last_launch == 1);
            if (e.kind == EventKind::BlockPartial && e.aux == 0 && in_last && e.value == run.final_out0) writer = k;
        }
    }
    if (writer != kNoEvent && t.events[writer].kind == EventKind::BlockPartial) t.events[writer].kind = EventKind::FinalStore;
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
            if (e.kind == EventKind::Ticket && e.aux + 1 == (plain ? t.launches[launch_of_block(t, e.block)].grid : G))
                t.finisher_block = e.block;

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
    if (std::string why = buffers_problem(t); !why.empty()) throw Error("the run's buffers: " + why);
    phase::mark("assembly: result, scopes, inputs");
    fill_reference(t, input);
    phase::mark("reference");
    attach_checked_hazards(t);
    phase::mark("checker");
    return t;
}

}  // namespace rl
