// core/gpu_trace.cpp — GPU slot records into a checked Trace: compaction, validation, the atomics'
// order, tickets and the result (moved here from cuda/ so it runs, and is tested, without a GPU).
//
// Sections: 1. compaction   2. what a correct recorder guarantees   3. atomic order   4. conversion
#include "core/gpu_trace.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/analysis.h"
#include "core/emulator.h"  // fill_reference, identity_bits
#include "core/error.h"
#include "core/event_order.h"
#include "core/ops.h"

namespace rl {
namespace {

std::string at(size_t i) { return "GPU record " + std::to_string(i) + ": "; }

// ---- 2. what a correct recorder guarantees -------------------------------------------------------
bool atomic_stage(const Schedule& s) {
    const GridStage g = s.effective_grid_stage();
    return g == GridStage::AtomicBlock || g == GridStage::AtomicElement;
}

// Each record on its own: a known kind, a block and thread of the launch, operands that name
// recorded events that came before: in the same thread, an earlier record (each thread's slots are
// in program order); in another thread, one at the same or an earlier step (steps are the program's
// logical time), except that a shared-memory load may see a store the program orders later (a race).
void check_record(const Schedule& s, const GpuLaunchShape& shape, const GpuRecord* r, size_t count, size_t i) {
    const Event& e = r[i].event;
    if (uint8_t(e.kind) >= kEventKindCount)
        throw Error(at(i) + "event kind " + std::to_string(int(uint8_t(e.kind))) + " is not one of the " +
                    std::to_string(kEventKindCount) + " kinds (0.." + std::to_string(kEventKindCount - 1) + ")");
    const bool second_pass = s.effective_grid_stage() == GridStage::TwoPass && shape.grid > 1 && (e.flags & kFinisher);
    if (e.block > shape.grid || (e.block == shape.grid && !second_pass))
        throw Error(at(i) + "block " + std::to_string(e.block) + " is outside the grid of " + std::to_string(shape.grid) +
                    " blocks (only two-pass's second launch is block " + std::to_string(shape.grid) + ")");
    if (e.thread >= s.block)
        throw Error(at(i) + "thread " + std::to_string(e.thread) + " is outside a block of " + std::to_string(s.block) +
                    " threads");
    for (uint32_t d : e.dep) {
        if (d == kNoEvent) continue;
        if (d == kBadDep) throw Error(at(i) + "an operand names a slot the kernel never wrote");
        if (d >= count)
            throw Error(at(i) + "operand " + std::to_string(d) + " is out of range (" + std::to_string(count) + " records)");
        if (d == i) throw Error(at(i) + "the event is its own operand");
        const Event& o = r[d].event;
        if (o.block == e.block && o.thread == e.thread) {
            if (d > i)
                throw Error(at(i) + "operand " + std::to_string(d) + " points forward, to a later event of its own thread");
        } else if (o.step > e.step && e.kind != EventKind::SharedLoad) {
            throw Error(at(i) + "operand " + std::to_string(d) + " points forward, to step " + std::to_string(o.step) +
                        " after its own step " + std::to_string(e.step));
        }
    }
    if (e.kind == EventKind::Atomic && e.dep[0] != kNoEvent)
        throw Error(at(i) + "an atomic arrived with the atomic it followed already set (the host finds that order)");
}

// The records together: one final store or atomics by the grid stage; under last-block one ticket
// per block, every ticket drawn once, and the finishing stage run by the block that drew the last.
void check_whole(const Schedule& s, const GpuLaunchShape& shape, const GpuRecord* r, size_t count) {
    size_t finals = 0, atomics = 0;
    std::vector<int64_t> ticket_of(shape.grid, -1), block_of(shape.grid, -1);
    uint32_t finisher = kNoEvent;
    const bool last_block = s.effective_grid_stage() == GridStage::LastBlock && shape.grid > 1;
    for (size_t i = 0; i < count; ++i) {
        const Event& e = r[i].event;
        finals += e.kind == EventKind::FinalStore;
        atomics += e.kind == EventKind::Atomic;
        if ((e.flags & kFinisher) && finisher == kNoEvent) finisher = e.block;
        if (e.kind != EventKind::Ticket) continue;
        if (!last_block) throw Error(at(i) + "a ticket outside the last-block grid stage");
        if (e.aux >= shape.grid)
            throw Error(at(i) + "ticket " + std::to_string(e.aux) + " is out of range (" + std::to_string(shape.grid) +
                        " blocks draw tickets 0.." + std::to_string(shape.grid - 1) + ")");
        if (ticket_of[e.block] >= 0) throw Error(at(i) + "block " + std::to_string(e.block) + " drew a second ticket");
        if (block_of[e.aux] >= 0)
            throw Error(at(i) + "ticket " + std::to_string(e.aux) + " was drawn twice (blocks " +
                        std::to_string(block_of[e.aux]) + " and " + std::to_string(e.block) + ")");
        ticket_of[e.block] = e.aux;
        block_of[e.aux] = e.block;
    }
    if (atomic_stage(s)) {
        if (finals) throw Error("GPU records: a final store under an atomic grid stage");
        if (!atomics && s.n > 0) throw Error("GPU records: an atomic grid stage without atomics");
    } else {
        if (finals != 1) throw Error("GPU records: " + std::to_string(finals) + " final stores, expected exactly one");
        if (atomics) throw Error("GPU records: atomics under the " + std::string(to_string(s.effective_grid_stage())) + " grid stage");
    }
    if (last_block) {
        for (uint32_t b = 0; b < shape.grid; ++b)
            if (ticket_of[b] < 0) throw Error("GPU records: block " + std::to_string(b) + " drew no ticket");
        if (finisher != uint32_t(block_of[shape.grid - 1]))
            throw Error("GPU records: the finishing stage ran in block " + std::to_string(finisher) +
                        ", not in block " + std::to_string(block_of[shape.grid - 1]) + " that drew the last ticket");
    }
}

}  // namespace

// ---- 1. compaction -------------------------------------------------------------------------------
std::vector<GpuRecord> compact_slots(const GpuRecord* slots, size_t count) {
    std::vector<uint32_t> index(count);
    uint64_t used = 0;
    for (size_t i = 0; i < count; ++i) {
        index[i] = uint32_t(used);
        used += slot_used(slots[i]);
    }
    if (used >= kBadDep) throw Error("GPU records: " + std::to_string(used) + " events, more than a trace can number");
    std::vector<GpuRecord> out;
    out.reserve(used);
    for (size_t i = 0; i < count; ++i) {
        if (!slot_used(slots[i])) continue;
        GpuRecord r = slots[i];
        for (uint32_t& d : r.event.dep) d = compacted_dep(d, slots, count, index.data());
        out.push_back(r);
    }
    return out;
}

// ---- 3. atomic order from replaced values ------------------------------------------------------------
// Each atomic returned the value it replaced, so it is an edge from the value it replaced to the
// value it left; the hardware's order is a walk from the output's initial value that uses every
// edge once: an Eulerian trail, found by Hierholzer's algorithm in linear time. A value can recur
// (x + a - a), so several trails may fit; they leave the same values at every atomic, and edges
// are taken in timestamp order (an atomic that left the value unchanged first) to stay close to
// what the clocks saw. A trail that does not use every edge means the values are inconsistent.
void order_atomics(Trace& t, const std::vector<uint64_t>& old_bits, uint64_t initial) {
    const Schedule& s = t.schedule;
    const bool wide = s.type == DType::F64 || s.op == Op::ArgMax || s.op == Op::SumCount || s.op == Op::Witness;
    const uint64_t mask = wide ? ~0ull : 0xffffffffull;
    std::vector<uint32_t> atomics;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Atomic) atomics.push_back(i);
    if (atomics.empty()) return;
    if (old_bits.size() != t.events.size() || (!t.times.empty() && t.times.size() != t.events.size()))
        throw Error("GPU records: replaced values or timestamps are not one per event");
    std::map<uint64_t, std::vector<uint32_t>> by_old;  // out-edges of each value, in preference order
    if (!t.times.empty())
        std::stable_sort(atomics.begin(), atomics.end(), [&](uint32_t a, uint32_t b) {
            return t.times[a].globaltimer_ns < t.times[b].globaltimer_ns;
        });
    for (uint32_t i : atomics) by_old[old_bits[i] & mask].push_back(i);
    for (auto& [key, list] : by_old) {
        const uint64_t old = key;  // a copy: clang 14 (the sanitizer build) cannot capture a structured binding
        std::stable_partition(list.begin(), list.end(), [&](uint32_t i) { return (t.events[i].value & mask) == old; });
    }

