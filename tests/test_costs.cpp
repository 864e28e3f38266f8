// tests/test_costs.cpp — bank-conflict degrees, divergent warp-steps and idle lanes (core/costs.h) on hand-built traces,
// every expected number derived by hand in the comments.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cost_notes.h"
#include "core/costs.h"

using namespace rl;

namespace {
namespace costs_trace {  // named: a unity build puts this file beside other tests' helpers

Event cost_event(EventKind kind, uint16_t step, uint16_t thread, uint16_t detail = 0, uint32_t aux = 0, uint32_t block = 0) {
    Event e{};
    e.kind = kind;
    e.step = step;
    e.thread = thread;
    e.detail = detail;
    e.aux = aux;
    e.block = block;
    e.dep[0] = e.dep[1] = kNoEvent;
    return e;
}

// A student's kernel (it has a file and a line per event): one block of `threads`, grid 1.
struct Builder {
    Trace t;
    explicit Builder(uint32_t threads, DType type = DType::I32) {
        t.schedule.n = threads;
        t.schedule.block = threads;
        t.schedule.type = type;
        t.grid = 1;
        t.kernel_file = "hand.cu";
    }
    void add(const Event& e, uint16_t line) {
        t.events.push_back(e);
        t.lines.push_back(line);
        t.step_count = std::max<uint16_t>(t.step_count, uint16_t(e.step + 1));
    }
};

std::vector<uint32_t> slots(uint32_t lanes, uint32_t stride, uint32_t offset = 0) {
    std::vector<uint32_t> s;
    for (uint32_t l = 0; l < lanes; ++l) s.push_back(offset + stride * l);
    return s;
}

uint32_t degree(const std::vector<uint32_t>& s, uint32_t bytes) { return bank_conflict_degree(s.data(), uint32_t(s.size()), bytes); }

}  // namespace costs_trace
}  // namespace

using namespace costs_trace;

TEST_CASE("bank conflict degree: distinct 4-byte words per bank, broadcasts free") {
    CHECK(degree({}, 4) == 0);
    CHECK(degree(slots(32, 1), 4) == 1);        // words 0..31: one per bank
    CHECK(degree(slots(32, 2), 4) == 2);        // words 0,2,..,62: the 16 even banks hold two each
    CHECK(degree(slots(32, 4), 4) == 4);        // words 0,4,..,124: banks 0,4,..,28 hold four each
    CHECK(degree(slots(16, 4), 4) == 2);        // 16 lanes: words 0..60 by 4, banks 0..28 by 4 twice
    CHECK(degree(slots(8, 32), 4) == 8);        // words 0,32,..,224: all in bank 0
    CHECK(degree(slots(32, 0), 4) == 1);        // every lane reads word 0: one broadcast
    CHECK(degree({0, 0, 32, 32, 64}, 4) == 3);  // words 0, 32, 64 in bank 0; the repeats are broadcasts
    CHECK(degree(slots(32, 1, 7), 4) == 1);     // a shift by whole words only renames the banks
    // double: slot s covers words 2s and 2s+1
    CHECK(degree(slots(32, 1), 8) == 2);   // 64 words, two per bank (a warp of doubles needs two passes)
    CHECK(degree(slots(16, 1), 8) == 1);   // 32 words: one per bank
    CHECK(degree(slots(4, 16), 8) == 4);   // words 32l and 32l+1: banks 0 and 1, four each
    // 2-byte slots: two share a word
    CHECK(degree(slots(64, 1), 2) == 1);
    CHECK(degree(slots(32, 32), 2) == 16);  // bytes 64l, words 16l: banks 0 and 16, sixteen words each
}

TEST_CASE("shared slot size from the trace: the kernel's element type, or the generated kernel's Value") {
    Trace t;
    t.kernel_file = "k.cu";
    t.schedule.type = DType::F64;
    CHECK(shared_slot_bytes(t) == 8);
    t.schedule.type = DType::F32;
    CHECK(shared_slot_bytes(t) == 4);
    t.kernel_file.clear();  // the lab's own schedules
    t.schedule.op = Op::ArgMax;
    CHECK(shared_slot_bytes(t) == 8);   // struct alignas(8) { float value; unsigned index; }
    t.schedule.type = DType::F64;
    CHECK(shared_slot_bytes(t) == 16);  // { double value; unsigned index; } padded to 16
    t.schedule.op = Op::Sum;
    CHECK(shared_slot_bytes(t) == 8);
    t.schedule.type = DType::BF16;
    CHECK(shared_slot_bytes(t) == 4);   // bf16 accumulates in float
}

