// tests/test_student_trace.cpp — records of a student's kernel into a Trace: steps, barriers, order, result.
// The records are written here by hand, as a recorder following core/student_record.h would write them.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "core/input.h"
#include "core/ops.h"
#include "core/student_trace.h"

namespace rl {
namespace {

uint64_t f32(float v) { return pack_value(v); }

// Appends records thread by thread with their program-order positions and sync-group counters.
struct Recorder {
    std::vector<StudentRecord> recs;
    std::map<std::tuple<int, uint32_t, uint32_t>, uint32_t> seq, shuffles, barriers;

    uint32_t add(StudentRecord r) {
        const auto key = std::tuple(int(r.launch), r.block, uint32_t(r.thread));
        r.seq = seq[key]++;
        if (r.kind == EventKind::Shuffle) r.group = shuffles[key]++;
        if (r.kind == EventKind::Barrier) r.group = barriers[key]++;
        recs.push_back(r);
        return uint32_t(recs.size() - 1);
    }
    uint32_t load(uint32_t block, uint32_t thread, uint32_t element, float v, uint8_t flags = 0) {
        StudentRecord r;
        r.kind = EventKind::Load, r.block = block, r.thread = uint16_t(thread), r.aux = element, r.value = f32(v), r.flags = flags;
        return add(r);
    }
    uint32_t combine(uint32_t block, uint32_t thread, uint32_t a, uint32_t b) {
        StudentRecord r;
        r.kind = EventKind::Combine, r.block = block, r.thread = uint16_t(thread), r.dep[0] = a, r.dep[1] = b;
        r.value = f32(unpack_value<float>(recs[a].value) + unpack_value<float>(recs[b].value));
        return add(r);
    }
    uint32_t simple(EventKind k, uint32_t block, uint32_t thread, uint32_t dep = kNoEvent, uint32_t aux = 0, uint16_t line = 0) {
        StudentRecord r;
        r.kind = k, r.block = block, r.thread = uint16_t(thread), r.dep[0] = dep, r.aux = aux, r.line = line;
        if (dep != kNoEvent) r.value = recs[dep].value;
        return add(r);
    }
};

StudentRun run_of(uint64_t n, uint32_t block, uint32_t grid, float final_out0, bool second = false) {
    StudentRun run;
    run.schedule.n = n;
    run.schedule.block = block;
    run.schedule.grid = grid;
    run.schedule.input.kind = InputKind::Iota;
    run.kernel_file = "test.cu";
    run.out_identity = f32(0.0f);
    run.final_out0 = f32(final_out0);
    run.second_launch = second;
    return run;
}

void check_operands_first(const Trace& t) {
    for (uint32_t i = 0; i < t.events.size(); ++i)
        for (uint32_t d : t.events[i].dep)
            if (d != kNoEvent) REQUIRE(d < i);
}

bool has(const Trace& t, HazardKind k) {
    for (const Hazard& h : t.hazards)
        if (h.kind == k) return true;
    return false;
}

// One warp of 32 sums 1..32 with shfl_down 16, 8, 4, 2, 1 (every lane combines, as `v += __shfl_down_sync`).
Recorder warp_sum(uint32_t block = 0) {
    Recorder r;
    std::vector<uint32_t> v(32);
    for (uint32_t l = 0; l < 32; ++l) v[l] = r.load(block, l, 32 * block + l, float(32 * block + l + 1));
    for (uint32_t off = 16; off > 0; off /= 2) {
        std::vector<uint32_t> got(32);
        for (uint32_t l = 0; l < 32; ++l) {
            StudentRecord s;
            s.kind = EventKind::Shuffle, s.block = block, s.thread = uint16_t(l), s.aux = 0xffffffffu;
            s.detail = off | ((l + off) << 8);
            s.dep[0] = l + off < 32 ? v[l + off] : v[l];
            s.value = r.recs[s.dep[0]].value;
            got[l] = r.add(s);
        }
        for (uint32_t l = 0; l < 32; ++l) v[l] = r.combine(block, l, v[l], got[l]);
    }
    r.simple(EventKind::BlockPartial, block, 0, v[0], block);
    return r;
}

TEST_CASE("student trace: a warp's shuffle sum gets one step per level, its exact result and no hazard") {
    Recorder r = warp_sum();
    const Trace t = trace_from_student_records(run_of(32, 32, 1, 528.0f), r.recs, make_input(run_of(32, 32, 1, 528).schedule));
    check_operands_first(t);
    CHECK(t.hazards.empty());
    REQUIRE(t.result_event != kNoEvent);
    CHECK(t.events[t.result_event].kind == EventKind::FinalStore);
    CHECK(unpack_value<float>(t.result_value) == 528.0f);
    CHECK(unpack_value<float>(t.reference_value) == 528.0f);
    CHECK(t.step_count == 12);  // load, 5 x (shuffle, combine), store
    CHECK(t.scope_start[1] == 1);
    CHECK(t.lines.size() == t.events.size());
    for (const Event& e : t.events)
        if (e.kind == EventKind::Shuffle) CHECK(e.step % 2 == 1);
}

TEST_CASE("student trace: a barrier comes after the last event of every thread that exited before it") {
    Recorder r;
    // Threads 0-31 store, meet at the barrier, and read the slot of thread + 32; threads 32-47 store and
    // arrive; threads 48-63 load five elements and exit without a barrier.
    std::vector<uint32_t> st(64, kNoEvent);
    for (uint32_t th = 0; th < 48; ++th) st[th] = r.simple(EventKind::SharedStore, 0, th, r.load(0, th, th, 1.0f));
    for (uint32_t th = 48; th < 64; ++th)
        for (int k = 0; k < 5; ++k) r.load(0, th, th, 1.0f);
    for (uint32_t th = 0; th < 48; ++th) r.recs[st[th]].detail = th;
    for (uint32_t th = 0; th < 48; ++th) r.simple(EventKind::Barrier, 0, th, kNoEvent, 0, 7);
    for (uint32_t th = 0; th < 16; ++th) {
        const uint32_t ld = r.simple(EventKind::SharedLoad, 0, th, st[th + 32]);
        r.recs[ld].detail = th + 32;
    }
    const Trace t = trace_from_student_records(run_of(64, 64, 1, 0.0f), r.recs, make_input(run_of(64, 64, 1, 0).schedule));
    check_operands_first(t);
    uint16_t barrier_step = 0;
    int barriers = 0;
    for (const Event& e : t.events)
        if (e.kind == EventKind::Barrier) barrier_step = e.step, ++barriers;
    CHECK(barriers == 2);        // one event per warp
    CHECK(barrier_step == 5);    // after the early threads' loads at steps 0-4
    CHECK_FALSE(has(t, HazardKind::DivergentBarrier));
    CHECK_FALSE(has(t, HazardKind::SharedMemoryRace));
}

TEST_CASE("student trace: one barrier reached at two source lines is a divergent barrier") {
    Recorder r;
    for (uint32_t th = 0; th < 64; ++th) r.load(0, th, th, 1.0f);
    for (uint32_t th = 0; th < 64; ++th) r.simple(EventKind::Barrier, 0, th, kNoEvent, 0, th < 40 ? 10 : 12);
    const Trace t = trace_from_student_records(run_of(64, 64, 1, 0.0f), r.recs, make_input(run_of(64, 64, 1, 0).schedule));
    CHECK(has(t, HazardKind::DivergentBarrier));
    // Where, by hand: every thread loads at step 0 and arrives at step 1; warp 0 and lanes 0-7 of warp 1
    // (threads 32-39) at line 10, lanes 8-31 of warp 1 (threads 40-63) at line 12. The first line met is 10:
    // the one finding is warp 1's arrival at line 12, with exactly those lanes.
    REQUIRE(t.hazards.size() == 1);
    const Hazard& h = t.hazards[0];
    CHECK(h.kind == HazardKind::DivergentBarrier);
    CHECK(h.block == 0);
    CHECK(h.warp == 1);
    CHECK(h.lanes == 0xffffff00u);
    const Event& e = t.events[h.event];
    CHECK(e.kind == EventKind::Barrier);
    CHECK(e.step == 1);
    CHECK(e.detail == 12);
    CHECK(h.what ==
          "`__syncthreads()` at step 1 is reached at line 12 by lanes 8-31 of warp 1 and at line 10 by other threads: "
          "the branch around it is not the same for the whole block");
    // The same kernel with one line is clean.
    for (StudentRecord& x : r.recs) x.line = x.kind == EventKind::Barrier ? 10 : 0;
    const Trace u = trace_from_student_records(run_of(64, 64, 1, 0.0f), r.recs, make_input(run_of(64, 64, 1, 0).schedule));
    CHECK_FALSE(has(u, HazardKind::DivergentBarrier));
}

TEST_CASE("student trace: __syncwarp arrivals are one event per mask at the lowest caller; a lane outside its mask keeps its own") {
    // 32 threads load; then lanes 0 and 5 call `__syncwarp(0x1)` (line 9) and lanes 16-17 `__syncwarp(0x30000)`
    // (line 11). Lane 5's mask leaves out its own bit (the Guide: each calling thread must have its own bit set):
    // its arrival stays an event of its own, at thread 5. Lane 0's is one event at thread 0; lanes 16-17 are one
    // event at thread 16, the lowest lane that called it, which the mask names (at the warp's first lane, 0, the
    // legal 0x30000 would read as a mask without its caller). The checker finds one hazard: mask-omits-own-lane at
    // thread 5's event, lane 5 of warp 0.
    Recorder r;
    std::vector<uint32_t> v(32);
    for (uint32_t l = 0; l < 32; ++l) v[l] = r.load(0, l, l, float(l + 1));
    for (uint32_t l : {0u, 5u}) r.simple(EventKind::WarpSync, 0, l, kNoEvent, 0x1u, 9);
    for (uint32_t l : {16u, 17u}) r.simple(EventKind::WarpSync, 0, l, kNoEvent, 0x30000u, 11);
    r.simple(EventKind::BlockPartial, 0, 0, v[0], 0);
    const Trace t = trace_from_student_records(run_of(32, 32, 1, 1.0f), r.recs, make_input(run_of(32, 32, 1, 1).schedule));
    check_operands_first(t);
    std::vector<std::tuple<uint16_t, uint32_t, uint16_t>> syncs;  // thread, mask, line
    uint32_t outside = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.kind != EventKind::WarpSync) continue;
        syncs.emplace_back(e.thread, e.aux, e.detail);
        if (e.thread == 5) outside = i;
    }
    std::sort(syncs.begin(), syncs.end());
    CHECK(syncs == std::vector<std::tuple<uint16_t, uint32_t, uint16_t>>{{0, 0x1u, 9}, {5, 0x1u, 9}, {16, 0x30000u, 11}});
    REQUIRE(t.hazards.size() == 1);
    CHECK(t.hazards[0].kind == HazardKind::MaskOmitsOwnLane);
    CHECK(t.hazards[0].event == outside);
    CHECK(t.hazards[0].warp == 0);
    CHECK(t.hazards[0].lanes == 1u << 5);
}

