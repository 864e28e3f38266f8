// student/detail_run.cpp — a plan run in parts of blocks, each part assembled and checked by core's assembly, merged
// into one trace that keeps a window of blocks in full and the others as counts (student/detail_run.h).
//
// How the parts join. The engine numbers records in one sequence over the whole run (LaunchRequest::record_base),
// so global memory's last-writer marks stay valid while each part's records live only until the part is assembled.
// A part's operand from an earlier part (a load of a partial an earlier launch stored) is cut before the assembly
// (its undefined/stale bits kept on the record) and joined again in the merge to that store's kept event: every
// global store of every block is kept as an event. Each record carries its number in the run as its timestamp
// (globaltimer_ns = number + 1; the emulator runs blocks one after another, so that is also the order memory saw),
// which the assembly carries into Trace::times: that is how the merge knows each event's record.
// Steps: each launch is stepped on its own (as the whole-run assembly does) and a part's steps are its launch's; the
// launch's first step is the one after the last step of the launch before, over all of its parts.
#include "student/detail_run.h"
#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <unordered_map>
#include "core/checker.h"
#include "core/emulator.h"
#include "core/error.h"
#include "core/event_order.h"
#include "core/input.h"
#include "core/level_of_detail.h"
#include "core/limits.h"
#include "core/student_trace.h"
#include "simt/interpreter.h"
#include "simt/values.h"

namespace rl::student {
namespace {

DType dtype_of(simt::Type t) { return t == simt::Type::F64 ? DType::F64 : t == simt::Type::I32 ? DType::I32 : DType::F32; }

uint64_t scalar_bits(simt::Type t, int64_t v) {
    const uint32_t bytes = simt::type_bytes(t);
    return bytes == 8 ? uint64_t(v) : uint64_t(v) & ((1ull << (8 * bytes)) - 1);
}

// Kinds kept for every block, summarised or not: global memory's events, which later launches, the result and the
// checker's rules across blocks (fences before tickets, stale reads, atomic chains) read.
bool global_kind(EventKind k) { return is_global_memory_kind(k); }

// Findings a block's own events decide: a part's checker finds them as the whole run's would. The others (a wrong
// identity needs the result's cone, stale reads and fences other blocks' stores, atomics the whole chain) are left
// to the checker over the merged trace, which holds every global store.
bool block_local(HazardKind k) {
    switch (k) {
        case HazardKind::MaskNamesInactiveLanes: case HazardKind::ReadFromNonParticipatingLane: case HazardKind::SharedMemoryRace:
        case HazardKind::DivergentBarrier: case HazardKind::ImplicitWarpSync: case HazardKind::SharedSlotNeverWritten:
        case HazardKind::OutOfBoundsRead: case HazardKind::MaskOmitsOwnLane:
            return true;
        default: return false;
    }
}

struct Buffers {
    std::vector<simt::GlobalBuffer> list;
    uint32_t add(const std::string& name, uint64_t bytes, bool identity, DType type, Op op) {
        simt::GlobalBuffer b;
        b.name = name;
        b.size = bytes;
        b.mem.assign(bytes, identity ? kIdentity : kUndefined);
        if (identity) {
            const uint64_t id = simt::identity_of(type, op);
            const uint32_t e = type == DType::F64 ? 8 : 4;
            for (uint64_t i = 0; i + e <= bytes; i += e) {
                std::memcpy(&b.mem.bytes[i], &id, e);
                b.mem.value[i / 4] = id;
            }
        }
        list.push_back(std::move(b));
        return uint32_t(list.size() - 1);
    }
};

class Summariser {
public:
    Summariser(const std::vector<BoundLaunch>& launches, const Schedule& s, const DetailOptions& o, const std::string& file)
        : launches_(launches), s_(s), o_(o), file_(file) {
        uint32_t first = 0;
        for (const BoundLaunch& l : launches) {
            LaunchScope sc;
            sc.kernel = l.planned.kernel;
            sc.grid = l.planned.grid;
            sc.block = l.planned.block;
            sc.shared_bytes = l.planned.shared_bytes;
            sc.first_block = first;
            first += l.planned.grid;
            scopes_.push_back(sc);
        }
        identity_ = simt::identity_of(s.type, s.op);
    }

