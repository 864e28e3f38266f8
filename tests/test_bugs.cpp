// tests/test_bugs.cpp — each of the 12 injectable bugs: the checker, given the trace with the bug names
// and hazards removed, finds exactly the hazards stated here (kind, event, block, warp, lanes), derived
// from the schedule's geometry; with the bug off it finds none. The lab shows the same list.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <set>
#include <sstream>

#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"
#include "stripped_trace.h"
#include "support/helpers.h"

using namespace rl;
using rl::testing::stripped;
using rl::test::with;

namespace {

struct Expected {
    HazardKind kind;
    uint32_t block, warp, lanes;
    std::function<bool(const Event&)> at;  // the hazard sits at the first event (by index) matching this
};

struct Found {
    HazardKind kind;
    uint32_t event, block, warp, lanes;
    bool operator<(const Found& o) const {
        return std::tie(event, kind, lanes) < std::tie(o.event, o.kind, o.lanes);
    }
    bool operator==(const Found& o) const {
        return kind == o.kind && event == o.event && block == o.block && warp == o.warp && lanes == o.lanes;
    }
};

std::string show(const std::vector<Found>& v) {
    std::ostringstream out;
    for (const Found& f : v)
        out << to_string(f.kind) << " ev " << f.event << " b" << f.block << " w" << f.warp << " lanes 0x" << std::hex
            << f.lanes << std::dec << "\n";
    return out.str();
}

// The checker's findings on the stripped trace equal the expected list (a note kind among the notes, every
// other kind among the hazards), and the emulator's attached hazards and notes are exactly those.
void expect_exactly(const Trace& t, const std::vector<Expected>& expected) {
    std::vector<Found> want;
    for (const Expected& x : expected) {
        uint32_t ev = kNoEvent;
        for (uint32_t i = 0; i < t.events.size() && ev == kNoEvent; ++i)
            if (x.at(t.events[i])) ev = i;
        REQUIRE_MESSAGE(ev != kNoEvent, "no event matches an expected " << to_string(x.kind) << " hazard");
        want.push_back({x.kind, ev, x.block, x.warp, x.lanes});
    }
    std::vector<Found> got;
    const Findings f = check_findings(stripped(t));
    for (const Hazard& h : f.hazards) {
        CHECK_FALSE(is_note(h.kind));
        got.push_back({h.kind, h.event, h.block, h.warp, h.lanes});
    }
    for (const Hazard& h : f.notes) {
        CHECK(is_note(h.kind));
        got.push_back({h.kind, h.event, h.block, h.warp, h.lanes});
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    INFO("expected:\n" << show(want) << "found:\n" << show(got));
    CHECK(got == want);
    std::vector<Found> shown;
    for (const auto* list : {&t.hazards, &t.notes})
        for (const Hazard& h : *list) shown.push_back({h.kind, h.event, h.block, h.warp, h.lanes});
    std::sort(shown.begin(), shown.end());
    CHECK(shown == got);
    // kHazard marks exactly the events of the hazards (a grouped hazard flags each lane's event); a note marks none.
    for (const Hazard& h : t.hazards) CHECK((t.events[h.event].flags & kHazard) != 0);
    for (const Hazard& h : t.notes) CHECK((t.events[h.event].flags & kHazard) == 0);
}

struct Case {
    Trace on, off;
    Analysis a_on, a_off;
};

Case run(Schedule s, Bug bug) {
    Case c;
    REQUIRE(validate(s) == "");
    c.off = emulate(s);
    c.a_off = analyze(c.off);
    s.bugs = uint16_t(bug);
    REQUIRE(validate(s) == "");
    c.on = emulate(s);
    c.a_on = analyze(c.on);
    // With the bug off, the rules find nothing, and the result is right.
    CHECK(check_trace(stripped(c.off)).empty());
    CHECK(c.off.hazards.empty());
    CHECK(c.off.notes.empty());
    CHECK((c.a_off.verdict == Verdict::Exact || c.a_off.verdict == Verdict::WithinBound));
    return c;
}

bool in_scope(const Trace& t, const Event& e, Scope s) { return scope_of(t, e) == s; }

// The first shuffle of (block, warp) at `offset` in a scope whose reading lane is in `lanes`.
std::function<bool(const Event&)> shuffle_at(const Trace& t, Scope scope, uint32_t warp, uint32_t offset,
                                             uint32_t lanes = 0xffffffffu) {
    return [&t, scope, warp, offset, lanes](const Event& e) {
        return e.kind == EventKind::Shuffle && e.block == 0 && e.warp() == warp && e.shuffle_offset() == offset &&
               (lanes >> e.lane() & 1u) && in_scope(t, e, scope);
    };
}

// Lanes l < width reading lane l + offset in [width, 32): sources that do not hold a participant.
uint32_t readers_past(uint32_t width, uint32_t offset) {
    uint32_t m = 0;
    for (uint32_t l = 0; l < width; ++l)
        if (l + offset >= width && l + offset < 32) m |= 1u << l;
    return m;
}

}  // namespace

TEST_CASE("bug full-mask-partial-warp: lanes never launched are no mask violation; reading them is undefined") {
    // 40 threads: warp 1 has lanes 0-7; lanes 8-31 were never launched (exited). The block stage reduces
    // the 2 warp partials with lanes 0-1 of warp 0 under the same full mask: lanes 2-31 exist and skip it.
    Case c = run(with(40, 40), Bug::FullMaskPartialWarp);
    std::vector<Expected> x;
    for (uint32_t off : {16u, 8u, 4u, 2u, 1u}) {
        const uint32_t r = readers_past(8, off);
        x.push_back({HazardKind::ReadFromNonParticipatingLane, 0, 1, r, shuffle_at(c.on, Scope::Warp, 1, off, r)});
        x.push_back({HazardKind::MaskNamesInactiveLanes, 0, 0, 0xfffffffcu, shuffle_at(c.on, Scope::Block, 0, off)});
        const uint32_t rb = readers_past(2, off);
        x.push_back({HazardKind::ReadFromNonParticipatingLane, 0, 0, rb, shuffle_at(c.on, Scope::Block, 0, off, rb)});
    }
    expect_exactly(c.on, x);
    for (const Hazard& h : c.on.hazards) {
        if (h.kind == HazardKind::MaskNamesInactiveLanes) CHECK(h.what.find("exist but do not execute") != std::string::npos);
        if (h.kind == HazardKind::ReadFromNonParticipatingLane && h.warp == 1)
            CHECK(h.what.find("never launched") != std::string::npos);
        if (h.kind == HazardKind::ReadFromNonParticipatingLane && h.warp == 0)  // lanes 16-17 ... 2-3, but lane 2 alone
            CHECK(h.what.find(std::popcount(h.lanes) == 1 ? "lane 2, which exists but did not execute"
                                                          : "exist but did not execute") != std::string::npos);
    }
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug unbounded-source: exact mask, but lanes read past the participating lanes") {
    Case c = run(with(40, 40), Bug::UnboundedSource);
    std::vector<Expected> x;
    for (uint32_t off : {16u, 8u, 4u, 2u, 1u}) {
        const uint32_t r = readers_past(8, off), rb = readers_past(2, off);
        x.push_back({HazardKind::ReadFromNonParticipatingLane, 0, 1, r, shuffle_at(c.on, Scope::Warp, 1, off, r)});
        x.push_back({HazardKind::ReadFromNonParticipatingLane, 0, 0, rb, shuffle_at(c.on, Scope::Block, 0, off, rb)});
    }
    expect_exactly(c.on, x);
    for (const Event& e : c.on.events)
        if (e.kind == EventKind::Shuffle) CHECK(e.aux == (in_scope(c.on, e, Scope::Warp) && e.warp() == 1 ? 0xffu : in_scope(c.on, e, Scope::Block) ? 0x3u : 0xffffffffu));
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug uninit-tail: threads without elements keep an uninitialised register") {
    // Threads 30-31 have no element and never write their register (no identity fill is recorded). The
    // first reads of those registers that anything uses: at offset 16, lanes 14-15 read lanes 30-31.
    // (Lanes 30-31 also receive their own value past the warp, and lanes 22-23 read them at offset 8,
    // but nothing uses those values.)
    Case c = run(with(30, 32), Bug::UninitTail);
    expect_exactly(c.on, {{HazardKind::UninitialisedTail, 0, 0, 3u << 14, shuffle_at(c.on, Scope::Warp, 0, 16, 3u << 14)}});
    for (const Event& e : c.on.events) CHECK(e.kind != EventKind::IdentityFill);
    for (const Event& e : c.on.events)
        if (e.kind == EventKind::Shuffle && e.shuffle_offset() == 16 && (e.lane() == 14 || e.lane() == 15)) {
            CHECK(e.dep[0] == kNoEvent);  // no event wrote the register it read
            CHECK(e.value == pack_value(unpack_value<float>(kPoisonBits)));
            CHECK((e.flags & kUndefined) != 0);
        }
    CHECK(c.a_on.verdict == Verdict::Undefined);
    CHECK((c.on.result_flags & kUndefined) != 0);
}

TEST_CASE("bug uninit-tail: a shared-memory warp tree stores the unwritten registers; a store-load round trip keeps them undefined") {
    Schedule s = with(30, 32);
    s.warp = WarpStage::SmemSequential;
    Case c = run(s, Bug::UninitTail);
    // threads 30-31 store their never-written registers to slots 30-31 before the first __syncwarp()
    expect_exactly(c.on, {{HazardKind::UninitialisedTail, 0, 0, 3u << 30, [](const Event& e) {
                               return e.kind == EventKind::SharedStore && e.thread == 30;
                           }}});
    // the slot's shadow is the value stored: the load of slot 30 reads that store and stays undefined,
    // and so does the combine that takes it (the other operand is defined)
    bool round_trip = false;
    for (uint32_t i = 0; i < c.on.events.size(); ++i) {
        const Event& e = c.on.events[i];
        if (e.kind != EventKind::SharedLoad || e.detail != 30) continue;
        REQUIRE(e.dep[0] != kNoEvent);
        CHECK(c.on.events[e.dep[0]].kind == EventKind::SharedStore);
        CHECK(c.on.events[e.dep[0]].thread == 30);
        CHECK((e.flags & kUndefined) != 0);
        for (const Event& u : c.on.events)
            if (u.kind == EventKind::Combine && (u.dep[0] == i || u.dep[1] == i)) {
                const uint32_t other = u.dep[0] == i ? u.dep[1] : u.dep[0];
                CHECK((c.on.events[other].flags & kUndefined) == 0);
                CHECK((u.flags & kUndefined) != 0);
                round_trip = true;
            }
    }
    CHECK(round_trip);
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug uninit-tail: the hazard follows the reads of never-written registers, not the bug's name") {
    SUBCASE("no thread lacks data: the same trace as without the bug, and no hazard") {
        for (Schedule s : {with(64, 32), with(96, 32)}) {
            s.grid = uint32_t(s.n / 32);  // every thread of every block loads an element
            CAPTURE(describe(s));
            Case c = run(s, Bug::UninitTail);
            CHECK(c.on.hazards.empty());
            CHECK(check_trace(stripped(c.on)).empty());
            REQUIRE(c.on.events.size() == c.off.events.size());
            for (size_t i = 0; i < c.on.events.size(); ++i) {
                CHECK(c.on.events[i].kind == c.off.events[i].kind);
                CHECK(c.on.events[i].value == c.off.events[i].value);
                CHECK(c.on.events[i].flags == c.off.events[i].flags);
            }
            CHECK(c.a_on.verdict == Verdict::Exact);
        }
    }
    SUBCASE("every first-pass thread has data, but the finishing block's threads past the partials do not") {
        // 4 blocks of 64 threads, 256 elements: the first pass has no tail. The block-wide tree's finishing
        // stage runs 64 threads over the 4 partials: threads 4-63 have none and store unwritten registers.
        Schedule s = with(256, 64);
        s.grid = 4;
        s.block_stage = BlockStage::SmemTreeShfl;
        Case c = run(s, Bug::UninitTail);
        expect_exactly(c.on, {{HazardKind::UninitialisedTail, 4, 0, 0xfffffff0u, [](const Event& e) {
                                   return e.kind == EventKind::SharedStore && (e.flags & kFinisher) && e.thread == 4;
                               }},
                              {HazardKind::UninitialisedTail, 4, 1, 0xffffffffu, [](const Event& e) {
                                   return e.kind == EventKind::SharedStore && (e.flags & kFinisher) && e.thread == 32;
                               }}});
        for (const Event& e : c.on.events)
            if (!(e.flags & kFinisher)) CHECK((e.flags & kUndefined) == 0);
        CHECK(c.a_on.verdict == Verdict::Undefined);
    }
}

TEST_CASE("bug wrong-identity: 0 as the identity of max over negative data gives 0") {
    Schedule s = with(30, 32);
    s.op = Op::Max;
    s.input.kind = InputKind::Values;
    for (int i = 0; i < 30; ++i) s.input.values.push_back(-1.0 - i);
    Case c = run(s, Bug::WrongIdentity);
    CHECK(c.a_off.result == -1.0);
    expect_exactly(c.on, {{HazardKind::WrongIdentity, 0, 0, 3u << 30, [](const Event& e) {
                               return e.kind == EventKind::IdentityFill && e.thread == 30;
                           }}});
    CHECK(c.a_on.result == 0.0);
    CHECK(c.a_on.verdict == Verdict::Wrong);
}

TEST_CASE("bug wrong-identity: 0 as the identity of product") {
    Schedule s = with(5, 8);
    s.op = Op::Prod;
    s.input.kind = InputKind::Values;
    s.input.values = {1, 2, 3, 4, 5};
    Case c = run(s, Bug::WrongIdentity);
    CHECK(c.a_off.result == 120.0);
    CHECK(c.a_on.result == 0.0);
    expect_exactly(c.on, {{HazardKind::WrongIdentity, 0, 0, 0xe0u, [](const Event& e) {
                               return e.kind == EventKind::IdentityFill && e.thread == 5;
                           }}});
}

TEST_CASE("bug wrong-identity: an output that starts at 0 is found at the first atomic") {
    // Two full blocks, one atomic each: no lane takes the identity, only the output's start is wrong.
    Schedule s = with(64, 32);
    s.op = Op::Max;
    s.grid_stage = GridStage::AtomicBlock;
    s.input.kind = InputKind::Values;
    for (int i = 0; i < 64; ++i) s.input.values.push_back(-1.0 - i);
    Case c = run(s, Bug::WrongIdentity);
    expect_exactly(c.on, {{HazardKind::WrongIdentity, 0, 0, 1u, [](const Event& e) {
                               return e.kind == EventKind::Atomic && e.dep[0] == kNoEvent;
                           }}});
    CHECK(c.a_on.result == 0.0);
}

TEST_CASE("bug wrong-identity: a start of 0 that never changes the result is no finding") {
    // The rule: a start e is wrong only when e ⊕ r != r for r, the reduction of the data the result combines.
    SUBCASE("max over 1..30 (iota): lanes 30-31 start from 0, max(0, 30) = 30") {
        Schedule s = with(30, 32);
        s.op = Op::Max;
        s.input.kind = InputKind::Iota;
        Case c = run(s, Bug::WrongIdentity);
        expect_exactly(c.on, {});
        CHECK(c.a_on.result == 30.0);
        CHECK(c.a_on.verdict == Verdict::Exact);
    }
    SUBCASE("prod over data holding a 0: lanes 5-7 start from 0, and 0 * 0 = 0") {
        Schedule s = with(5, 8);
        s.op = Op::Prod;
        s.input.kind = InputKind::Values;
        s.input.values = {1, 2, 0, 4, 5};
        Case c = run(s, Bug::WrongIdentity);
        expect_exactly(c.on, {});
        CHECK(c.a_on.result == 0.0);
        CHECK(c.a_on.verdict == Verdict::Exact);
    }
    SUBCASE("an atomic output that starts at 0 for max over -1..-32 and 1..32") {
        // Two blocks of 32, one atomic each (block 0 first): block 0's partial is -1, and its atomic turns it into
        // max(0, -1) = 0, so the start shows; but r = 32 and max(0, 32) = 32 = max(-1, 32): it changes nothing.
        Schedule s = with(64, 32);
        s.op = Op::Max;
        s.grid_stage = GridStage::AtomicBlock;
        s.input.kind = InputKind::Values;
        for (int i = 0; i < 64; ++i) s.input.values.push_back(i < 32 ? -1.0 - i : double(i - 31));
        Case c = run(s, Bug::WrongIdentity);
        uint32_t first = kNoEvent;
        for (uint32_t i = 0; i < c.on.events.size(); ++i)
            if (c.on.events[i].kind == EventKind::Atomic && c.on.events[i].dep[0] == kNoEvent) first = i;
        REQUIRE(first != kNoEvent);
        CHECK(c.on.events[first].block == 0);
        CHECK(unpack_value<float>(c.on.events[first].value) == 0.0f);  // the start shows in the first atomic
        expect_exactly(c.on, {});
        CHECK(c.a_on.result == 32.0);
        CHECK(c.a_on.verdict == Verdict::Exact);
    }
}

TEST_CASE("bug missing-barrier: warp 0 runs ahead and reads the partials before warps 1-3 store them") {
    SUBCASE("warp partials: lanes 1-3 load the slots of warps 1-3") {
        Case c = run(with(128, 128), Bug::MissingBarrier);
        expect_exactly(c.on, {{HazardKind::SharedMemoryRace, 0, 0, 0xeu, [](const Event& e) {
                                   return e.kind == EventKind::SharedLoad && e.thread == 1;
                               }}});
        // the stale read really happens in the trace: those loads saw no stored value
        for (const Event& e : c.on.events)
            if (e.kind == EventKind::SharedLoad && e.thread >= 1 && e.thread <= 3) CHECK(e.dep[0] == kNoEvent);
        CHECK(c.a_on.verdict == Verdict::Undefined);
    }
    SUBCASE("shared-memory tree: level 0 reads slots 1-3 (threads 0 and 1)") {
        Schedule s = with(128, 128);
        s.block_stage = BlockStage::SmemTree;
        Case c = run(s, Bug::MissingBarrier);
        // thread 0 reads its own slot 0 (fine) and slot 2; thread 1 reads slots 1 and 3.
        expect_exactly(c.on, {{HazardKind::SharedMemoryRace, 0, 0, 0x3u, [](const Event& e) {
                                   return e.kind == EventKind::SharedLoad && e.thread == 0 && e.dep[0] == kNoEvent;
                               }}});
        CHECK(c.a_on.verdict == Verdict::Undefined);
    }
}

TEST_CASE("bug divergent-barrier: __syncthreads() inside if (lane == 0) orders nothing") {
    Case c = run(with(128, 128), Bug::DivergentBarrier);
    std::vector<Expected> x;
    for (uint32_t w = 0; w < 4; ++w)
        x.push_back({HazardKind::DivergentBarrier, 0, w, 1u, [w](const Event& e) {
                         return e.kind == EventKind::Barrier && e.warp() == w;
                     }});
    // with no barrier that every thread reaches, lanes 1-3 of warp 0 race with the partial stores
    x.push_back({HazardKind::SharedMemoryRace, 0, 0, 0xeu, [](const Event& e) {
                     return e.kind == EventKind::SharedLoad && e.thread == 1;
                 }});
    expect_exactly(c.on, x);
    for (const Event& e : c.on.events)
        if (e.kind == EventKind::Barrier) CHECK(e.aux == 1u);  // only lane 0 arrives
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug grid-stride-order: a non-commutative operator loses its order at the thread stage") {
    // 2 blocks of 64 threads, 1000 elements grid-stride: every thread's first merge joins element g with
    // element g + 128, which is not adjacent: one finding per warp at the thread stage, all 32 lanes.
    Schedule s = with(1000, 64);
    s.op = Op::Witness;
    s.grid = 2;
    s.warp = WarpStage::ShflDownAsc;
    Case c = run(s, Bug::GridStrideOrder);
    std::vector<Expected> x;
    for (uint32_t b = 0; b < 2; ++b)
        for (uint32_t w = 0; w < 2; ++w)
            x.push_back({HazardKind::OrderViolation, b, w, 0xffffffffu, [b, w](const Event& e) {
                             return e.kind == EventKind::Combine && e.block == b && e.warp() == w && e.step == 1 &&
                                    !(e.flags & kFinisher);
                         }});
    expect_exactly(c.on, x);
    CHECK(c.a_on.verdict == Verdict::OrderViolated);
}

TEST_CASE("bug descending-order: shfl_down with offsets 16..1 merges lane 0 with lane 16") {
    Schedule s = with(64, 32);
    s.op = Op::Witness;
    s.warp = WarpStage::ShflDownAsc;
    s.items = 2;
    Case c = run(s, Bug::DescendingOrder);
    // lanes 0-15 each merge their range with lane l+16's: the first merges out of order
    expect_exactly(c.on, {{HazardKind::OrderViolation, 0, 0, 0x0000ffffu, [&c](const Event& e) {
                               return e.kind == EventKind::Combine && e.dep[1] != kNoEvent &&
                                      c.on.events[e.dep[1]].kind == EventKind::Shuffle &&
                                      c.on.events[e.dep[1]].shuffle_offset() == 16;
                           }}});
    CHECK(c.a_on.verdict == Verdict::OrderViolated);
}

TEST_CASE("bug atomic-per-element: correct, but one atomic per element to one address") {
    // A cost finding: a note at the head of the chain, and no hazard (the result is right).
    Case c = run(with(1000, 128), Bug::AtomicPerElement);
    CHECK(c.on.hazards.empty());
    CHECK(check_trace(stripped(c.on)).empty());
    expect_exactly(c.on, {{HazardKind::AtomicContention, 0, 0, 1u, [](const Event& e) {
                               return e.kind == EventKind::Atomic && e.dep[0] == kNoEvent;
                           }}});
    size_t atomics = 0;
    for (const Event& e : c.on.events) atomics += e.kind == EventKind::Atomic;
    CHECK(atomics == 1000);
    CHECK(c.a_on.span == 1000);  // a chain: each atomic waits for the one before
    CHECK(c.a_off.span < 20);
    CHECK((c.a_on.verdict == Verdict::Exact || c.a_on.verdict == Verdict::WithinBound));
}

namespace {

// The Harris-style warp tree, restated: at level k each listed lane reads slots a and a+stride and
// writes slot a. Without __syncwarp() between levels, two accesses to one slot by different lanes at
// any levels are unordered (only the first stores, before the kept sync, are ordered).
struct Access { uint32_t level, lane, slot; bool store; };
std::vector<Access> harris_accesses(WarpStage w) {
    std::vector<Access> out;
    for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t stride = w == WarpStage::SmemSequential ? (16u >> k) : (1u << k);
        for (uint32_t l = 0; l < 32; ++l) {
            uint32_t a;
            if (w == WarpStage::SmemDivergent) {
                if (l % (2 * stride)) continue;
                a = l;
            } else if (w == WarpStage::SmemStrided) {
                a = 2 * stride * l;
            } else {
                if (l >= stride) continue;
                a = l;
            }
            if (a + stride >= 32) continue;
            out.push_back({k, l, a, false});
            out.push_back({k, l, a + stride, false});
            out.push_back({k, l, a, true});
        }
    }
    return out;
}

}  // namespace

