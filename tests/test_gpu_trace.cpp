// tests/test_gpu_trace.cpp — the host side of GPU traces on the CPU: slot records made from emulator
// traces (laid out per thread with empty slots, atomics stripped of their order) come back as the
// same trace; malformed records are refused with rl::Error naming what is wrong.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/event_order.h"
#include "core/gpu_trace.h"
#include "random_schedule.h"
#include "support/gpu_compare.h"

using namespace rl;

namespace {

// Slot records as the kernels leave them: each thread's events in program order in its own run of
// slots (followed by unused ones), atomics carrying only the value they replaced and their operand's
// flags, the atomic each followed and its position left for the host to find.
std::vector<GpuRecord> slots_from(const Trace& emu, uint32_t gap = 2) {
    std::vector<uint32_t> order(emu.events.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        const Event &a = emu.events[x], &b = emu.events[y];
        if (a.block != b.block) return a.block < b.block;
        if (a.thread != b.thread) return a.thread < b.thread;
        return a.step < b.step;
    });
    GpuRecord empty;
    std::memset(&empty, 0xff, sizeof empty);
    std::vector<GpuRecord> slots;
    std::vector<uint32_t> slot_of(emu.events.size());
    for (size_t k = 0; k < order.size(); ++k) {
        const Event& e = emu.events[order[k]];
        if (k > 0) {
            const Event& p = emu.events[order[k - 1]];
            if (p.block != e.block || p.thread != e.thread) slots.insert(slots.end(), gap, empty);
        }
        slot_of[order[k]] = uint32_t(slots.size());
        GpuRecord r{};
        r.event = e;
        r.event.flags &= uint8_t(~kHazard);
        r.globaltimer_ns = 1000 + 10 * e.step;
        r.clock = e.step;
        slots.push_back(r);
    }
    const uint64_t identity = identity_bits(emu.schedule);
    for (size_t i = 0; i < emu.events.size(); ++i) {
        GpuRecord& r = slots[slot_of[i]];
        for (uint32_t& d : r.event.dep)
            if (d != kNoEvent) d = slot_of[d];
        if (r.event.kind != EventKind::Atomic) continue;
        const Event& e = emu.events[i];
        r.atomic_old = e.dep[0] == kNoEvent ? identity : emu.events[e.dep[0]].value;
        r.globaltimer_ns = 1000 + 10 * e.aux;  // the clocks saw them in the order they happened
        r.event.dep[0] = kNoEvent;
        r.event.aux = 0;
        const uint8_t operand = e.dep[1] == kNoEvent ? uint8_t(0) : emu.events[e.dep[1]].flags;
        r.event.flags = uint8_t((operand & ~kHazard) | (e.flags & kFinisher));
    }
    return slots;
}

GpuLaunchShape shape_of(const Trace& emu) {
    GpuLaunchShape shape;
    shape.grid = emu.grid;
    std::copy(emu.scope_start, emu.scope_start + 4, shape.scope_start);
    shape.identity_bits = identity_bits(emu.schedule);
    return shape;
}

Trace convert(const Trace& emu, const std::vector<GpuRecord>& records) {
    return trace_from_gpu_records(emu.schedule, shape_of(emu), records.data(), records.size(), make_input(emu.schedule));
}


Schedule sched(uint64_t n, uint32_t block, GridStage stage, uint32_t items = 1) {
    Schedule s;
    s.n = n;
    s.block = block;
    s.items = items;
    s.grid_stage = stage;
    s.input.kind = InputKind::Uniform;
    REQUIRE(validate(s) == "");
    return s;
}