TEST_CASE("bank conflicts per warp access of a hand-built trace") {
    Builder b(64);
    // step 1, line 10: warp 0 loads slot 2l (Harris 2, first level: 2-way), warp 1 slot l (none)
    for (uint16_t l = 0; l < 32; ++l) b.add(cost_event(EventKind::SharedLoad, 1, l, uint16_t(2 * l)), 10);
    for (uint16_t l = 0; l < 32; ++l) b.add(cost_event(EventKind::SharedLoad, 1, uint16_t(32 + l), uint16_t(32 + l)), 10);
    // step 2, line 11: warp 0 lanes 0-7 store slot 32l: 8-way
    for (uint16_t l = 0; l < 8; ++l) b.add(cost_event(EventKind::SharedStore, 2, l, uint16_t(32 * l)), 11);
    const CostReport c = compute_costs(b.t);
    REQUIRE(c.accesses.size() == 3);
    CHECK(c.accesses[0].degree == 2);
    CHECK(c.accesses[0].lanes == 32);
    CHECK(c.accesses[1].degree == 1);
    CHECK(c.accesses[1].warp == 1);
    CHECK(c.accesses[2].degree == 8);
    CHECK(c.accesses[2].kind == EventKind::SharedStore);
    CHECK(c.steps[1].max_degree == 2);
    CHECK(c.steps[1].accesses == 2);
    CHECK(c.steps[1].conflicted == 1);
    CHECK(c.steps[2].max_degree == 8);
    CHECK(c.steps[2].worst_line == 11);
    CHECK(c.shared_accesses == 3);
    CHECK(c.conflicted == 2);
    CHECK(c.passes == 2 + 1 + 8);
    CHECK(c.max_degree == 8);
    CHECK(c.worst_line == 11);
}

TEST_CASE("two loads of one lane on one step are two instructions, not one access of twice the lanes") {
    // The lab's schedules record a level's x = s[l] and y = s[l + 32] on one step, without lines: each is one pass;
    // taken together the 64 words would put two in every bank.
    Trace t;
    t.schedule.n = 32;
    t.schedule.block = 32;
    t.grid = 1;
    for (uint16_t l = 0; l < 32; ++l) {
        t.events.push_back(cost_event(EventKind::SharedLoad, 0, l, l));
        t.events.push_back(cost_event(EventKind::SharedLoad, 0, l, uint16_t(l + 32)));
    }
    t.step_count = 1;
    const CostReport c = compute_costs(t);
    REQUIRE(c.accesses.size() == 2);
    CHECK(c.accesses[0].degree == 1);
    CHECK(c.accesses[1].degree == 1);
    CHECK(c.conflicted == 0);
    CHECK_FALSE(c.has_lines);
}

