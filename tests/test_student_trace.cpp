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

// A warp's lanes arriving together at a barrier as one record (kWarpArrival, the plain-CUDA engine's): aux = the
// lanes, under the lowest; every other lane skips a seq there. The same block as above: warp 0 arrives in two records
// (lanes 0-15, then lanes 16-31 under lane 16: a split warp), warp 1's lanes 32-47 in one, of which lanes 44-47 do
// nothing else (no record of their own); lanes 1-15 read after the barrier (their arrival is a gap in their seq),
// lanes 16-31 arrive last of all they do. By hand: one event per warp, aux the lanes, at step 5 (after lanes 48-63's
// five loads), the reads at step 6, and no hazard.
TEST_CASE("student trace: a warp's barrier record stands for its lanes, each at the gap in its own order") {
    Recorder r;
    auto warp_arrival = [&](uint32_t owner, uint32_t lanes) {
        StudentRecord b;
        b.kind = EventKind::Barrier, b.thread = uint16_t(owner), b.aux = lanes, b.line = 7, b.pad0 = kWarpArrival;
        r.add(b);
        for (uint32_t l = 0; l < 32; ++l)
            if ((lanes >> l & 1u) && owner / 32 * 32 + l != owner) {
                const auto key = std::tuple(0, 0u, owner / 32 * 32 + l);
                ++r.seq[key];
                ++r.barriers[key];
            }
    };
    std::vector<uint32_t> st(64, kNoEvent);
    for (uint32_t th = 0; th < 44; ++th) st[th] = r.simple(EventKind::SharedStore, 0, th, r.load(0, th, th, 1.0f));
    for (uint32_t th = 48; th < 64; ++th)
        for (int k = 0; k < 5; ++k) r.load(0, th, th, 1.0f);
    for (uint32_t th = 0; th < 44; ++th) r.recs[st[th]].detail = th;
    warp_arrival(0, 0x0000ffffu);
    warp_arrival(32, 0x0000ffffu);
    warp_arrival(16, 0xffff0000u);
    std::vector<uint32_t> ld(16);
    for (uint32_t th = 0; th < 16; ++th) {
        ld[th] = r.simple(EventKind::SharedLoad, 0, th, st[th + 16]);
        r.recs[ld[th]].detail = th + 16;
    }
    CHECK(r.recs[ld[1]].seq == 3);  // load, store, (its arrival), read
    const Trace t = trace_from_student_records(run_of(64, 64, 1, 0.0f), r.recs, make_input(run_of(64, 64, 1, 0).schedule));
    check_operands_first(t);
    std::map<uint32_t, const Event*> barrier_of_thread;
    for (const Event& e : t.events)
        if (e.kind == EventKind::Barrier) barrier_of_thread[e.thread] = &e;
    REQUIRE(barrier_of_thread.size() == 2);
    REQUIRE(barrier_of_thread.count(0) == 1);
    REQUIRE(barrier_of_thread.count(32) == 1);
    CHECK(barrier_of_thread[0]->aux == 0xffffffffu);
    CHECK(barrier_of_thread[32]->aux == 0x0000ffffu);
    CHECK(barrier_of_thread[0]->step == 5);
    CHECK(barrier_of_thread[32]->step == 5);
    int reads = 0;
    for (const Event& e : t.events)
        if (e.kind == EventKind::SharedLoad) {
            CHECK(e.step == 6);
            ++reads;
        }
    CHECK(reads == 16);
    CHECK(t.events.size() == 44 * 2 + 16 * 5 + 2 + 16);
    CHECK_FALSE(has(t, HazardKind::DivergentBarrier));
    CHECK_FALSE(has(t, HazardKind::SharedMemoryRace));
}