TEST_CASE("student trace: a load past the input is an out-of-bounds read") {
    Recorder r;
    const uint32_t a = r.load(0, 0, 0, 1.0f), b = r.load(0, 0, 40, 0.0f, kUndefined);
    r.simple(EventKind::BlockPartial, 0, 0, r.combine(0, 0, a, b), 0);
    const Trace t = trace_from_student_records(run_of(32, 32, 1, 1.0f), r.recs, make_input(run_of(32, 32, 1, 1).schedule));
    CHECK(has(t, HazardKind::OutOfBoundsRead));
    // Where, by hand: thread 0's second load (its step 1), element 40 of 32; nothing else is wrong.
    REQUIRE(t.hazards.size() == 1);
    const Hazard& h = t.hazards[0];
    CHECK(h.kind == HazardKind::OutOfBoundsRead);
    CHECK(h.block == 0);
    CHECK(h.warp == 0);
    CHECK(h.lanes == 1u);
    const Event& e = t.events[h.event];
    CHECK(e.kind == EventKind::Load);
    CHECK(e.thread == 0);
    CHECK(e.step == 1);
    CHECK(e.aux == 40);
    CHECK(h.what == "thread 0 of block 0 reads element 40, outside the 32 elements of the input: the value is undefined");
    CHECK((t.result_flags & kUndefined) != 0);
    Recorder ok;
    ok.simple(EventKind::BlockPartial, 0, 0, ok.load(0, 0, 31, 32.0f), 0);
    CHECK_FALSE(has(trace_from_student_records(run_of(32, 32, 1, 32.0f), ok.recs, make_input(run_of(32, 32, 1, 32).schedule)),
                    HazardKind::OutOfBoundsRead));
}