    // Runs every launch; "" or the kernel's error.
    std::string run(const InputData& input, int& first_op, uint32_t& ops_used, bool stop_at_other_op) {
        const uint32_t bytes_each = s_.type == DType::F64 ? 8 : 4;
        uint32_t largest = 1;
        for (const BoundLaunch& l : launches_) largest = std::max(largest, l.planned.grid);
        const uint32_t in = bufs_.add("in", s_.n * bytes_each, false, s_.type, s_.op);
        const void* bytes = s_.type == DType::F64 ? static_cast<const void*>(input.f64.data())
                            : s_.type == DType::I32 ? static_cast<const void*>(input.i32.data())
                                                    : static_cast<const void*>(input.f32.data());
        const size_t have = s_.type == DType::F64 ? input.f64.size() : s_.type == DType::I32 ? input.i32.size() : input.f32.size();
        if (have >= s_.n && s_.n) {
            std::memcpy(bufs_.list[in].mem.bytes.data(), bytes, s_.n * bytes_each);
            std::fill(bufs_.list[in].mem.flags.begin(), bufs_.list[in].mem.flags.end(), uint8_t(0));
        }
        bufs_.list[in].input = true;
        bufs_.list[in].input_elements = s_.n;
        const uint32_t out = bufs_.add("out", uint64_t(largest) * bytes_each, true, s_.type, s_.op);
        const uint32_t tmp = bufs_.add("tmp", uint64_t(largest) * bytes_each, true, s_.type, s_.op);
        uint64_t base_step = 0;
        for (size_t li = 0; li < launches_.size(); ++li) {
            const BoundLaunch& l = launches_[li];
            simt::LaunchRequest r;
            r.launch = uint8_t(li);
            r.scope = launches_.size() > 1 ? "launch " + std::to_string(li + 1) : "";
            r.grid = l.planned.grid;
            r.block = l.planned.block;
            r.dynamic_shared_bytes = l.planned.shared_bytes;
            r.op = s_.op;
            r.type = s_.type;
            for (size_t a = 0; a < l.planned.args.size(); ++a) {
                const PlanArg& arg = l.planned.args[a];
                simt::Argument x;
                x.kind = simt::ArgKind::Buffer;
                switch (arg.kind) {
                    case PlanArgKind::In: x.buffer = in; break;
                    case PlanArgKind::Out: x.buffer = out; break;
                    case PlanArgKind::Tmp: x.buffer = tmp; break;
                    case PlanArgKind::N: x = {simt::ArgKind::Scalar, scalar_bits(l.kernel->params[a].type, int64_t(s_.n)), 0, 0}; break;
                    case PlanArgKind::Literal: x = {simt::ArgKind::Scalar, scalar_bits(l.kernel->params[a].type, arg.literal), 0, 0}; break;
                    default:
                        throw Error("launch " + std::to_string(li + 1) + ", argument " + std::to_string(a + 1) + " (" + arg.text +
                                    "): a run summarised by level of detail passes in, out, tmp, n or an integer");
                }
                r.args.push_back(x);
            }
            r.buffers = &bufs_.list;
            r.device_variables = &device_variables_;
            int64_t last_step = -1;
            suspicious_kept_ = 0;
            const uint32_t part = std::max<uint32_t>(1, o_.part_blocks);
            for (uint32_t b0 = 0; b0 < r.grid; b0 += part) {
                const uint32_t b1 = uint32_t(std::min<uint64_t>(uint64_t(b0) + part, r.grid));
                if (next_record_ >= 0xf0000000ull) return "the run makes more than 4 billion records: too many for the lab's record numbers";
                r.record_base = uint32_t(next_record_);
                r.merged_before = r.record_base;  // the trace limit counts this part's events: what one part holds
                r.block_begin = b0;
                r.block_end = b1;
                simt::LaunchResult res = simt::run_launch(*l.kernel, r);
                if (first_op < 0) first_op = res.first_op;
                ops_used |= res.ops_used;
                if (!res.error.empty()) return res.error;
                if (stop_at_other_op && first_op >= 0 && op_of(first_op) != s_.op) return {};  // (the caller runs again)
                const uint64_t base = next_record_;
                next_record_ += res.records.size();
                if (std::string why = merge_part(std::move(res.records), base, li, b0, b1, base_step, last_step); !why.empty()) {
                    assembly_failed = true;
                    return why;
                }
            }
            base_step += uint64_t(last_step + 1);
        }
        step_count_ = base_step;
        const simt::GlobalBuffer& o = bufs_.list[out];
        uint64_t bits = 0;
        std::memcpy(&bits, o.mem.bytes.data(), bytes_each);
        final_out0_ = o.mem.hist[0] != kNoEvent ? o.mem.value[0] : bits;
        return {};
    }