    std::map<uint64_t, size_t> next_edge;
    std::vector<std::pair<uint64_t, uint32_t>> path{{initial & mask, kNoEvent}};  // (value, edge that reached it)
    std::vector<uint32_t> order;
    while (!path.empty()) {
        const uint64_t v = path.back().first;
        auto it = by_old.find(v);
        size_t& k = next_edge[v];
        if (it != by_old.end() && k < it->second.size()) {
            const uint32_t e = it->second[k++];
            path.push_back({t.events[e].value & mask, e});
        } else {
            if (path.back().second != kNoEvent) order.push_back(path.back().second);
            path.pop_back();
        }
    }
    std::reverse(order.begin(), order.end());
    bool chained = order.size() == atomics.size();
    uint64_t state = initial & mask;
    for (uint32_t i : order) {
        chained = chained && (old_bits[i] & mask) == state;
        state = t.events[i].value & mask;
    }
    if (!chained)
        throw Error("the GPU's atomic order could not be reconstructed: the values the atomics replaced do not form one chain");
    uint32_t prev = kNoEvent;
    uint8_t mem_fl = kIdentity;
    for (uint32_t pos = 0; pos < order.size(); ++pos) {
        Event& e = t.events[order[pos]];
        const uint8_t ofl = e.flags;
        uint8_t fl = combined_flags(mem_fl, ofl);
        if (s.op == Op::Witness && WitnessOp::violated(unpack_value<WitnessValue>(e.value))) fl |= kOrderViolated;
        e.flags = uint8_t((ofl & kFinisher) | fl);
        e.dep[0] = prev;
        e.aux = pos;
        prev = order[pos];
        mem_fl = fl;
    }
    t.result_event = prev;
}