// A warp's barrier record must be under the lowest of its lanes, and name lanes of the block only.
TEST_CASE("student trace: a warp's barrier record under a lane that is not its lowest, or past the block, is refused") {
    // lanes 0-2 under lane 1; lanes 1 and 20 in a block of 16 threads
    for (uint32_t lanes : {0x7u, 0x2u | 1u << 20}) {
        CAPTURE(lanes);
        Recorder r;
        StudentRecord b;
        b.kind = EventKind::Barrier, b.thread = 1, b.aux = lanes, b.pad0 = kWarpArrival;
        r.add(b);
        CHECK_THROWS_AS(trace_from_student_records(run_of(16, 16, 1, 0.0f), r.recs, make_input(run_of(16, 16, 1, 0).schedule)), Error);
    }
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

// ---- plain CUDA runs: several launches in one trace (issue 32) ---------------------------------------------------
// Records as the plain-CUDA engine writes them for a plan: `launch` = the plan's index, `block` within that launch,
// the global buffer in pad0 bits 1..3 (0 in, 1 out, 2 tmp; bit 4: a load outside its buffer). Expectations by hand.
namespace rl {
namespace {

constexpr uint8_t kIn = 0, kOut = 1, kTmp = 2;

struct Plan {
    Recorder r;
    uint8_t launch = 0;
    uint32_t rec(EventKind k, uint32_t block, uint32_t thread, uint32_t dep0 = kNoEvent, uint32_t dep1 = kNoEvent) {
        StudentRecord x;
        x.kind = k, x.launch = launch, x.block = block, x.thread = uint16_t(thread), x.dep[0] = dep0, x.dep[1] = dep1;
        if (dep0 != kNoEvent) x.value = r.recs[dep0].value;
        if (k == EventKind::Combine)
            x.value = f32(unpack_value<float>(r.recs[dep0].value) + unpack_value<float>(r.recs[dep1].value));
        return r.add(x);
    }
    uint32_t load(uint32_t block, uint32_t thread, uint32_t element, float v) {
        const uint32_t i = rec(EventKind::Load, block, thread);
        r.recs[i].aux = element, r.recs[i].value = f32(v);
        return i;
    }
    // A load of out or tmp: dep = the record that last wrote the element (none: its start value, the identity 0).
    uint32_t global_load(uint32_t block, uint32_t thread, uint8_t buffer, uint32_t element, uint32_t writer) {
        const uint32_t i = rec(EventKind::PartialLoad, block, thread, writer);
        r.recs[i].aux = element, r.recs[i].pad0 = uint8_t(buffer << 1);
        if (writer == kNoEvent) r.recs[i].value = f32(0.0f);
        return i;
    }
    uint32_t store(uint32_t block, uint32_t thread, uint8_t buffer, uint32_t element, uint32_t value) {
        const uint32_t i = rec(EventKind::BlockPartial, block, thread, value);
        r.recs[i].aux = element, r.recs[i].pad0 = uint8_t(buffer << 1);
        return i;
    }
    uint32_t shared(EventKind k, uint32_t block, uint32_t thread, uint32_t slot, uint32_t dep) {
        const uint32_t i = rec(k, block, thread, dep);
        r.recs[i].detail = slot;
        return i;
    }
};

LaunchScope scope(const char* kernel, uint32_t grid, uint32_t block, uint32_t first_block) {
    LaunchScope l;
    l.kernel = kernel, l.grid = grid, l.block = block, l.shared_bytes = block * 4, l.first_block = first_block;
    return l;
}

StudentRun plain_run(uint64_t n, std::vector<LaunchScope> launches, float final_out0) {
    StudentRun run = run_of(n, launches[0].block, launches[0].grid, final_out0);
    run.launches = std::move(launches);
    return run;
}

Trace assemble(const StudentRun& run, const std::vector<StudentRecord>& recs) {
    return trace_from_student_records(run, recs, make_input(run.schedule));
}

// block_sum<<<2, 2>>>(in, tmp, 8) then block_sum<<<1, 64>>>(tmp, out, 2) over in = 1..8. Launch 1: thread t of block
// b adds in[2b + t] and in[2b + t + 4], stores it in shared slot t, meets the barrier; thread 0 adds slot 1 and
// stores tmp[b]: tmp = {1+5 + 2+6, 3+7 + 4+8} = {14, 22}. Launch 2 (64 threads, of which threads 0 and 32, in two
// warps, hold tmp[0] and tmp[1]): the same through slots 0 and 1, out[0] = 36. `barrier2`: launch 2 has its barrier.
Plan two_launches(bool barrier2 = true) {
    Plan p;
    uint32_t tmp[2];
    for (uint32_t b = 0; b < 2; ++b) {
        uint32_t st[2], v[2];
        for (uint32_t t = 0; t < 2; ++t) {
            const uint32_t e = 2 * b + t;
            v[t] = p.rec(EventKind::Combine, b, t, p.load(b, t, e, float(e + 1)), p.load(b, t, e + 4, float(e + 5)));
            st[t] = p.shared(EventKind::SharedStore, b, t, t, v[t]);
        }
        for (uint32_t t = 0; t < 2; ++t) p.rec(EventKind::Barrier, b, t);
        const uint32_t other = p.shared(EventKind::SharedLoad, b, 0, 1, st[1]);
        tmp[b] = p.store(b, 0, kTmp, b, p.rec(EventKind::Combine, b, 0, v[0], other));
    }
    p.launch = 1;
    uint32_t v[2], st[2];
    for (uint32_t k = 0; k < 2; ++k) {
        const uint32_t t = 32 * k;
        v[k] = p.global_load(0, t, kTmp, k, tmp[k]);
        st[k] = p.shared(EventKind::SharedStore, 0, t, k, v[k]);
    }
    if (barrier2)
        for (uint32_t t : {0u, 32u}) p.rec(EventKind::Barrier, 0, t);
    const uint32_t other = p.shared(EventKind::SharedLoad, 0, 0, 1, st[1]);
    p.store(0, 0, kOut, 0, p.rec(EventKind::Combine, 0, 0, v[0], other));
    return p;
}

std::vector<LaunchScope> two_scopes() { return {scope("block_sum", 2, 2, 0), scope("block_sum", 1, 64, 2)}; }

TEST_CASE("plain run: two launches in one trace, the second after the first, its block numbered after the first's") {
    const Plan p = two_launches();
    const Trace t = assemble(plain_run(8, two_scopes(), 36.0f), p.r.recs);
    check_operands_first(t);
    CHECK(t.hazards.empty());
    REQUIRE(t.launches.size() == 2);
    CHECK(t.launches[1].first_block == 2);
    CHECK(t.grid == 2);
    // By hand: launch 1's threads load, load, add, store to shared (steps 0-3), barrier (4); thread 0 loads the slot,
    // adds, stores tmp (5-7). Launch 2 starts at step 8: load tmp (8), shared store (9), barrier (10), shared load (11),
    // add (12), store out[0] (13). Events: per block of launch 1, 2 x 4 + 1 barrier + 3 = 12; launch 2: 2 x 2 + 2
    // barriers (one per warp) + 3 = 9.
    CHECK(t.step_count == 14);
    CHECK(t.events.size() == 33);
    for (const Event& e : t.events) {
        CHECK((e.flags & kFinisher) == 0);
        CHECK(e.block <= 2);
        if (e.block == 2) CHECK(e.step >= 8);
        else CHECK(e.step <= 7);
    }
    REQUIRE(t.result_event != kNoEvent);
    const Event& r = t.events[t.result_event];
    CHECK(r.kind == EventKind::FinalStore);
    CHECK(r.block == 2);
    CHECK(r.step == 13);
    CHECK(event_buffer(r) == 1);
    CHECK(unpack_value<float>(t.result_value) == 36.0f);
    CHECK(unpack_value<float>(t.reference_value) == 36.0f);
    // Launch 2's loads name tmp and the stores of launch 1 they saw (blocks 0 and 1, step 7).
    int tmp_loads = 0;
    for (const Event& e : t.events) {
        if (e.kind != EventKind::PartialLoad) continue;
        ++tmp_loads;
        CHECK(event_buffer(e) == 2);
        REQUIRE(e.dep[0] != kNoEvent);
        CHECK(t.events[e.dep[0]].kind == EventKind::BlockPartial);
        CHECK(t.events[e.dep[0]].block == e.aux);
        CHECK(t.events[e.dep[0]].step == 7);
        CHECK(event_buffer(t.events[e.dep[0]]) == 2);
    }
    CHECK(tmp_loads == 2);
    CHECK(block_name(t, 2) == "launch 2, block 0");
    CHECK(block_name(t, 1) == "launch 1, block 1");
    CHECK(block_label(t, 2) == "launch 2 · block 0");
    CHECK(place_text(t, 2, 1, 1u) == "launch 2, block 0, warp 1, lane 0");
}

// Steps add up launch after launch: two launches of one thread that loads k elements, one after another (steps 0 to
// k - 1 in each), take 2k steps: 60,000 fit, 80,000 are past the 65,535 a trace numbers and refused in one line.
TEST_CASE("plain run: launches whose steps add up past 65535 are refused, and ones that fit are not") {
    for (uint32_t loads : {30000u, 40000u}) {
        CAPTURE(loads);
        Plan p;
        for (uint8_t l = 0; l < 2; ++l) {
            p.launch = l;
            for (uint32_t k = 0; k < loads; ++k) p.load(0, 0, k, 1.0f);
        }
        const StudentRun run = plain_run(loads, {scope("loads", 1, 1, 0), scope("loads", 1, 1, 1)}, 0.0f);
        if (loads == 30000u) {
            const Trace t = assemble(run, p.r.recs);
            CHECK(t.step_count == 60000);
            CHECK(t.events[30000].step == 30000);  // launch 2's first load, after launch 1's last
        } else {
            CHECK_THROWS_WITH_AS(assemble(run, p.r.recs), doctest::Contains("more than 65535 steps"), Error);
        }
    }
}

TEST_CASE("plain run: a shared-memory race in the second launch only is reported there, with its launch") {
    const Plan p = two_launches(false);
    const Trace t = assemble(plain_run(8, two_scopes(), 36.0f), p.r.recs);
    // Without launch 2's barrier, thread 0 (warp 0) reads slot 1 at step 10, which thread 32 (warp 1) stored at step
    // 9: a race across warps. Launch 1 keeps its barrier and is clean.
    REQUIRE(t.hazards.size() == 1);
    const Hazard& h = t.hazards[0];
    CHECK(h.kind == HazardKind::SharedMemoryRace);
    CHECK(h.block == 2);
    CHECK(h.warp == 0);
    CHECK(h.lanes == 1u);
    CHECK(h.what == "In launch 2, block 0, warp 0, lane 0: thread 0 reads shared slot 1, which thread 32 stores at step 9 in "
                    "another warp with no `__syncthreads()` that both reach between them");
}

TEST_CASE("plain run: out-of-bounds reads in the second launch are reported with the launch and block") {
    // Launch 2's thread 0 also reads in[9] (n = 8) and tmp[5], past tmp's 2 elements: the engine marks the latter
    // (pad0 bit 4) and flags both undefined.
    Plan p = two_launches();
    p.launch = 1;
    const uint32_t a = p.load(0, 0, 9, 0.0f);
    p.r.recs[a].flags = kUndefined;
    const uint32_t b = p.global_load(0, 0, kTmp, 5, kNoEvent);
    p.r.recs[b].flags = kUndefined, p.r.recs[b].pad0 |= 0x10;
    const Trace t = assemble(plain_run(8, two_scopes(), 36.0f), p.r.recs);
    std::vector<std::string> oob;
    for (const Hazard& h : t.hazards) {
        CHECK(h.kind == HazardKind::OutOfBoundsRead);
        CHECK(h.block == 2);
        oob.push_back(h.what);
    }
    std::sort(oob.begin(), oob.end());
    CHECK(oob == std::vector<std::string>{
                     "In launch 2, block 0, warp 0, lane 0: thread 0 reads element 9, outside the 8 elements of the input: the value is undefined",
                     "In launch 2, block 0, warp 0, lane 0: thread 0 reads tmp[5], outside the elements of tmp: the value is undefined"});
    // The same loads without the marks: tmp[5] in range is no finding (its start value), in[7] neither.
    Plan q = two_launches();
    q.launch = 1;
    q.load(0, 0, 7, 8.0f);
    q.global_load(0, 0, kTmp, 5, kNoEvent);
    CHECK(assemble(plain_run(8, two_scopes(), 36.0f), q.r.recs).hazards.empty());
}

// Three launches over in = 1..8: pairs<<<4, 1>>>(in, tmp, 8) stores tmp[b] = in[2b] + in[2b+1] = {3, 7, 11, 15};
// pairs<<<2, 1>>>(tmp, out, 4) stores out[b] = tmp[2b] + tmp[2b+1] = {10, 26}; pairs<<<1, 1>>>(out, out, 2) stores
// out[0] = 36. Each thread: load, load, add, store: 4 steps a launch. `in_place`: launch 2 writes tmp[b] instead of
// out[b], so its block 0 reads tmp[1] while its block 1 writes it, in the same launch: a race between blocks.
Plan three_launches(bool in_place) {
    Plan p;
    uint32_t first[4], second[2];
    for (uint32_t b = 0; b < 4; ++b)
        first[b] = p.store(b, 0, kTmp, b, p.rec(EventKind::Combine, b, 0, p.load(b, 0, 2 * b, float(2 * b + 1)), p.load(b, 0, 2 * b + 1, float(2 * b + 2))));
    p.launch = 1;
    for (uint32_t b = 0; b < 2; ++b) {
        const uint32_t x = p.global_load(b, 0, kTmp, 2 * b, first[2 * b]), y = p.global_load(b, 0, kTmp, 2 * b + 1, first[2 * b + 1]);
        second[b] = p.store(b, 0, in_place ? kTmp : kOut, b, p.rec(EventKind::Combine, b, 0, x, y));
    }
    p.launch = 2;
    const uint8_t buf = in_place ? kTmp : kOut;
    const uint32_t x = p.global_load(0, 0, buf, 0, second[0]), y = p.global_load(0, 0, buf, 1, second[1]);
    p.store(0, 0, kOut, 0, p.rec(EventKind::Combine, 0, 0, x, y));
    return p;
}

std::vector<LaunchScope> three_scopes() { return {scope("pairs", 4, 1, 0), scope("pairs", 2, 1, 4), scope("pairs", 1, 1, 6)}; }

TEST_CASE("plain run: three launches, the last store into out[0] is the result, not an earlier launch's") {
    const Trace t = assemble(plain_run(8, three_scopes(), 36.0f), three_launches(false).r.recs);
    check_operands_first(t);
    CHECK(t.hazards.empty());
    CHECK(t.step_count == 12);
    CHECK(t.events.size() == 4 * 4 + 2 * 4 + 4);
    // Blocks 0-3 are launch 1 (steps 0-3), 4-5 launch 2 (4-7), 6 launch 3 (8-11).
    for (const Event& e : t.events) {
        const uint32_t launch = e.block < 4 ? 0 : e.block < 6 ? 1 : 2;
        CHECK(e.step / 4 == launch);
    }
    REQUIRE(t.result_event != kNoEvent);
    CHECK(t.events[t.result_event].kind == EventKind::FinalStore);
    CHECK(t.events[t.result_event].block == 6);
    CHECK(unpack_value<float>(t.result_value) == 36.0f);
    // Launch 2's block 0 wrote out[0] = 10 before: it stays a store.
    int out_stores = 0;
    for (const Event& e : t.events)
        if (e.kind == EventKind::BlockPartial && event_buffer(e) == 1) {
            ++out_stores;
            CHECK(e.block >= 4);
            CHECK(e.block <= 5);
        }
    CHECK(out_stores == 2);
    CHECK(t.finisher_block == kNoEvent);
}

TEST_CASE("plain run: a block reading what another block of the same launch writes, nothing between, is a race") {
    const Trace t = assemble(plain_run(8, three_scopes(), 36.0f), three_launches(true).r.recs);
    // Launch 2's block 0 (trace block 4) loads tmp[1] at step 5 and sees launch 1's 7, while its block 1 (trace
    // block 5) stores tmp[1] = 26 at step 7, and no ticket orders the two blocks: a race between them (not a stale
    // read, which needs an order the load did not see). The other loads are ordered by a launch boundary.
    REQUIRE(t.hazards.size() == 1);
    const Hazard& h = t.hazards[0];
    CHECK(h.kind == HazardKind::GlobalMemoryRace);
    CHECK(h.block == 5);
    CHECK(h.what == "In launch 2, block 1 stores tmp[1] and block 0 loads it with nothing ordering them: CUDA runs the "
                    "blocks of one launch in no set order, so a block may load tmp[1] before or after another block's "
                    "store to it. Combine the blocks' values with an atomic (atomicAdd, atomicMax), or store one partial "
                    "per block (out[blockIdx.x]) and combine the partials in a second launch");
    CHECK(t.events[h.event].step == 7);
}

TEST_CASE("plain run: launches that do not fit their records, or each other, are refused in one line") {
    const Plan p = two_launches();
    std::vector<LaunchScope> gap = two_scopes();
    gap[1].first_block = 3;
    CHECK_THROWS_WITH_AS(assemble(plain_run(8, gap, 36.0f), p.r.recs),
                         "the run's launches: launch 2 (block_sum): first_block 3, expected 2 (the blocks of the launches before it)", Error);
    std::vector<LaunchScope> small = two_scopes();
    small[1].block = 32;  // thread 32 of launch 2 is outside
    CHECK_THROWS_WITH_AS(assemble(plain_run(8, small, 36.0f), p.r.recs), doctest::Contains("thread 32 is outside a block of 32 threads"), Error);
    std::vector<LaunchScope> many(17, scope("k", 1, 1, 0));
    for (uint32_t k = 0; k < 17; ++k) many[k].first_block = k;
    CHECK_THROWS_WITH_AS(assemble(plain_run(8, many, 36.0f), {}), "the run's launches: 17 launches, at most 16 are allowed", Error);
    Plan q = two_launches();
    q.r.recs.back().launch = 2;
    CHECK_THROWS_WITH_AS(assemble(plain_run(8, two_scopes(), 36.0f), q.r.recs), doctest::Contains("launch 3 is not one of the run's 2 launches"), Error);
}

}  // namespace
}  // namespace rl

// ---- a plain run's launches through both trace files ----------------------------------------------------------
#include <cstring>
#include "core/checker.h"
#include "core/trace_binary.h"

namespace rl {
namespace {

bool same_events(const std::vector<Event>& a, const std::vector<Event>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Event)) == 0;
}
bool same_launches(const std::vector<LaunchScope>& a, const std::vector<LaunchScope>& b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k].kernel != b[k].kernel || a[k].grid != b[k].grid || a[k].block != b[k].block ||
            a[k].shared_bytes != b[k].shared_bytes || a[k].first_block != b[k].first_block)
            return false;
    return true;
}
std::string json_error(const std::string& text) {
    std::istringstream in(text);
    try {
        read_trace_json(in);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST_CASE("plain run: the launches, blocks and buffers survive the JSON and the binary trace files") {
    // The racy three-launch plan: a hazard whose place names launch 2, and tmp and out in the events' detail.
    const Trace t = assemble(plain_run(8, three_scopes(), 36.0f), three_launches(true).r.recs);
    REQUIRE(t.hazards.size() == 1);
    std::stringstream js;
    write_trace_json(js, t);
    const std::string text = js.str();
    CHECK(text.find("\"launches\"") != std::string::npos);
    const Trace a = read_trace_json(js);
    CHECK(same_launches(a.launches, t.launches));
    CHECK(same_events(a.events, t.events));
    REQUIRE(a.hazards.size() == 1);
    CHECK(a.hazards[0].what == t.hazards[0].what);
    CHECK(a.hazards[0].block == 5);
    std::stringstream bin;
    write_trace_binary(bin, t);
    const Trace b = read_trace_binary(bin);
    CHECK(same_launches(b.launches, t.launches));
    CHECK(same_events(b.events, t.events));
    CHECK(b.result_event == t.result_event);
    CHECK(b.hazards.size() == 1);
    // Checked again from the file alone, the finding is the same (the checker reads the launches from the trace).
    Trace c = a;
    attach_checked_hazards(c);
    REQUIRE(c.hazards.size() == 1);
    CHECK(c.hazards[0].what == t.hazards[0].what);

    // Launches that do not add up are refused in one line; a trace without them reads as before.
    auto edit = [&](const std::string& from, const std::string& to) {
        std::string s = text;
        const size_t at = s.find(from);
        REQUIRE(at != std::string::npos);
        return s.replace(at, from.size(), to);
    };
    CHECK(json_error(edit("\"first_block\": 4", "\"first_block\": 5")) ==
          "trace JSON: \"launches\": launch 2 (pairs): first_block 5, expected 4 (the blocks of the launches before it)");
    CHECK(json_error(edit("\"launches\": [", "\"launches\": 3, \"x\": [")).find("\"launches\" must be a list") != std::string::npos);
    // Without its launches the trace's blocks 4-6 lie past its grid of 4: refused, not misread.
    CHECK(json_error(edit("\"launches\"", "\"unused\"")).find("the grid has 4 blocks") != std::string::npos);
}

TEST_CASE("binary trace: version 1 (no launches) and 2 (no buffers) files still read, and a file's launches are checked") {
    Trace t = assemble(run_of(32, 32, 1, 528.0f), warp_sum().recs);
    t.hazards.clear();
    t.notes.clear();
    std::stringstream out;
    write_trace_binary(out, t);
    const std::string v3 = out.str();
    // The launches' u32 count, then (version 3) the buffers' u64 count (0) and the wide atomic elements' u64 count (0)
    // sit before the inputs (u64 count + f64 each), events, lines, times, two empty finding lists, (version 4) an
    // inactive level of detail (u32 0, u64 0, u64 count 0: core/trace_binary.h) and the end mark.
    uint32_t version = 0;
    std::memcpy(&version, v3.data() + 8, 4);
    const size_t lod = version >= 4 ? 4 + 8 + 8 : 0, end = v3.size() - 8 - lod;
    const size_t launches_at = end - 2 * 8 - 8 - (8 + 2 * t.lines.size()) - (8 + sizeof(Event) * t.events.size()) -
                               (8 + 8 * t.inputs.size()) - 16 - 4;
    uint32_t count = 7;
    std::memcpy(&count, v3.data() + launches_at, 4);
    REQUIRE(count == 0);
    CHECK(v3.substr(launches_at + 4, 16) == std::string(16, '\0'));
    std::string v2 = v3.substr(0, launches_at + 4) + v3.substr(launches_at + 20, end - launches_at - 20) + v3.substr(v3.size() - 8);
    v2[8] = 2;
    std::istringstream in2(v2);
    CHECK(same_events(read_trace_binary(in2).events, t.events));
    std::string v1 = v3.substr(0, launches_at) + v3.substr(launches_at + 20, end - launches_at - 20) + v3.substr(v3.size() - 8);
    v1[8] = 1;
    std::istringstream in1(v1);
    const Trace back = read_trace_binary(in1);
    CHECK(same_events(back.events, t.events));
    CHECK(back.launches.empty());
    // 17 launches are refused before any is read.
    std::string many = v3;
    count = 17;
    std::memcpy(many.data() + launches_at, &count, 4);
    std::istringstream in17(many);
    CHECK_THROWS_WITH_AS(read_trace_binary(in17), "trace file: the trace has 17 launches, at most 16", Error);
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {
TEST_CASE("plain run: a run of one launch names its blocks without the launch") {
    // warp_sum's records as a plain run of one launch (sum<<<1, 32>>>(in, out, 32)): its out store names buffer 1.
    Recorder r = warp_sum();
    r.recs.back().pad0 = uint8_t(kOut << 1);
    const Trace t = assemble(plain_run(32, {scope("sum", 1, 32, 0)}, 528.0f), r.recs);
    CHECK(t.hazards.empty());
    REQUIRE(t.result_event != kNoEvent);
    CHECK(t.events[t.result_event].kind == EventKind::FinalStore);
    CHECK(unpack_value<float>(t.result_value) == 528.0f);
    CHECK(block_name(t, 0) == "block 0");
    CHECK(block_label(t, 0) == "block 0");
    CHECK(place_text(t, 0, 1, 0xffffu) == "block 0, warp 1, lanes 0-15");
    CHECK(place_text(t, 0, 0, 0x80000005u) == "block 0, warp 0, lanes 0, 2, 31");
}
}  // namespace
}  // namespace rl

namespace rl {
namespace {
TEST_CASE("plain run: atomics on out[0] after an earlier launch's store start from that store's value") {
    // first<<<1, 1>>>(in, out, 3): out[0] = in[0] + in[1] = 3; then add<<<1, 1>>>(in, out, 3): atomicAdd(&out[0], in[2])
    // turns 3 into 6. The chain starts from 3, not the identity: it follows launch 1's store, the result is the atomic
    // (6 = 1 + 2 + 3, the reference), and no wrong identity is found (the start is what the program stored).
    Plan p;
    const uint32_t st = p.store(0, 0, kOut, 0, p.rec(EventKind::Combine, 0, 0, p.load(0, 0, 0, 1.0f), p.load(0, 0, 1, 2.0f)));
    p.launch = 1;
    const uint32_t x = p.load(0, 0, 2, 3.0f);
    StudentRecord a;
    a.kind = EventKind::Atomic, a.launch = 1, a.dep[1] = x, a.value = f32(6.0f), a.atomic_old = f32(3.0f), a.pad0 = uint8_t(kOut << 1);
    p.r.add(a);
    const Trace t = assemble(plain_run(3, {scope("first", 1, 1, 0), scope("add", 1, 1, 1)}, 6.0f), p.r.recs);
    check_operands_first(t);
    CHECK(t.hazards.empty());
    REQUIRE(t.result_event != kNoEvent);
    const Event& r = t.events[t.result_event];
    CHECK(r.kind == EventKind::Atomic);
    CHECK(r.block == 1);
    CHECK(event_buffer(r) == 1);
    CHECK(unpack_value<float>(t.result_value) == 6.0f);
    CHECK(unpack_value<float>(t.reference_value) == 6.0f);
    REQUIRE(r.dep[0] != kNoEvent);
    CHECK(t.events[r.dep[0]].kind == EventKind::BlockPartial);  // launch 1's store stays a store
    CHECK(unpack_value<float>(t.events[r.dep[0]].value) == 3.0f);
    (void)st;
}
}  // namespace
}  // namespace rl

// ---- races between the blocks of one launch, buffer sizes, wide atomic elements (issue 32's verdicts) ------------
// Hand-made plain runs of one launch, <<<2, 1>>> over in = 1, 2: each block's thread 0 loads in[b] and writes with it.
namespace rl {
namespace {

const std::string kRaceRemedy =
    ". Combine the blocks' values with an atomic (atomicAdd, atomicMax), or store one partial per block (out[blockIdx.x]) and "
    "combine the partials in a second launch";

StudentRun one_launch(float final_out0, std::vector<uint64_t> sizes = {}) {
    StudentRun run = plain_run(2, {scope("k", 2, 1, 0)}, final_out0);
    run.buffer_elements = std::move(sizes);
    return run;
}

uint32_t ticket(Plan& p, uint32_t block, uint32_t drawn) {
    const uint32_t i = p.rec(EventKind::Ticket, block, 0);
    p.r.recs[i].aux = drawn, p.r.recs[i].atomic_old = drawn;
    return i;
}

std::vector<Hazard> of_kind(const Trace& t, HazardKind k) {
    std::vector<Hazard> out;
    for (const Hazard& h : t.hazards)
        if (h.kind == k) out.push_back(h);
    return out;
}

TEST_CASE("plain run: two blocks of one launch storing out[0] with nothing ordering them race") {
    // `if (t == 0) out[0] = v;` in both blocks: out[0] holds whichever store lands last (here block 1's 2).
    Plan p;
    for (uint32_t b = 0; b < 2; ++b) p.store(b, 0, kOut, 0, p.load(b, 0, b, float(b + 1)));
    const Trace t = assemble(one_launch(2.0f), p.r.recs);
    REQUIRE(t.hazards.size() == 1);
    const Hazard& h = t.hazards[0];
    CHECK(h.kind == HazardKind::GlobalMemoryRace);
    CHECK(h.block == 1);  // on block 1's store: the first racing store after block 0's
    CHECK(t.events[h.event].kind != EventKind::Load);
    CHECK(h.lanes == 1u);
    CHECK(h.what == "In launch 1, blocks 0 and 1 both store out[0] with nothing ordering them: CUDA runs the blocks of one "
                    "launch in no set order, so out[0] keeps whichever store happens to land last" + kRaceRemedy);
    CHECK(to_string(HazardKind::GlobalMemoryRace) == "global-memory-race");
    HazardKind back{};
    CHECK(parse_hazard_kind("global-memory-race", back));
    CHECK(back == HazardKind::GlobalMemoryRace);
    // Stores to different elements (out[b]) do not race.
    Plan q;
    for (uint32_t b = 0; b < 2; ++b) q.store(b, 0, kOut, b, q.load(b, 0, b, float(b + 1)));
    CHECK(assemble(one_launch(1.0f), q.r.recs).hazards.empty());
}

TEST_CASE("plain run: the last-block pattern's tickets order the blocks; a load before the ticket still races") {
    // Block b stores out[b], fences, draws ticket b; block 1 draws the last ticket (1), then loads out[0] and out[1] and
    // stores their sum to out[0]. Block 0's store of out[0] comes before ticket 0, block 1's accesses after ticket 1:
    // ordered, so no race and no stale read.
    auto plan = [](bool load_before_ticket) {
        Plan p;
        uint32_t st[2], v[2];
        for (uint32_t b = 0; b < 2; ++b) {
            v[b] = p.load(b, 0, b, float(b + 1));
            st[b] = p.store(b, 0, kOut, b, v[b]);
            p.rec(EventKind::Fence, b, 0);
            if (b == 0 || !load_before_ticket) ticket(p, b, b);
        }
        const uint32_t a = p.global_load(1, 0, kOut, 0, st[0]), c = p.global_load(1, 0, kOut, 1, st[1]);
        if (load_before_ticket) ticket(p, 1, 1);
        p.store(1, 0, kOut, 0, p.rec(EventKind::Combine, 1, 0, a, c));
        return p;
    };
    const Trace ok = assemble(one_launch(3.0f, {2, 2, 0}), plan(false).r.recs);
    CHECK(ok.hazards.empty());
    // Block 1 loads out[0] before its ticket: nothing orders that load after block 0's store (its store after the
    // ticket still is ordered). The finding sits on block 0's store, the only racing store.
    const Trace bad = assemble(one_launch(3.0f, {2, 2, 0}), plan(true).r.recs);
    REQUIRE(bad.hazards.size() == 1);
    const Hazard& h = bad.hazards[0];
    CHECK(h.kind == HazardKind::GlobalMemoryRace);
    CHECK(h.block == 0);
    CHECK(h.what == "In launch 1, block 0 stores out[0] and block 1 loads it with nothing ordering them: CUDA runs the blocks "
                    "of one launch in no set order, so a block may load out[0] before or after another block's store to it" +
                        kRaceRemedy);
}

TEST_CASE("plain run: a read-modify-write of out[0] by every block races; within one block it does not") {
    // `*out += v` by thread 0 of both blocks, no atomic: block 1 loads block 0's store (the emulator's order).
    Plan p;
    uint32_t last = kNoEvent;
    for (uint32_t b = 0; b < 2; ++b) {
        const uint32_t old = p.global_load(b, 0, kOut, 0, last);
        last = p.store(b, 0, kOut, 0, p.rec(EventKind::Combine, b, 0, old, p.load(b, 0, b, float(b + 1))));
    }
    const Trace t = assemble(one_launch(3.0f), p.r.recs);
    REQUIRE(t.hazards.size() == 1);  // a race, not also a stale read for block 0's load
    CHECK(t.hazards[0].kind == HazardKind::GlobalMemoryRace);
    CHECK(t.hazards[0].what == "In launch 1, blocks 0 and 1 both load and store out[0] with nothing ordering them: CUDA runs "
                               "the blocks of one launch in no set order, so a block may load out[0] before or after "
                               "another block's store to it" + kRaceRemedy);
}

TEST_CASE("plain run: an atomic's element past 8192 is kept whole, in the trace and both trace files") {
    // Block 0 stores out[9000] = in[0]; block 1 applies atomicAdd(&out[9000], in[1]). 9000 modulo 8192 is 808: an
    // element kept only in the detail bits would name out[808] and miss the race with the store.
    Plan p;
    p.store(0, 0, kOut, 9000, p.load(0, 0, 0, 1.0f));
    const uint32_t x = p.load(1, 0, 1, 2.0f);
    const uint32_t a = p.rec(EventKind::Atomic, 1, 0, kNoEvent, x);
    p.r.recs[a].detail = 9000, p.r.recs[a].pad0 = uint8_t(kOut << 1), p.r.recs[a].value = f32(3.0f), p.r.recs[a].atomic_old = f32(1.0f);
    const Trace t = assemble(one_launch(0.0f, {2, 9001, 0}), p.r.recs);
    uint32_t atomic = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Atomic) atomic = i;
    REQUIRE(atomic != kNoEvent);
    CHECK((t.events[atomic].detail & kDetailAtomicElement) == 808u);
    CHECK(atomic_element(t, atomic) == 9000u);
    const auto races = of_kind(t, HazardKind::GlobalMemoryRace);
    REQUIRE(races.size() == 1);
    CHECK(races[0].what == "In launch 1, block 0 stores out[9000] and block 1 applies an atomic to it with nothing ordering "
                           "them: CUDA runs the blocks of one launch in no set order, so an atomic may come before or after "
                           "the plain store, which then overwrites it" + kRaceRemedy);
    std::stringstream js;
    write_trace_json(js, t);
    const std::string text = js.str();
    CHECK(text.find("\"element\":9000") != std::string::npos);
    const Trace a2 = read_trace_json(js);
    CHECK(atomic_element(a2, atomic) == 9000u);
    CHECK(a2.buffer_elements == std::vector<uint64_t>{2, 9001, 0});
    Trace rechecked = a2;
    attach_checked_hazards(rechecked);
    REQUIRE(of_kind(rechecked, HazardKind::GlobalMemoryRace).size() == 1);
    CHECK(of_kind(rechecked, HazardKind::GlobalMemoryRace)[0].what == races[0].what);
    std::stringstream bin;
    write_trace_binary(bin, t);
    const Trace b2 = read_trace_binary(bin);
    CHECK(atomic_element(b2, atomic) == 9000u);
    CHECK(b2.buffer_elements == t.buffer_elements);
    // An element that does not agree with the detail bits (9001 is 809 modulo 8192), or a buffer size that leaves the
    // store outside, is refused in one line.
    auto edit = [&](const std::string& from, const std::string& to) {
        std::string s = text;
        const size_t at = s.find(from);
        REQUIRE(at != std::string::npos);
        return s.replace(at, from.size(), to);
    };
    CHECK(json_error(edit("\"element\":9000", "\"element\":9001")) ==
          "trace JSON: the wide atomic element of event " + std::to_string(atomic) + " (9001) does not match its detail bits (808, the element modulo 8192)");
    CHECK(json_error(edit("\"element\":9000", "\"element\":809")).find("\"element\" 809 does not match its \"detail\" bits (808)") != std::string::npos);
    const std::string small = json_error(edit("9001,", "9000,"));
    CHECK(small.find("uses out[9000], outside its 9000 elements") != std::string::npos);
    CHECK(json_error(edit("\"buffer_elements\": [", "\"buffer_elements\": [1,1,1,1,1,1,")).find("at most 8 element counts") != std::string::npos);
}

TEST_CASE("plain run: an out-of-bounds read names the buffer's size when the runner gave it") {
    // As "out-of-bounds reads in the second launch": tmp has 2 elements (the largest grid), thread 0 reads tmp[5].
    Plan p = two_launches();
    p.launch = 1;
    const uint32_t b = p.global_load(0, 0, kTmp, 5, kNoEvent);
    p.r.recs[b].flags = kUndefined, p.r.recs[b].pad0 |= 0x10;
    StudentRun run = plain_run(8, two_scopes(), 36.0f);
    run.buffer_elements = {8, 1, 2};
    const Trace t = assemble(run, p.r.recs);
    REQUIRE(t.hazards.size() == 1);
    CHECK(t.hazards[0].what ==
          "In launch 2, block 0, warp 0, lane 0: thread 0 reads tmp[5], outside tmp's 2 elements: the value is undefined");
    // A size that would put an unmarked access outside its buffer is the runner's mistake: refused.
    run.buffer_elements = {8, 1, 1};
    CHECK_THROWS_WITH_AS(assemble(run, p.r.recs), doctest::Contains("the run's buffers: event"), Error);
}

}  // namespace
}  // namespace rl

// ---- a program's own input in a trace's schedule ----------------------------------------------------------------
namespace rl {
namespace {
TEST_CASE("schedule: input `program` reads and writes, survives both trace files, and no schedule draws it") {
    Schedule s;
    CHECK(set_field(s, "input", "program").empty());
    CHECK(s.input.kind == InputKind::Program);
    CHECK(to_string(InputKind::Program) == "program");
    bool named = false;
    for (const auto& [name, value] : schedule_fields(s)) named = named || (name == "input" && value == "program");
    CHECK(named);
    CHECK(validate(s).empty());
    CHECK_THROWS_WITH_AS(make_input(s), doctest::Contains("--input program: those values came from a program's main()"), Error);
    // A plain run's trace with a program's input: the schedule keeps `program`, the inputs the values.
    Plan p;
    for (uint32_t b = 0; b < 2; ++b) p.store(b, 0, kOut, b, p.load(b, 0, b, float(b + 1)));
    Trace t = assemble(one_launch(1.0f, {2, 2, 0}), p.r.recs);
    t.schedule.input.kind = InputKind::Program;
    std::stringstream js, bin;
    write_trace_json(js, t);
    CHECK(js.str().find("\"input\": \"program\"") != std::string::npos);
    CHECK(read_trace_json(js).schedule.input.kind == InputKind::Program);
    write_trace_binary(bin, t);
    CHECK(read_trace_binary(bin).schedule.input.kind == InputKind::Program);
}
}  // namespace
}  // namespace rl

// The global-memory-race rule's flags (a fence, then a store another block's load observes) and its cost.
namespace rl {
namespace {

// A look-back chain over three blocks of one thread: block b waits for tmp[b-1] (its load sees block b-1's flag),
// loads out[0], stores out[0] + in[b], (with `fence`) __threadfence(), then stores its flag tmp[b] = 1. Block 2 waits
// only for block 1: block 0's store of out[0] is ordered before block 2's accesses through block 1 alone.
Trace look_back(bool fence) {
    Plan p;
    uint32_t flag = kNoEvent, last = kNoEvent;
    for (uint32_t b = 0; b < 3; ++b) {
        const uint32_t v = p.load(b, 0, b, float(b + 1));
        if (b > 0) p.global_load(b, 0, kTmp, b - 1, flag);
        const uint32_t old = p.global_load(b, 0, kOut, 0, last);
        last = p.store(b, 0, kOut, 0, p.rec(EventKind::Combine, b, 0, old, v));
        if (fence) p.rec(EventKind::Fence, b, 0);
        flag = p.store(b, 0, kTmp, b, v);
    }
    StudentRun run = plain_run(3, {scope("chained", 3, 1, 0)}, 6.0f);
    run.buffer_elements = {3, 1, 3};
    return assemble(run, p.r.recs);
}

TEST_CASE("plain run: a look-back chain (fence, then a flag the next block waits for) orders the blocks") {
    const Trace ok = look_back(true);
    CHECK(ok.hazards.empty());
    CHECK(ok.notes.empty());
    // Without the fence the flag orders nothing (CUDA may make tmp[b] visible before out[0]): block b+1 may read an
    // out[0] older than block b's store, so out[0] is a race among all three blocks (and each flag too).
    const Trace bad = look_back(false);
    const auto races = of_kind(bad, HazardKind::GlobalMemoryRace);
    REQUIRE(races.size() == 3);
    CHECK(races[0].what.rfind("In launch 1, block 0 stores tmp[0] and block 1 loads it", 0) == 0);
    CHECK(races[1].what == "In launch 1, blocks 0-2 all load and store out[0] with nothing ordering them: CUDA runs the "
                           "blocks of one launch in no set order, so a block may load out[0] before or after another block's "
                           "store to it" + kRaceRemedy);
    CHECK(races[2].what.rfind("In launch 1, block 1 stores tmp[1] and block 2 loads it", 0) == 0);
}

TEST_CASE("plain run: a fence after the flag's store does not release what came before the flag") {
    // Block 0 stores out[0], then its flag, then fences: block 1's load of out[0] is not ordered after that store.
    Plan p;
    const uint32_t v0 = p.load(0, 0, 0, 1.0f);
    const uint32_t st = p.store(0, 0, kOut, 0, v0);
    const uint32_t flag = p.store(0, 0, kTmp, 0, v0);
    p.rec(EventKind::Fence, 0, 0);
    p.global_load(1, 0, kTmp, 0, flag);
    p.store(1, 0, kOut, 0, p.rec(EventKind::Combine, 1, 0, p.global_load(1, 0, kOut, 0, st), p.load(1, 0, 1, 2.0f)));
    const Trace t = assemble(one_launch(3.0f, {2, 1, 1}), p.r.recs);
    const auto races = of_kind(t, HazardKind::GlobalMemoryRace);
    REQUIRE(races.size() == 2);
    CHECK(races[0].what.rfind("In launch 1, block 0 stores tmp[0] and block 1 loads it", 0) == 0);
    CHECK(races[1].what.rfind("In launch 1, blocks 0 and 1 both store out[0] and block 1 loads it", 0) == 0);
}

// quad.cu's shape: `blocks` blocks of one thread each atomicAdd in[b] into out[0], fence, draw ticket b; the last block
// then loads out[0] and stores it plus in[0] (`store_first`: stores before its ticket, unordered with the others).
Trace atomics_then_last_store(uint32_t blocks, bool store_first) {
    Plan p;
    float sum = 0.0f;
    for (uint32_t b = 0; b < blocks; ++b) {
        const uint32_t x = p.load(b, 0, b, 1.0f);
        const uint32_t a = p.rec(EventKind::Atomic, b, 0, kNoEvent, x);  // the runner links the chain
        p.r.recs[a].detail = 0, p.r.recs[a].pad0 = uint8_t(kOut << 1), p.r.recs[a].atomic_old = f32(sum);
        sum += 1.0f;
        p.r.recs[a].value = f32(sum);
        p.rec(EventKind::Fence, b, 0);
        auto last_store = [&] {
            p.store(b, 0, kOut, 0, p.rec(EventKind::Combine, b, 0, p.global_load(b, 0, kOut, 0, kNoEvent), p.load(b, 0, 0, 1.0f)));
        };
        if (b + 1 == blocks && store_first) last_store();
        ticket(p, b, b);
        if (b + 1 == blocks && !store_first) last_store();
    }
    StudentRun run = plain_run(blocks, {scope("k", blocks, 1, 0)}, sum + 1.0f);
    run.buffer_elements = {blocks, 1, 0};
    return assemble(run, p.r.recs);
}

TEST_CASE("plain run: many atomics on out[0] and one ticket-ordered store are compared in linear work") {
    // 65536 atomics and one store: comparing every pair was 2^31 steps (seconds); each access against the one store
    // is 65538. The store comes after every block's ticket: no race, and no budget note.
    const Trace t = atomics_then_last_store(65536, false);
    CHECK(of_kind(t, HazardKind::GlobalMemoryRace).empty());
    CHECK(std::none_of(t.notes.begin(), t.notes.end(), [](const Hazard& h) { return h.kind == HazardKind::RaceCheckIncomplete; }));
    // Stored before its ticket, the last block's store is unordered with every other block's atomic.
    const Trace bad = atomics_then_last_store(4096, true);
    const auto races = of_kind(bad, HazardKind::GlobalMemoryRace);
    REQUIRE(races.size() == 1);
    CHECK(races[0].what.rfind("In launch 1, block 4095 stores out[0] and blocks 0-4094 apply atomics to it", 0) == 0);
}

TEST_CASE("plain run: the race rule's budget running out is a note naming the elements not compared") {
    const Trace t = atomics_then_last_store(8, true);
    // 10 accesses of out[0] (8 atomics, a load, the store): the store against them is 10 pairs.
    const Findings whole = check_findings(t, 10);
    REQUIRE(whole.hazards.size() == 1);
    auto incomplete = [](const Hazard& h) { return h.kind == HazardKind::RaceCheckIncomplete; };
    CHECK(std::none_of(whole.notes.begin(), whole.notes.end(), incomplete));
    const Findings cut = check_findings(t, 9);
    REQUIRE(cut.hazards.size() == 1);  // the race found before the budget ran out is still reported
    const auto note = std::find_if(cut.notes.begin(), cut.notes.end(), incomplete);
    REQUIRE(note != cut.notes.end());
    CHECK(is_note(HazardKind::RaceCheckIncomplete));
    CHECK(note->what == "the global-memory-race rule examines at most 9 pairs of accesses and stopped: 1 element was not "
                        "(wholly) compared (out[0] of launch 1), so a race there would not be reported");
}

}  // namespace
}  // namespace rl