TEST_CASE("bug volatile-unroll: without __syncwarp a lane reads its neighbour's store unordered") {
    for (WarpStage w : {WarpStage::SmemDivergent, WarpStage::SmemStrided, WarpStage::SmemSequential}) {
        CAPTURE(to_string(w));
        Schedule s = with(32, 32);
        s.warp = w;
        s.input.kind = InputKind::Iota;
        Case c = run(s, Bug::VolatileUnroll);
        CHECK(c.a_off.result == 528.0);
        const auto acc = harris_accesses(w);
        std::set<std::pair<uint32_t, uint32_t>> racy;  // (level, lane) loads and their slots
        std::set<std::tuple<uint32_t, uint32_t, uint32_t>> racy_slot;
        for (const Access& r : acc)
            for (const Access& st : acc)
                if (!r.store && st.store && st.slot == r.slot && st.lane != r.lane) {
                    racy.insert({r.level, r.lane});
                    racy_slot.insert({r.level, r.lane, r.slot});
                }
        // The level steps, in order: the steps of the warp stage that hold shared loads.
        std::vector<uint16_t> level_step;
        for (const Event& e : c.on.events)
            if (e.kind == EventKind::SharedLoad && (level_step.empty() || level_step.back() < e.step)) level_step.push_back(e.step);
        REQUIRE(level_step.size() == 5);
        std::vector<Expected> x;
        for (uint32_t k = 0; k < 5; ++k) {
            uint32_t lanes = 0;
            for (auto [lv, l] : racy)
                if (lv == k) lanes |= 1u << l;
            if (!lanes) continue;
            const uint16_t step = level_step[k];
            x.push_back({HazardKind::ImplicitWarpSync, 0, 0, lanes, [step, k, racy_slot](const Event& e) {
                             return e.kind == EventKind::SharedLoad && e.step == step &&
                                    racy_slot.count({k, e.lane(), e.detail});
                         }});
        }
        expect_exactly(c.on, x);
        // and in the legal order the emulator picked, some of those loads really saw an older value
        bool stale_seen = false;
        for (const Event& e : c.on.events) stale_seen = stale_seen || (e.kind == EventKind::SharedLoad && (e.flags & kStale));
        CHECK(stale_seen);
        CHECK(c.a_on.verdict == Verdict::Wrong);  // defined, but stale: the sum misses values
        CHECK(c.a_on.result < 528.0);
    }
}