TEST_CASE("divergent warp-steps per line and idle lanes per step") {
    // A block of 48 threads: warp 0 has 32 lanes, warp 1 lanes 32-47 (16 launched, 16 never).
    Builder b(48);
    for (uint16_t th = 0; th < 48; ++th) b.add(cost_event(EventKind::Load, 0, th, 0, th), 5);
    // step 1, line 7: warp 0 lanes 0-15 only (16-31 live, silent: split); warp 1 all its 16 lanes (not split)
    for (uint16_t th = 0; th < 16; ++th) b.add(cost_event(EventKind::Combine, 1, th), 7);
    for (uint16_t th = 32; th < 48; ++th) b.add(cost_event(EventKind::Combine, 1, th), 7);
    // step 2, line 9: warp 0 all; warp 1 lanes 32-39 (40-47 recorded last at step 1: exited, so not split)
    for (uint16_t th = 0; th < 40; ++th) b.add(cost_event(EventKind::SharedStore, 2, th, th), 9);
    // step 3: warp 0 lanes 0-7 at line 11, lanes 8-31 at line 12 (one warp-step split, at both lines)
    for (uint16_t th = 0; th < 32; ++th) b.add(cost_event(EventKind::SharedLoad, 3, th, th), th < 8 ? 11 : 12);
    const CostReport c = compute_costs(b.t);
    REQUIRE(c.steps.size() == 4);
    CHECK(c.divergent_warp_steps == 2);
    CHECK(c.steps[0].divergent_warps == 0);
    CHECK(c.steps[1].divergent_warps == 1);
    CHECK(c.steps[2].divergent_warps == 0);
    CHECK(c.steps[3].divergent_warps == 1);
    auto at = [&](uint32_t line) {
        for (const LineCost& l : c.lines)
            if (l.line == line) return l.divergent_warp_steps;
        return uint64_t(0);
    };
    CHECK(at(5) == 0);
    CHECK(at(7) == 1);
    CHECK(at(9) == 0);
    CHECK(at(11) == 1);
    CHECK(at(12) == 1);
    // Lane slots: 2 warps x 32 on every step 0-3. Recording: 48, 16 + 16, 32 + 8, 32.
    // Live (launched, not past their last event): 48, 48, 40 (40-47 done), 32 (32-39 done).
    const uint64_t active[4] = {48, 32, 40, 32}, live[4] = {48, 48, 40, 32};
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        CHECK(c.steps[size_t(s)].lanes == 64);
        CHECK(c.steps[size_t(s)].active == active[s]);
        CHECK(c.steps[size_t(s)].live == live[s]);
        CHECK(c.steps[size_t(s)].idle() == 64 - active[s]);
    }
    CHECK(c.steps[1].waiting() == 16);
    CHECK(c.lane_steps == 256);
    CHECK(c.active_lane_steps == 152);
    CHECK(c.live_lane_steps == 168);
}

TEST_CASE("a barrier speaks for the lanes it names; an exit is no activity but keeps its lane alive until then") {
    // One warp: all load at step 0; at step 1 lanes 0-15 arrive at __syncthreads() (line 8) and lanes 16-31, which
    // skipped it alive, exit (line 12). The warp is split at line 8; half its lanes idle, all alive.
    Builder b(32);
    for (uint16_t th = 0; th < 32; ++th) b.add(cost_event(EventKind::Load, 0, th, 0, th), 4);
    b.add(cost_event(EventKind::Barrier, 1, 0, 0, 0x0000ffffu), 8);
    for (uint16_t th = 16; th < 32; ++th) b.add(cost_event(EventKind::Exit, 1, th), 12);
    const CostReport c = compute_costs(b.t);
    CHECK(c.steps[1].active == 16);
    CHECK(c.steps[1].live == 32);
    CHECK(c.steps[1].divergent_warps == 1);
    REQUIRE(c.lines.size() == 1);
    CHECK(c.lines[0].line == 8);
    CHECK(c.lines[0].divergent_warp_steps == 1);
    CHECK(c.shared_accesses == 0);
}

TEST_CASE("idle lanes count only the blocks running on a step: a second launch of fewer threads") {
    // The lab's two-pass: grid 1 of 64 threads (steps 0-1), then the second launch, block == grid, of 32 threads
    // (finish_threads) on steps 2-3, lane 0 alone at step 3.
    Trace t;
    t.schedule.n = 64;
    t.schedule.block = 64;
    t.grid = 1;
    t.finish_threads = 32;
    for (uint16_t th = 0; th < 64; ++th) t.events.push_back(cost_event(EventKind::Load, 0, th, 0, th));
    t.events.push_back(cost_event(EventKind::BlockPartial, 1, 0));
    for (uint16_t th = 0; th < 32; ++th) t.events.push_back(cost_event(EventKind::PartialLoad, 2, th, 0, 0, 1));
    t.events.push_back(cost_event(EventKind::FinalStore, 3, 0, 0, 0, 1));
    t.step_count = 4;
    const CostReport c = compute_costs(t);
    const uint64_t lanes[4] = {64, 64, 32, 32}, active[4] = {64, 1, 32, 1}, live[4] = {64, 1, 32, 1};
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        CHECK(c.steps[size_t(s)].lanes == lanes[s]);
        CHECK(c.steps[size_t(s)].active == active[s]);
        CHECK(c.steps[size_t(s)].live == live[s]);
    }
    CHECK(c.divergent_warp_steps == 0);  // lane 0 alone, but every other lane had exited
}