TEST_CASE("student trace: atomics are chained in the memory system's order and still come after what they follow") {
    // Block 0 adds its element late (step 5), block 1 early (step 1); block 0's atomic ran first.
    Recorder r;
    uint32_t v0 = r.load(0, 0, 0, 1.0f);
    for (int k = 0; k < 4; ++k) {
        const uint32_t z = r.simple(EventKind::IdentityFill, 0, 0);
        r.recs[z].value = f32(0.0f);
        v0 = r.combine(0, 0, v0, z);
    }
    const uint32_t v1 = r.load(1, 0, 1, 2.0f);
    StudentRecord a0;
    a0.kind = EventKind::Atomic, a0.block = 0, a0.dep[1] = v0, a0.value = f32(1.0f), a0.atomic_old = f32(0.0f);
    StudentRecord a1 = a0;
    a1.block = 1, a1.dep[1] = v1, a1.value = f32(3.0f), a1.atomic_old = f32(1.0f);
    const uint32_t i0 = r.add(a0), i1 = r.add(a1);
    const Trace t = trace_from_student_records(run_of(2, 1, 2, 3.0f), r.recs, make_input(run_of(2, 1, 2, 3).schedule));
    check_operands_first(t);
    REQUIRE(t.result_event != kNoEvent);
    const Event& last = t.events[t.result_event];
    CHECK(last.block == 1);
    CHECK(last.aux == 1);
    REQUIRE(last.dep[0] != kNoEvent);
    CHECK(t.events[last.dep[0]].block == 0);
    CHECK(t.events[last.dep[0]].step > last.step);  // the chain runs against the steps
    CHECK(unpack_value<float>(t.result_value) == 3.0f);
    CHECK(t.hazards.empty());        // one atomic per element: the cost finding, a note, and no hazard
    REQUIRE(t.notes.size() == 1);
    CHECK(t.notes[0].kind == HazardKind::AtomicContention);
    (void)i0, (void)i1;
}