    Trace finish(const InputData& input);
    bool assembly_failed = false;

private:
    std::string merge_part(std::vector<StudentRecord> recs, uint64_t base, size_t li, uint32_t b0, uint32_t b1, uint64_t base_step,
                           int64_t& last_step);

    const std::vector<BoundLaunch>& launches_;
    Schedule s_;
    DetailOptions o_;
    std::string file_;
    std::vector<LaunchScope> scopes_;
    uint64_t identity_ = 0;
    Buffers bufs_;
    std::map<std::string, std::vector<uint8_t>> device_variables_;
    uint64_t next_record_ = 0;
    uint64_t step_count_ = 0;
    uint64_t final_out0_ = 0;
    uint32_t suspicious_kept_ = 0;  // blocks of this launch kept in full for a start value that is not the identity
    // The merged trace, its events in part order until finish() sorts them by step.
    std::vector<Event> events_;
    std::vector<uint16_t> lines_;
    std::unordered_map<uint32_t, uint32_t> kept_of_record_;  // a kept global event's record number -> its event
    struct Chain {
        uint32_t last = kNoEvent, count = 0;
    };
    std::map<uint64_t, Chain> chains_;  // per buffer << 32 | element: the atomics kept so far
    std::vector<uint32_t> out0_writers_;  // kept stores and atomics on out[0]
    std::vector<Hazard> part_hazards_;
    uint64_t events_total_ = 0;
    std::vector<SummarisedBlocks> summarised_;
};

std::string Summariser::merge_part(std::vector<StudentRecord> recs, uint64_t base, size_t li, uint32_t b0, uint32_t b1,
                                   uint64_t base_step, int64_t& last_step) {
    // 1. The part's records as a run of their own: operands into earlier parts cut (remembered), each record numbered.
    std::unordered_map<uint32_t, std::array<uint32_t, 2>> external;
    std::unordered_map<uint32_t, uint64_t> atomic_slot;
    for (uint32_t i = 0; i < recs.size(); ++i) {
        StudentRecord& r = recs[i];
        r.globaltimer_ns = base + i + 1;
        for (int k = 0; k < 2; ++k) {
            const uint32_t d = r.dep[k];
            if (d == kNoEvent) continue;
            if (d >= base) {
                r.dep[k] = uint32_t(d - base);
                continue;
            }
            auto [it, fresh] = external.try_emplace(i, std::array<uint32_t, 2>{kNoEvent, kNoEvent});
            it->second[size_t(k)] = d;
            r.dep[k] = kNoEvent;
            if (auto w = kept_of_record_.find(d); w != kept_of_record_.end())
                r.flags |= uint8_t(events_[w->second].flags & (kUndefined | kStale));
        }
        if (r.kind == EventKind::Atomic) atomic_slot[i] = uint64_t((r.pad0 >> 1) & 7u) << 32 | r.detail;
    }
    StudentRun run;
    run.schedule = s_;
    run.backend = Backend::Cpu;
    run.device = "CPU SIMT emulator (plain CUDA)";
    run.kernel_file = file_;
    run.out_identity = identity_;
    run.launches.assign(scopes_.begin(), scopes_.begin() + std::ptrdiff_t(li + 1));
    InputData none;  // the reference is the merged trace's: a part's would cost a pass over the whole input
    none.type = s_.type;
    Trace p;
    try {
        p = trace_from_student_records(run, std::move(recs), none);
    } catch (const Error& e) {
        return std::string("the kernel's records do not make a trace: ") + e.what();
    }
    const uint32_t first = scopes_[li].first_block + b0, grid = scopes_[li].grid;
    // 2. The blocks kept in full: the window, blocks with a finding of their own, and (up to the window's size per
    // launch) blocks that start from a value other than the identity, whose verdict needs the result's cone.
    std::vector<uint8_t> full(b1 - b0, 0);
    for (uint32_t b = b0; b < b1; ++b) full[b - b0] = b < o_.detail_blocks || b + 1 == grid;
    for (const Hazard& h : p.hazards)
        if (block_local(h.kind) && h.block >= first && h.block < first + (b1 - b0)) full[h.block - first] = 1;
    for (const Event& e : p.events)
        if (e.kind == EventKind::IdentityFill && !(e.flags & kUndefined) && e.value != identity_ && !full[e.block - first] &&
            suspicious_kept_ < o_.detail_blocks) {
            full[e.block - first] = 1;
            ++suspicious_kept_;
        }
    // 3. The events: kept (renumbered, operands joined) or counted.
    struct Counts {
        std::array<uint64_t, kEventKindCount> kinds{};
        uint64_t events = 0, kept = 0;
        uint16_t first_step = 0xffff, last_step = 0;
        std::vector<uint16_t> lines;
    };
    std::vector<Counts> counts(b1 - b0);
    // A block with global-memory events keeps its barriers and __syncwarp()s too: the checker orders the block's
    // global accesses before its ticket (or fence and flag) through them (one thread stores and fences, a barrier,
    // another draws the ticket); without them such a store looks unordered and races where the whole run finds nothing.
    std::vector<uint8_t> global_block(b1 - b0, 0);
    for (const Event& e : p.events)
        if (global_kind(e.kind)) global_block[e.block - first] = 1;
    std::vector<uint32_t> at(p.events.size(), kNoEvent);
    std::map<uint64_t, uint32_t> chain_start;  // the atomics a slot had before this part
    events_total_ += p.events.size();
    for (uint32_t k = 0; k < p.events.size(); ++k) {
        Event e = p.events[k];
        const uint32_t b = e.block - first;
        const uint64_t step = base_step + e.step;
        if (step > 65534) return "the kernels run more than 65535 steps (launch after launch): shorten their loops or use fewer launches";
        last_step = std::max<int64_t>(last_step, e.step);
        const bool keep = full[b] || global_kind(e.kind) || (global_block[b] && orders_a_ticket(e.kind));
        if (!full[b]) {
            Counts& c = counts[b];
            ++c.kinds[size_t(e.kind)];
            ++c.events;
            c.kept += keep;
            c.first_step = std::min<uint16_t>(c.first_step, uint16_t(step));
            c.last_step = std::max<uint16_t>(c.last_step, uint16_t(step));
            const uint16_t line = k < p.lines.size() ? p.lines[k] : 0;
            if (std::find(c.lines.begin(), c.lines.end(), line) == c.lines.end()) c.lines.push_back(line);
        }
        if (!keep) continue;
        if (events_.size() >= limits::kTraceEvents)
            return "the detail window keeps more than " + std::to_string(limits::kTraceEvents) +
                   " events (the trace limit, docs/limits.md): use a smaller --detail-blocks";
        const uint32_t to = uint32_t(events_.size());
        at[k] = to;
        const uint32_t rec = uint32_t(p.times[k].globaltimer_ns - 1 - base);
        e.step = uint16_t(step);
        if (e.kind == EventKind::FinalStore) e.kind = EventKind::BlockPartial;  // the result is decided over all parts
        for (int d = 0; d < 2; ++d)
            if (e.dep[d] != kNoEvent) e.dep[d] = at[e.dep[d]];  // kNoEvent: an operand inside a summarised block
        if (auto x = external.find(rec); x != external.end())
            for (int d = 0; d < 2; ++d)
                if (x->second[size_t(d)] != kNoEvent) {
                    auto w = kept_of_record_.find(x->second[size_t(d)]);
                    e.dep[d] = w == kept_of_record_.end() ? kNoEvent : w->second;
                }
        if (e.kind == EventKind::Atomic) {
            const uint64_t slot = atomic_slot.count(rec) ? atomic_slot[rec] : 0;
            Chain& c = chains_[slot];
            const uint32_t start = chain_start.try_emplace(slot, c.count).first->second;
            if (e.dep[0] == kNoEvent && c.last != kNoEvent && start > 0) e.dep[0] = c.last;  // the chain goes on from the last part's
            e.aux += start;
            if (e.aux + 1 >= c.count) {
                c.count = e.aux + 1;
                c.last = to;
            }
            if (slot == uint64_t(kBufferOut) << 32) out0_writers_.push_back(to);
        }
        if (e.kind == EventKind::BlockPartial && event_buffer(e) == kBufferOut && e.aux == 0) out0_writers_.push_back(to);
        if (global_kind(e.kind)) kept_of_record_[uint32_t(base + rec)] = to;
        events_.push_back(e);
        lines_.push_back(k < p.lines.size() ? p.lines[k] : 0);
    }
    for (const Hazard& h : p.hazards) {
        if (!block_local(h.kind) || h.event >= at.size() || at[h.event] == kNoEvent) continue;
        Hazard c = h;
        c.event = at[h.event];
        part_hazards_.push_back(std::move(c));
    }
    // 4. The summarised blocks, joined into ranges of consecutive blocks of this launch.
    for (uint32_t b = b0; b < b1; ++b) {
        if (full[b - b0]) continue;
        Counts& c = counts[b - b0];
        const uint32_t gb = scopes_[li].first_block + b;
        const bool extend = !summarised_.empty() && summarised_.back().first_block + summarised_.back().blocks == gb && b > 0;
        if (!extend) {
            SummarisedBlocks s;
            s.first_block = gb;
            s.first_step = 0xffff;
            summarised_.push_back(s);
        }
        SummarisedBlocks& s = summarised_.back();
        ++s.blocks;
        s.events += c.events;
        s.kept += c.kept;
        for (size_t k = 0; k < kEventKindCount; ++k) s.kinds[k] += c.kinds[k];
        if (c.events) {
            s.first_step = std::min(s.first_step, c.first_step);
            s.last_step = std::max(s.last_step, c.last_step);
        }
        for (uint16_t line : c.lines)
            if (!std::binary_search(s.lines.begin(), s.lines.end(), line)) s.lines.insert(std::upper_bound(s.lines.begin(), s.lines.end(), line), line);
    }
    return {};
}

Trace Summariser::finish(const InputData& input) {
    Trace t;
    t.schedule = s_;
    t.backend = Backend::Cpu;
    t.device = "CPU SIMT emulator (plain CUDA)";
    t.kernel_file = file_;
    t.grid = scopes_[0].grid;
    t.launches = scopes_;
    t.finish_threads = s_.block;
    // Events in step order (a stable sort keeps each step's events in block, thread order: parts come in block order).
    std::vector<uint32_t> order(events_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return events_[a].step < events_[b].step; });
    std::vector<uint32_t> where(order.size());
    for (uint32_t i = 0; i < order.size(); ++i) where[order[i]] = i;
    t.events.resize(order.size());
    t.lines.resize(order.size());
    for (uint32_t i = 0; i < order.size(); ++i) {
        Event e = events_[order[i]];
        for (uint32_t& d : e.dep)
            if (d != kNoEvent) d = where[d];
        t.events[i] = e;
        t.lines[i] = lines_[order[i]];
    }
    events_ = {};
    lines_ = {};
    for (uint32_t& w : out0_writers_) w = where[w];
    for (Hazard& h : part_hazards_) h.event = where[h.event];
    t.step_count = uint16_t(std::min<uint64_t>(step_count_, 0xffff));
    for (SummarisedBlocks& s : summarised_)
        if (s.first_step > s.last_step) s.first_step = s.last_step = 0;
    // The result: the last write of out[0] in the last launch that wrote it, the one whose value memory holds.
    auto later = [&](uint32_t a, uint32_t b) { return b == kNoEvent || std::pair(t.events[a].step, a) > std::pair(t.events[b].step, b); };
    size_t last_launch = 0;
    for (uint32_t w : out0_writers_) last_launch = std::max(last_launch, launch_of_block(t, t.events[w].block));
    uint32_t held = kNoEvent, any = kNoEvent;
    for (uint32_t w : out0_writers_) {
        if (launch_of_block(t, t.events[w].block) != last_launch) continue;
        if (later(w, any)) any = w;
        if (t.events[w].value == final_out0_ && later(w, held)) held = w;
    }
    t.result_event = held != kNoEvent ? held : any;
    t.hazards = std::move(part_hazards_);
    if (first_forward_operand(t) != kNoEvent) order_operands_first(t);  // (atomics' links: renumbers result and hazards)
    std::vector<Hazard> part_hazards = std::move(t.hazards);
    t.hazards.clear();
    // Taint from operands joined across parts, in operand order (what the assembly does within a part).
    for (Event& e : t.events) {
        auto fl = [&](uint32_t d) -> uint8_t { return d == kNoEvent ? 0 : t.events[d].flags; };
        switch (e.kind) {
            case EventKind::Combine: e.flags |= uint8_t(combined_flags(fl(e.dep[0]), fl(e.dep[1])) & kTaintFlags); break;
            case EventKind::Shuffle: case EventKind::SharedLoad: case EventKind::PartialLoad: case EventKind::BlockPartial:
                e.flags |= uint8_t(fl(e.dep[0]) & kTaintFlags);
                break;
            default: break;
        }
    }
    if (t.result_event != kNoEvent) {
        Event& w = t.events[t.result_event];
        if (w.kind == EventKind::BlockPartial) w.kind = EventKind::FinalStore;
        t.result_value = w.value;
        t.result_flags = w.flags;
    } else {
        t.result_value = identity_;  // nothing wrote out[0]: it still holds the identity
        t.result_flags = kIdentity;
    }
    for (const Event& e : t.events)
        if (e.kind == EventKind::Ticket && e.aux + 1 == t.launches[launch_of_block(t, e.block)].grid) t.finisher_block = e.block;
    // Scopes: where shuffles or __syncwarp first happen, then shared memory or barriers, then global results.
    uint16_t firsts[4] = {0, t.step_count, t.step_count, t.step_count};
    for (const Event& e : t.events) {
        int sc = 0;
        switch (e.kind) {
            case EventKind::Shuffle: case EventKind::WarpSync: sc = 1; break;
            case EventKind::SharedStore: case EventKind::SharedLoad: case EventKind::Barrier: sc = 2; break;
            case EventKind::BlockPartial: case EventKind::Atomic: case EventKind::Ticket: case EventKind::PartialLoad:
            case EventKind::FinalStore: case EventKind::Fence: case EventKind::GridSync: sc = 3; break;
            default: break;
        }
        if (sc) firsts[sc] = std::min(firsts[sc], e.step);
    }
    for (int sc = 2; sc >= 1; --sc) firsts[sc] = std::min(firsts[sc], firsts[sc + 1]);
    std::copy(firsts, firsts + 4, t.scope_start);
    if (s_.n <= kTraceInputsLimit) {
        t.inputs.resize(input.size());
        for (size_t i = 0; i < input.size(); ++i) t.inputs[i] = input.value(i);
    }
    fill_reference(t, input);
    attach_checked_hazards(t);
    // Each part's findings of a block's own that the checker over the kept events did not find again (it should: the
    // block is kept in full) are added, so that no block's finding is lost to the merge.
    for (Hazard& h : part_hazards) {
        bool found = false;
        for (const Hazard& x : t.hazards) found = found || (x.kind == h.kind && x.block == h.block);
        if (!found) t.hazards.push_back(std::move(h));
    }
    t.detail.detail_blocks = std::max<uint32_t>(1, o_.detail_blocks);
    t.detail.events_total = events_total_;
    t.detail.summarised = std::move(summarised_);
    return t;
}

}  // namespace