TEST_CASE("cost notes: calm lines, with the numbers of the report") {
    Builder b(32);
    for (uint16_t l = 0; l < 32; ++l) b.add(cost_event(EventKind::SharedLoad, 0, l, uint16_t(4 * l)), 10);
    const CostReport c = compute_costs(b.t);
    const std::vector<std::string> notes = cost_note_lines(c);
    REQUIRE(notes.size() == 3);
    for (const std::string& n : notes) CHECK(n.rfind("note: ", 0) == 0);
    CHECK(notes[0].find("1 of 1 shared-memory accesses") != std::string::npos);
    CHECK(notes[0].find("up to 4-way at line 10") != std::string::npos);
    CHECK(notes[1].find("divergence: none") != std::string::npos);
    CHECK(notes[2].find("0 of 32 lane-steps") != std::string::npos);
    const nlohmann::json j = costs_json(c);
    CHECK(j["shared"]["max_degree"] == 4);
    CHECK(j["steps"][0]["max_degree"] == 4);
    CHECK(j["idle_lane_steps"] == 0);
}

TEST_CASE("the same numbers whatever order the trace lists its events in") {
    // The 48-thread trace above, listed thread by thread (one block: sorted block by block), and the bank-conflict trace in
    // two blocks whose events alternate (sorted over the whole trace): the hand-derived numbers again.
    Builder b(48);
    for (uint16_t th = 0; th < 48; ++th) b.add(cost_event(EventKind::Load, 0, th, 0, th), 5);
    for (uint16_t th = 0; th < 16; ++th) b.add(cost_event(EventKind::Combine, 1, th), 7);
    for (uint16_t th = 32; th < 48; ++th) b.add(cost_event(EventKind::Combine, 1, th), 7);
    for (uint16_t th = 0; th < 40; ++th) b.add(cost_event(EventKind::SharedStore, 2, th, th), 9);
    for (uint16_t th = 0; th < 32; ++th) b.add(cost_event(EventKind::SharedLoad, 3, th, th), th < 8 ? 11 : 12);
    {  // thread by thread, each thread's events in program order (as the emulator lists a block's)
        std::vector<size_t> at(b.t.events.size());
        for (size_t i = 0; i < at.size(); ++i) at[i] = i;
        std::stable_sort(at.begin(), at.end(), [&](size_t x, size_t y) { return b.t.events[x].thread < b.t.events[y].thread; });
        std::vector<Event> ev;
        std::vector<uint16_t> ln;
        for (size_t i : at) ev.push_back(b.t.events[i]), ln.push_back(b.t.lines[i]);
        b.t.events = ev;
        b.t.lines = ln;
    }
    const CostReport c = compute_costs(b.t);
    CHECK(c.divergent_warp_steps == 2);
    CHECK(c.steps[1].divergent_warps == 1);
    CHECK(c.steps[3].divergent_warps == 1);
    CHECK(c.active_lane_steps == 152);
    CHECK(c.live_lane_steps == 168);
    CHECK(c.shared_accesses == 4);  // step 2: warp 0's and warp 1's stores; step 3: warp 0's loads at lines 11 and 12

    Builder two(64);
    two.t.schedule.n = 128;
    two.t.grid = 2;
    for (uint32_t blk = 0; blk < 2; ++blk)
        for (uint16_t l = 0; l < 32; ++l) {  // block 0's lane l, then block 1's: blocks alternate event by event
            Event e = cost_event(EventKind::SharedLoad, 1, l, uint16_t(2 * l), 0, 0);
            two.add(e, 10);
            e.block = 1;
            two.add(e, 10);
            if (blk == 1) break;
        }
    // Each block: lanes 0-31 at slots 2l (2-way), then lane 0 once more at slot 0 (the pass with blk 1): its second
    // access there, a second instruction of one lane (degree 1).
    const CostReport d = compute_costs(two.t);
    REQUIRE(d.accesses.size() == 4);
    CHECK(d.accesses[0].block == 0);
    CHECK(d.accesses[0].degree == 2);
    CHECK(d.accesses[0].lanes == 32);
    CHECK(d.accesses[1].block == 0);
    CHECK(d.accesses[1].degree == 1);
    CHECK(d.accesses[1].lanes == 1);
    CHECK(d.accesses[2].block == 1);
    CHECK(d.accesses[2].degree == 2);
    CHECK(d.accesses[3].lanes == 1);
}