TEST_CASE("student trace: the second launch reads the block partials as the finishing stage") {
    Recorder r;
    const uint32_t p0 = r.simple(EventKind::BlockPartial, 0, 0, r.load(0, 0, 0, 5.0f), 0);
    const uint32_t p1 = r.simple(EventKind::BlockPartial, 1, 0, r.load(1, 0, 1, 7.0f), 1);
    StudentRecord l0;
    l0.kind = EventKind::PartialLoad, l0.launch = 1, l0.aux = 0, l0.dep[0] = p0, l0.value = f32(5.0f);
    StudentRecord l1 = l0;
    l1.aux = 1, l1.dep[0] = p1, l1.value = f32(7.0f);
    const uint32_t a = r.add(l0), b = r.add(l1);
    StudentRecord c;
    c.kind = EventKind::Combine, c.launch = 1, c.dep[0] = a, c.dep[1] = b, c.value = f32(12.0f);
    const uint32_t sum = r.add(c);
    StudentRecord st;
    st.kind = EventKind::BlockPartial, st.launch = 1, st.dep[0] = sum, st.value = f32(12.0f);
    r.add(st);
    const Trace t = trace_from_student_records(run_of(2, 1, 2, 12.0f, true), r.recs, make_input(run_of(2, 1, 2, 12, true).schedule));
    check_operands_first(t);
    CHECK(t.hazards.empty());
    CHECK(t.finisher_block == 2);
    REQUIRE(t.result_event != kNoEvent);
    CHECK(t.events[t.result_event].kind == EventKind::FinalStore);
    CHECK((t.events[t.result_event].flags & kFinisher) != 0);
    CHECK(t.events[t.result_event].block == 2);
    CHECK(unpack_value<float>(t.result_value) == 12.0f);
}

TEST_CASE("student trace: records that no run could produce are refused with the record named") {
    Recorder r;
    const uint32_t a = r.load(0, 0, 0, 1.0f), b = r.load(0, 1, 1, 1.0f);
    r.recs[a].dep[0] = b;  // each waits for the other
    r.recs[b].dep[0] = a;
    CHECK_THROWS_AS(trace_from_student_records(run_of(2, 2, 1, 0.0f), r.recs, make_input(run_of(2, 2, 1, 0).schedule)), Error);
    Recorder s = warp_sum();
    s.recs[3].thread = 40;  // outside a block of 32
    CHECK_THROWS_WITH_AS(trace_from_student_records(run_of(32, 32, 1, 528.0f), s.recs, make_input(run_of(32, 32, 1, 528).schedule)),
                         doctest::Contains("record 3"), Error);
}

}  // namespace
}  // namespace rl

#include <sstream>
#include "core/trace_io.h"

namespace rl {
namespace {
TEST_CASE("student trace: its file, source lines and finishing threads survive the JSON file") {
    Recorder r = warp_sum();
    for (size_t i = 0; i < r.recs.size(); ++i) r.recs[i].line = uint16_t(3 + i % 5);
    const Trace t = trace_from_student_records(run_of(32, 32, 1, 528.0f), r.recs, make_input(run_of(32, 32, 1, 528).schedule));
    std::stringstream io;
    write_trace_json(io, t);
    const Trace back = read_trace_json(io);
    CHECK(back.kernel_file == "test.cu");
    CHECK(back.finish_threads == 32);
    CHECK(back.lines == t.lines);
    CHECK(back.events.size() == t.events.size());
}
}  // namespace
}  // namespace rl