TEST_CASE("bug divergent-shuffle: existing lanes skip the shuffle the full mask names") {
    // 64 threads, 40 elements: threads 40-63 (lanes 8-31 of warp 1) exist, have no element and skip the
    // warp reduction inside if (i < n). Lanes 0-7 execute all 5 levels with the full mask.
    Case c = run(with(40, 64), Bug::DivergentShuffle);
    std::vector<Expected> x;
    for (uint32_t off : {16u, 8u, 4u, 2u, 1u}) {
        const uint32_t r = readers_past(8, off);
        x.push_back({HazardKind::MaskNamesInactiveLanes, 0, 1, 0xffffff00u, shuffle_at(c.on, Scope::Warp, 1, off)});
        x.push_back({HazardKind::ReadFromNonParticipatingLane, 0, 1, r, shuffle_at(c.on, Scope::Warp, 1, off, r)});
    }
    expect_exactly(c.on, x);
    for (const Event& e : c.on.events)
        if (e.kind == EventKind::Shuffle && in_scope(c.on, e, Scope::Warp)) {
            CHECK(e.aux == 0xffffffffu);
            CHECK((e.warp() == 0 || e.lane() < 8));  // nobody past the input executes the shuffles
        }
    for (const Hazard& h : c.on.hazards)
        if (h.kind == HazardKind::MaskNamesInactiveLanes) CHECK(h.what.find("exist but do not execute") != std::string::npos);
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug missing-threadfence: no fence between partial and ticket; the last block reads a stale partial") {
    // 4 blocks of 64 threads; the finishing block's 4 threads load one partial each.
    Schedule s = with(256, 64);
    s.grid_stage = GridStage::LastBlock;
    Case c = run(s, Bug::MissingThreadfence);
    size_t fences_off = 0;
    for (const Event& e : c.off.events) fences_off += e.kind == EventKind::Fence;
    CHECK(fences_off == 4);
    std::vector<Expected> x;
    for (uint32_t b = 0; b < 4; ++b)
        x.push_back({HazardKind::MissingThreadfence, b, 0, 1u, [b](const Event& e) {
                         return e.kind == EventKind::Ticket && e.block == b;
                     }});
    // the block that drew ticket 2 (the one before the last) is the one whose partial is not yet visible
    uint32_t late = 0;
    for (const Event& e : c.on.events)
        if (e.kind == EventKind::Ticket && e.aux == 2) late = e.block;
    x.push_back({HazardKind::StalePartialRead, c.on.finisher_block, 0, 1u << late, [late](const Event& e) {
                     return e.kind == EventKind::PartialLoad && e.aux == late;
                 }});
    expect_exactly(c.on, x);
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug missing-threadfence: the stale partial is the slot's unwritten contents, for the block the tickets name") {
    // Blocks draw tickets 1, 3, 0, 2: block 1 finishes last and runs the finishing stage; block 3 drew the
    // ticket before it, and without its fence its partial may not be visible yet: the last block reads what
    // the slot held before any store (the unwritten shadow), while every fenced or earlier partial is seen.
    Schedule s = with(256, 64);
    s.grid_stage = GridStage::LastBlock;
    EmulatorOptions opt;
    opt.tickets = {1, 3, 0, 2};
    for (bool bug : {false, true}) {
        CAPTURE(bug);
        s.bugs = bug ? uint16_t(Bug::MissingThreadfence) : 0;
        const Trace t = emulate(s, make_input(s), opt);
        CHECK(t.finisher_block == 1);
        std::vector<uint32_t> partial_of(4, kNoEvent);
        for (uint32_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].kind == EventKind::BlockPartial) partial_of[t.events[i].block] = i;
        size_t loads = 0;
        for (const Event& e : t.events) {
            if (e.kind != EventKind::PartialLoad) continue;
            ++loads;
            const bool stale = bug && e.aux == 3;
            CHECK(e.dep[0] == (stale ? kNoEvent : partial_of[e.aux]));
            CHECK((e.flags & (kUndefined | kStale)) == (stale ? (kUndefined | kStale) : 0));
            if (stale) CHECK(e.value == pack_value(unpack_value<float>(kPoisonBits)));
        }
        CHECK(loads == 4);
        CHECK(((t.result_flags & kUndefined) != 0) == bug);
        std::vector<Expected> x;
        if (bug) {
            for (uint32_t b = 0; b < 4; ++b)
                x.push_back({HazardKind::MissingThreadfence, b, 0, 1u, [b](const Event& e) {
                                 return e.kind == EventKind::Ticket && e.block == b;
                             }});
            x.push_back({HazardKind::StalePartialRead, 1, 0, 1u << 3, [](const Event& e) {
                             return e.kind == EventKind::PartialLoad && e.aux == 3;
                         }});
        }
        expect_exactly(t, x);
    }
}

TEST_CASE("bugs are refused where they cannot apply, with the reason") {
    Schedule s;
    s.bugs = uint16_t(Bug::MissingBarrier);
    CHECK(validate(s).find("more than one warp") != std::string::npos);
    s.bugs = uint16_t(Bug::DescendingOrder);
    CHECK(validate(s).find("--op witness") != std::string::npos);
    s.bugs = uint16_t(Bug::VolatileUnroll);
    CHECK(validate(s).find("smem-") != std::string::npos);
    s.bugs = uint16_t(Bug::WrongIdentity);
    CHECK(validate(s).find("already right") != std::string::npos);
    CHECK(validate(s).find("max or argmax over negative values") != std::string::npos);  // where 0 changes a max
    s.bugs = uint16_t(Bug::MissingThreadfence);
    CHECK(validate(s).find("last-block") != std::string::npos);
    s.grid_stage = GridStage::LastBlock;
    CHECK(validate(s).find("at least 2 blocks") != std::string::npos);
    s = Schedule{};
    s.warp = WarpStage::SmemStrided;
    s.bugs = uint16_t(Bug::DivergentShuffle);
    CHECK(validate(s).find("shuffle bug") != std::string::npos);
}