PlanOutcome run_plan_summarised(const simt::Module& module, const std::vector<BoundLaunch>& launches, Schedule schedule,
                                bool op_given, const std::string& file, const DetailOptions& options) {
    (void)module;
    if (launches.empty()) throw Error("the plan has no launch");
    if (options.detail_blocks == 0) throw Error("--detail-blocks 0: the window keeps at least one block of each launch (1 or more)");
    schedule.type = dtype_of(launches[0].kernel->element);
    schedule.items = 1;
    if (op_given && schedule.op != Op::Sum && schedule.op != Op::Max && schedule.op != Op::Min && schedule.op != Op::Prod)
        throw Error("--op " + std::string(to_string(schedule.op)) + ": a run summarised by level of detail runs sum, max, min or prod");
    if (!op_given) schedule.op = Op::Sum;
    schedule.block = launches[0].planned.block;
    schedule.grid = launches[0].planned.grid;
    if (std::string why = validate(schedule); !why.empty()) throw Error(why);
    if (schedule.n > 0x7fffffffull)
        throw Error("--n " + std::to_string(schedule.n) + ": the kernel's n is an int, so at most 2147483647 elements");
    const InputData input = make_input(schedule);
    PlanOutcome outcome;
    for (int attempt = 0; attempt < 2; ++attempt) {
        Summariser run(launches, schedule, options, file);
        int first_op = -1;
        uint32_t ops_used = 0;
        std::string error = run.run(input, first_op, ops_used, !op_given && attempt == 0);
        if (!error.empty()) {
            outcome.error = std::move(error);
            outcome.assembly_failed = run.assembly_failed;
            return outcome;
        }
        // The operator the kernels combine with decides out's and tmp's start: run again with it (stopped at once).
        if (!op_given && attempt == 0 && first_op >= 0 && op_of(first_op) != schedule.op) {
            schedule.op = op_of(first_op);
            continue;
        }
        if (std::string why = operator_mismatch(schedule.op, op_given, ops_used); !why.empty()) throw Error(why);
        outcome.trace = run.finish(input);
        outcome.ok = true;
        return outcome;
    }
    outcome.error = "the kernels' operator changed between two runs of the plan";
    return outcome;
}

uint32_t default_detail_blocks(const std::vector<BoundLaunch>& launches) {
    uint64_t threads = 0;
    for (const BoundLaunch& l : launches) threads += uint64_t(l.planned.grid) * l.planned.block;
    return 8 * threads > limits::kTraceEvents ? 64 : 0;
}

}  // namespace rl::student