// ---- 4. conversion ------------------------------------------------------------------------------------
Trace trace_from_gpu_records(const Schedule& s, const GpuLaunchShape& shape, const GpuRecord* records, size_t count,
                             const InputData& input) {
    if (count >= kBadDep) throw Error("GPU records: " + std::to_string(count) + " events, more than a trace can number");
    for (size_t i = 0; i < count; ++i) check_record(s, shape, records, count, i);
    check_whole(s, shape, records, count);
    Trace t;
    t.schedule = s;
    t.backend = Backend::Cuda;
    t.grid = shape.grid;
    t.events.resize(count);
    t.times.resize(count);
    std::vector<uint64_t> old_bits(count);
    uint32_t max_step = 0;
    for (size_t i = 0; i < count; ++i) {
        const GpuRecord& r = records[i];
        t.events[i] = r.event;
        // A load that names no store read what the slot held before any store reached it: unwritten memory,
        // whatever tag bits the device read beside the value.
        if ((r.event.kind == EventKind::SharedLoad || r.event.kind == EventKind::PartialLoad) && r.event.dep[0] == kNoEvent)
            t.events[i].flags |= kUnwrittenMemory;
        t.times[i] = {r.globaltimer_ns, r.clock, r.sm};
        old_bits[i] = r.atomic_old;
        max_step = std::max<uint32_t>(max_step, r.event.step);
        if (r.event.kind == EventKind::FinalStore) t.result_event = uint32_t(i);
    }
    order_atomics(t, old_bits, shape.identity_bits);
    t.step_count = uint16_t(count ? max_step + 1 : 0);
    std::copy(shape.scope_start, shape.scope_start + 4, t.scope_start);
    for (const Event& e : t.events)
        if (e.flags & kFinisher) {
            t.finisher_block = e.block;
            break;
        }
    if (t.result_event != kNoEvent) {
        t.result_value = t.events[t.result_event].value;
        t.result_flags = t.events[t.result_event].flags;
    }
    if (s.n <= kTraceInputsLimit) {
        t.inputs.resize(input.size());
        for (size_t i = 0; i < input.size(); ++i) t.inputs[i] = input.value(i);
    }
    // Slots are in lane order: a shuffle can name a later lane's slot, an atomic the one after it in
    // hardware. Renumbered so every operand points to an earlier event, as trace files require.
    order_operands_first(t);
    fill_reference(t, input);
    return t;
}

std::vector<uint32_t> atomic_positions_of(const Trace& gpu) {
    // The emulator lists atomics in its emission order: block, then step, then thread — the
    // canonical order.
    std::vector<uint32_t> out;
    for (const Event& e : canonical_events(gpu))
        if (e.kind == EventKind::Atomic) out.push_back(e.aux);
    return out;
}

std::vector<uint32_t> tickets_of(const Trace& gpu) {
    std::vector<uint32_t> out;
    for (const Event& e : gpu.events)
        if (e.kind == EventKind::Ticket) {
            if (out.size() <= e.block) out.resize(e.block + 1, 0);
            out[e.block] = e.aux;
        }
    return out;
}

}  // namespace rl