std::string refusal(const Trace& emu, const std::vector<GpuRecord>& records) {
    try {
        convert(emu, records);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

size_t first_of(const std::vector<GpuRecord>& r, EventKind k, size_t from = 0) {
    for (size_t i = from; i < r.size(); ++i)
        if (r[i].event.kind == k) return i;
    FAIL("no " << to_string(k) << " record");
    return 0;
}

}  // namespace

TEST_CASE("GPU records: compaction keeps the used slots in order and renumbers their operands") {
    Trace emu = emulate(sched(40, 8, GridStage::TwoPass));
    std::vector<GpuRecord> slots = slots_from(emu, 3);
    std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
    REQUIRE(rec.size() == emu.events.size());
    size_t k = 0;
    for (const GpuRecord& s : slots) {
        if (!slot_used(s)) continue;
        CHECK(s.event.kind == rec[k].event.kind);
        CHECK(s.event.value == rec[k].event.value);
        for (int d = 0; d < 2; ++d) {
            if (s.event.dep[d] == kNoEvent) {
                CHECK(rec[k].event.dep[d] == kNoEvent);
            } else {
                REQUIRE(rec[k].event.dep[d] < rec.size());
                CHECK(std::memcmp(&rec[rec[k].event.dep[d]].event, &slots[s.event.dep[d]].event, 16) == 0);
            }
        }
        ++k;
    }
}

TEST_CASE("GPU records: an operand naming an empty slot or one past the buffer is refused") {
    Trace emu = emulate(sched(40, 8, GridStage::TwoPass));
    std::vector<GpuRecord> slots = slots_from(emu, 2);
    size_t c = first_of(slots, EventKind::Combine);
    size_t empty = 0;
    while (slot_used(slots[empty])) ++empty;
    slots[c].event.dep[0] = uint32_t(empty);
    std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
    CHECK(refusal(emu, rec).find("never wrote") != std::string::npos);
    slots[c].event.dep[0] = uint32_t(slots.size() + 5);
    rec = compact_slots(slots.data(), slots.size());
    CHECK(refusal(emu, rec).find("never wrote") != std::string::npos);
}

TEST_CASE("GPU records of every grid stage become the emulator's trace again, event for event") {
    for (GridStage g : {GridStage::TwoPass, GridStage::AtomicBlock, GridStage::AtomicElement, GridStage::LastBlock,
                        GridStage::Cooperative}) {
        for (auto [n, block] : {std::pair<uint64_t, uint32_t>{1, 1}, {40, 8}, {1000, 64}, {77, 40}}) {
            Schedule s = sched(n, block, g, 2);
            INFO(describe(s));
            Trace emu = emulate(s);
            std::vector<GpuRecord> slots = slots_from(emu);
            std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
            Trace gpu = convert(emu, rec);
            CHECK(test::first_difference(gpu, emu) == "");
            CHECK(gpu.result_value == emu.result_value);
            CHECK(gpu.result_flags == (emu.result_flags & ~kHazard));
            CHECK(gpu.reference_value == emu.reference_value);
            CHECK(gpu.finisher_block == emu.finisher_block);
            CHECK(gpu.step_count == emu.step_count);
            CHECK(gpu.backend == Backend::Cuda);
            CHECK(gpu.times.size() == gpu.events.size());
        }
    }
}

TEST_CASE("GPU records: 200 random schedules round-trip, and the hardware's orders are found again") {
    std::mt19937_64 rng(20261201);
    int atomics_reordered = 0, last_block = 0;
    size_t lanes_forward = 0;
    for (int i = 0; i < 200; ++i) {
        Schedule s = testing::random_schedule(rng, 3000);
        INFO("schedule " << i << ": " << describe(s));
        Trace first = emulate(s);
        // an order of the atomics and tickets other than the emulator's own, as a GPU would pick
        EmulatorOptions opt;
        opt.atomic_positions = atomic_positions_of(first);
        std::shuffle(opt.atomic_positions.begin(), opt.atomic_positions.end(), rng);
        opt.tickets = tickets_of(first);
        std::shuffle(opt.tickets.begin(), opt.tickets.end(), rng);
        Trace emu = emulate(s, make_input(s), opt);
        std::vector<GpuRecord> slots = slots_from(emu, uint32_t(rng() % 3));
        std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
        Trace gpu = convert(emu, rec);
        REQUIRE(test::first_difference(gpu, emu) == "");
        // Records in lane order name later slots (a shuffle's source lane, an atomic's operand): the trace does not.
        for (size_t k = 0; k < rec.size(); ++k)
            for (uint32_t d : rec[k].event.dep) lanes_forward += d != kNoEvent && d > k;
        CHECK(first_forward_operand(gpu) == kNoEvent);
        for (uint32_t k = 0; k < gpu.events.size(); ++k) {  // each timestamp still beside its event
            const Event& e = gpu.events[k];
            CHECK(gpu.times[k].globaltimer_ns == 1000 + 10 * (e.kind == EventKind::Atomic ? e.aux : e.step));
        }
        if (gpu.result_event != kNoEvent) CHECK(gpu.events[gpu.result_event].value == gpu.result_value);
        CHECK(gpu.result_value == emu.result_value);
        CHECK(atomic_positions_of(gpu) == opt.atomic_positions);
        CHECK(tickets_of(gpu) == opt.tickets);
        atomics_reordered += opt.atomic_positions.size() > 1 && !std::is_sorted(opt.atomic_positions.begin(), opt.atomic_positions.end());
        last_block += !opt.tickets.empty();
    }
    MESSAGE("atomics out of block order: " << atomics_reordered << ", last-block tickets: " << last_block);
    CHECK(atomics_reordered > 10);
    CHECK(last_block > 10);
    CHECK(lanes_forward > 1000);
}

TEST_CASE("GPU records: the atomic order survives recurring values (x + a - a)") {
    Schedule s = sched(6, 1, GridStage::AtomicElement);
    s.type = DType::I32;
    s.input.kind = InputKind::Values;
    s.input.values = {5, -5, 5, -5, 3, 0};
    REQUIRE(validate(s) == "");
    Trace emu = emulate(s);
    std::vector<GpuRecord> rec = slots_from(emu, 0);
    Trace gpu = convert(emu, rec);
    CHECK(test::first_difference(gpu, emu) == "");
    CHECK(numeric_value(s.op, s.type, gpu.result_value) == 3.0);
}

TEST_CASE("GPU records: malformed records are refused with a reason") {
    Trace two = emulate(sched(200, 32, GridStage::TwoPass));
    const std::vector<GpuRecord> two_slots = slots_from(two);
    const std::vector<GpuRecord> good = compact_slots(two_slots.data(), two_slots.size());
    REQUIRE(refusal(two, good) == "");
    auto mutated = [&](auto&& change) {
        std::vector<GpuRecord> r = good;
        change(r);
        return refusal(two, r);
    };
    CHECK(mutated([](auto& r) { r[3].event.kind = EventKind(40); }).find("event kind 40") != std::string::npos);
    CHECK(mutated([](auto& r) { r[3].event.kind = EventKind(kEmptySlot); }).find("event kind 255") != std::string::npos);
    CHECK(mutated([&](auto& r) { r[0].event.block = two.grid + 3; }).find("outside the grid") != std::string::npos);
    CHECK(mutated([&](auto& r) { r[0].event.block = two.grid; r[0].event.flags &= ~kFinisher; }).find("outside the grid") != std::string::npos);
    CHECK(mutated([](auto& r) { r[0].event.thread = 32; }).find("outside a block of 32") != std::string::npos);
    CHECK(mutated([&](auto& r) { r[first_of(r, EventKind::Combine)].event.dep[1] = uint32_t(r.size()); }).find("out of range") != std::string::npos);
    CHECK(mutated([&](auto& r) {
        size_t c = first_of(r, EventKind::Combine);
        r[c].event.dep[1] = uint32_t(c);
    }).find("its own operand") != std::string::npos);
    CHECK(mutated([&](auto& r) {  // the first load reads the final store, many steps later
        size_t l = first_of(r, EventKind::Load);
        r[l].event.dep[0] = uint32_t(first_of(r, EventKind::FinalStore));
    }).find("points forward") != std::string::npos);
    CHECK(mutated([&](auto& r) {  // a thread's first combine reads that thread's next combine
        size_t c = first_of(r, EventKind::Combine), later = first_of(r, EventKind::Combine, c + 1);
        REQUIRE(r[later].event.thread == r[c].event.thread);
        r[c].event.dep[0] = uint32_t(later);
    }).find("later event of its own thread") != std::string::npos);
    CHECK(mutated([&](auto& r) { r[first_of(r, EventKind::Load)].event.kind = EventKind::FinalStore; })
              .find("2 final stores") != std::string::npos);

    Trace atom = emulate(sched(300, 32, GridStage::AtomicBlock));
    const std::vector<GpuRecord> atoms = slots_from(atom, 0);
    REQUIRE(refusal(atom, atoms) == "");
    std::vector<GpuRecord> r = atoms;
    r[first_of(r, EventKind::Atomic)].atomic_old ^= 0x100;  // a replaced value no atomic left
    CHECK(refusal(atom, r).find("do not form one chain") != std::string::npos);
    r = atoms;
    r[first_of(r, EventKind::Atomic)].event.value ^= 0x100;  // a left value no atomic replaced
    CHECK(refusal(atom, r).find("do not form one chain") != std::string::npos);
    r = atoms;
    r[first_of(r, EventKind::Atomic)].event.dep[0] = 0;
    CHECK(refusal(atom, r).find("already set") != std::string::npos);
    r = atoms;
    r[first_of(r, EventKind::Atomic)].event.kind = EventKind::FinalStore;
    CHECK(refusal(atom, r).find("final store under an atomic") != std::string::npos);

    Trace last = emulate(sched(500, 32, GridStage::LastBlock));
    REQUIRE(last.grid >= 3);
    const std::vector<GpuRecord> lasts = slots_from(last, 1);
    const std::vector<GpuRecord> lc = compact_slots(lasts.data(), lasts.size());
    REQUIRE(refusal(last, lc) == "");
    r = lc;
    {
        size_t t0 = first_of(r, EventKind::Ticket), t1 = first_of(r, EventKind::Ticket, t0 + 1);
        r[t1].event.aux = r[t0].event.aux;
    }
    CHECK(refusal(last, r).find("drawn twice") != std::string::npos);
    r = lc;
    r[first_of(r, EventKind::Ticket)].event.aux = last.grid;
    CHECK(refusal(last, r).find("out of range") != std::string::npos);
    r = lc;
    {
        size_t t0 = first_of(r, EventKind::Ticket), t1 = first_of(r, EventKind::Ticket, t0 + 1);
        r[t1].event.block = r[t0].event.block;
    }
    CHECK(refusal(last, r).find("second ticket") != std::string::npos);
    r = lc;
    {  // the finishing stage in a block that did not draw the last ticket
        size_t t_last = r.size(), t_other = r.size();
        for (size_t i = 0; i < r.size(); ++i)
            if (r[i].event.kind == EventKind::Ticket) (r[i].event.aux == last.grid - 1 ? t_last : t_other) = i;
        REQUIRE(t_last < r.size());
        REQUIRE(t_other < r.size());
        std::swap(r[t_last].event.aux, r[t_other].event.aux);
    }
    CHECK(refusal(last, r).find("not in block") != std::string::npos);
    r = good;
    r[first_of(r, EventKind::BlockPartial)].event.kind = EventKind::Ticket;
    CHECK(refusal(two, r).find("ticket outside the last-block") != std::string::npos);
}

TEST_CASE("GPU records of each bug's trace round-trip too (undefined reads, missing fences, skipped shuffles)") {
    struct Row {
        Bug bug;
        Schedule s;
    };
    Schedule last = sched(500, 32, GridStage::LastBlock);
    Schedule witness = sched(64, 8, GridStage::TwoPass, 4);
    witness.op = Op::Witness;
    Schedule max_atomic = sched(30, 32, GridStage::AtomicBlock);
    max_atomic.op = Op::Max;
    Schedule smem = sched(64, 64, GridStage::TwoPass);
    smem.warp = WarpStage::SmemSequential;
    for (Row row : {Row{Bug::FullMaskPartialWarp, sched(40, 40, GridStage::TwoPass)},
                    Row{Bug::UnboundedSource, sched(40, 40, GridStage::TwoPass)},
                    Row{Bug::UninitTail, sched(30, 32, GridStage::TwoPass)},
                    Row{Bug::WrongIdentity, max_atomic},
                    Row{Bug::MissingBarrier, sched(256, 128, GridStage::TwoPass)},
                    Row{Bug::GridStrideOrder, witness}, Row{Bug::DescendingOrder, witness},
                    Row{Bug::AtomicPerElement, sched(100, 32, GridStage::TwoPass)},
                    Row{Bug::VolatileUnroll, smem}, Row{Bug::DivergentShuffle, sched(40, 64, GridStage::TwoPass)},
                    Row{Bug::MissingThreadfence, last}}) {
        row.s.bugs = uint16_t(row.bug);
        REQUIRE(validate(row.s) == "");
        INFO(describe(row.s));
        Trace emu = emulate(row.s);
        std::vector<GpuRecord> slots = slots_from(emu);
        std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
        Trace gpu = convert(emu, rec);
        CHECK(test::first_difference(gpu, emu) == "");
        CHECK(gpu.result_value == emu.result_value);
    }
}

TEST_CASE("GPU records: a load that names no store is unwritten memory, whatever tag bits the device read") {
    // missing-barrier: warp 0's lanes 1-3 load partial slots no store reached yet; missing-threadfence: the
    // last block loads a partial whose store it does not see. The device's tag bits beside the value are
    // cleared here; the host derives the loads' undefined (and stale) flags from the records alone.
    Schedule race = sched(128, 128, GridStage::TwoPass);
    race.bugs = uint16_t(Bug::MissingBarrier);
    Schedule fence = sched(256, 64, GridStage::LastBlock);
    fence.bugs = uint16_t(Bug::MissingThreadfence);
    for (const Schedule& s : {race, fence}) {
        REQUIRE(validate(s) == "");
        INFO(describe(s));
        const Trace emu = emulate(s);
        std::vector<GpuRecord> slots = slots_from(emu);
        size_t unstored = 0;
        for (GpuRecord& r : slots) {
            const bool load = r.event.kind == EventKind::SharedLoad || r.event.kind == EventKind::PartialLoad;
            if (!load || r.event.dep[0] != kNoEvent) continue;
            r.event.flags &= uint8_t(~(kUndefined | kStale));
            ++unstored;
        }
        CHECK(unstored > 0);
        std::vector<GpuRecord> rec = compact_slots(slots.data(), slots.size());
        const Trace gpu = convert(emu, rec);
        size_t derived = 0;
        for (const Event& e : gpu.events)
            if ((e.kind == EventKind::SharedLoad || e.kind == EventKind::PartialLoad) && e.dep[0] == kNoEvent) {
                CHECK((e.flags & (kUndefined | kStale)) == (kUndefined | kStale));
                ++derived;
            }
        CHECK(derived == unstored);
    }
}
