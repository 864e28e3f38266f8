// tests/test_bugs.cpp — each injectable bug: the expected hazard at the expected lanes and events,
// a flagged result; and with the bug switched off, no hazard and the right result.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/analysis.h"
#include "core/emulator.h"
#include "support/helpers.h"

using namespace rl;
using rl::test::with;

namespace {

struct Case {
    Schedule s;
    Trace on, off;
    Analysis a_on, a_off;
};

Case run(Schedule s, Bug bug) {
    Case c;
    c.s = s;
    c.off = emulate(s);
    c.a_off = analyze(c.off);
    s.bugs = uint16_t(bug);
    REQUIRE(validate(s) == "");
    c.on = emulate(s);
    c.a_on = analyze(c.on);
    return c;
}

std::vector<const Hazard*> of_kind(const Trace& t, HazardKind k) {
    std::vector<const Hazard*> out;
    for (const Hazard& h : t.hazards)
        if (h.kind == k) out.push_back(&h);
    return out;
}

void check_clean_off(const Case& c) {
    CHECK(c.off.hazards.empty());
    CHECK((c.a_off.verdict == Verdict::Exact || c.a_off.verdict == Verdict::WithinBound));
}

}  // namespace

TEST_CASE("bug full-mask-partial-warp: the mask names lanes that do not execute, and lane 0 reads an undefined value") {
    // 40 threads: warp 1 has 8 lanes; the block stage's final warp has 2 (one partial per warp).
    Case c = run(with(40, 40), Bug::FullMaskPartialWarp);
    check_clean_off(c);
    auto mask = of_kind(c.on, HazardKind::MaskNamesInactiveLanes);
    REQUIRE(mask.size() == 10);  // 5 offsets in warp 1, 5 in the final warp
    for (auto* h : mask) {
        const Event& e = c.on.events[h->event];
        CHECK(e.kind == EventKind::Shuffle);
        CHECK(e.aux == 0xffffffffu);
        if (scope_of(c.on, e) == Scope::Warp) {
            CHECK(h->warp == 1);
            CHECK(h->lanes == 0xffffff00u);
        } else {
            CHECK(scope_of(c.on, e) == Scope::Block);
            CHECK(h->warp == 0);
            CHECK(h->lanes == 0xfffffffcu);
        }
    }
    auto reads = of_kind(c.on, HazardKind::ReadFromNonParticipatingLane);
    REQUIRE(!reads.empty());
    CHECK(reads[0]->warp == 1);
    CHECK((reads[0]->lanes & 1u) == 1u);  // lane 0 reads lane 16 at offset 16
    CHECK(c.on.events[reads[0]->event].source_lane() == 16);
    CHECK((c.on.events[reads[0]->event].flags & kUndefined) != 0);
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug unbounded-source: exact mask, but lanes read past the participating lanes") {
    Case c = run(with(40, 40), Bug::UnboundedSource);
    check_clean_off(c);
    CHECK(of_kind(c.on, HazardKind::MaskNamesInactiveLanes).empty());
    auto reads = of_kind(c.on, HazardKind::ReadFromNonParticipatingLane);
    REQUIRE(!reads.empty());
    for (auto* h : reads) {
        const Event& e = c.on.events[h->event];
        const bool warp_stage = scope_of(c.on, e) == Scope::Warp;
        CHECK(h->warp == (warp_stage ? 1u : 0u));
        CHECK(e.aux == (warp_stage ? 0x000000ffu : 0x00000003u));  // the mask names exactly the participants
        CHECK(e.source_lane() >= (warp_stage ? 8u : 2u));
    }
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug uninit-tail: threads without elements keep an uninitialised register") {
    Case c = run(with(30, 32), Bug::UninitTail);
    check_clean_off(c);
    auto h = of_kind(c.on, HazardKind::UninitialisedTail);
    REQUIRE(h.size() == 1);  // one warp instruction: lanes 30 and 31
    CHECK(h[0]->lanes == (1u << 30 | 1u << 31));
    CHECK(c.on.events[h[0]->event].kind == EventKind::IdentityFill);
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug wrong-identity: 0 as the identity of max over negative data gives 0") {
    Schedule s = with(30, 32);
    s.op = Op::Max;
    s.input.kind = InputKind::Values;
    for (int i = 0; i < 30; ++i) s.input.values.push_back(-1.0 - i);
    Case c = run(s, Bug::WrongIdentity);
    check_clean_off(c);
    CHECK(c.a_off.result == -1.0);
    auto h = of_kind(c.on, HazardKind::WrongIdentity);
    REQUIRE(h.size() == 1);
    CHECK(h[0]->lanes == (1u << 30 | 1u << 31));
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
    auto h = of_kind(c.on, HazardKind::WrongIdentity);
    REQUIRE(h.size() == 1);
    CHECK(h[0]->lanes == 0xe0u);  // threads 5-7 have no element
}

TEST_CASE("bug missing-barrier: warp 0 runs ahead and reads the partials before warps 1-3 store them") {
    for (BlockStage bs : {BlockStage::WarpPartials, BlockStage::SmemTree}) {
        Schedule s = with(128, 128);
        s.block_stage = bs;
        Case c = run(s, Bug::MissingBarrier);
        check_clean_off(c);
        auto h = of_kind(c.on, HazardKind::SharedMemoryRace);
        REQUIRE(!h.empty());
        for (auto* x : h) {
            const Event& e = c.on.events[x->event];
            CHECK(e.kind == EventKind::SharedLoad);
            CHECK(x->warp == 0);
            CHECK((e.flags & kStale) != 0);
        }
        // the stale read really happens in the trace: the load comes before the store it should have seen
        const Event& load = c.on.events[h[0]->event];
        for (const Event& st : c.on.events)
            if (st.kind == EventKind::SharedStore && st.detail == load.detail) CHECK(st.step > load.step);
        CHECK(c.a_on.verdict == Verdict::Undefined);
        // and no barrier separates warp 0's store of its partial from its loads
        uint16_t store_step = 0;
        for (const Event& e : c.on.events)
            if (e.kind == EventKind::SharedStore && e.detail == load.detail - (load.detail % 32) && e.thread == 0) store_step = e.step;
        for (const Event& e : c.on.events)
            if (e.kind == EventKind::Barrier && e.block == 0) CHECK(!(e.step > store_step && e.step < load.step));
    }
}

TEST_CASE("bug divergent-barrier: __syncthreads() inside if (lane == 0) orders nothing") {
    Case c = run(with(128, 128), Bug::DivergentBarrier);
    auto d = of_kind(c.on, HazardKind::DivergentBarrier);
    REQUIRE(d.size() == 4);  // one per warp
    for (auto* x : d) {
        CHECK(c.on.events[x->event].kind == EventKind::Barrier);
        CHECK(x->lanes == 1u);
    }
    CHECK(!of_kind(c.on, HazardKind::SharedMemoryRace).empty());
    CHECK(c.a_on.verdict == Verdict::Undefined);
}

TEST_CASE("bug grid-stride-order: a non-commutative operator loses its order at the thread stage") {
    Schedule s = with(1000, 64);
    s.op = Op::Witness;
    s.grid = 2;
    s.warp = WarpStage::ShflDownAsc;
    Case c = run(s, Bug::GridStrideOrder);
    check_clean_off(c);
    auto h = of_kind(c.on, HazardKind::OrderViolation);
    REQUIRE(!h.empty());
    CHECK(scope_of(c.on, c.on.events[h[0]->event]) == Scope::Thread);
    CHECK(c.a_on.verdict == Verdict::OrderViolated);
}

TEST_CASE("bug descending-order: shfl_down with offsets 16..1 merges lane 0 with lane 16") {
    Schedule s = with(64, 32);
    s.op = Op::Witness;
    s.warp = WarpStage::ShflDownAsc;
    s.items = 2;
    Case c = run(s, Bug::DescendingOrder);
    check_clean_off(c);
    auto h = of_kind(c.on, HazardKind::OrderViolation);
    REQUIRE(!h.empty());
    const Event& site = c.on.events[h[0]->event];
    CHECK(c.on.events[site.dep[1]].shuffle_offset() == 16);
    CHECK(h[0]->lanes == 0x0000ffffu);
    CHECK(c.a_on.verdict == Verdict::OrderViolated);
}

TEST_CASE("bug atomic-per-element: correct, but one atomic per element to one address") {
    Case c = run(with(1000, 128), Bug::AtomicPerElement);
    auto h = of_kind(c.on, HazardKind::AtomicContention);
    REQUIRE(h.size() == 1);
    size_t atomics = 0;
    for (const Event& e : c.on.events) atomics += e.kind == EventKind::Atomic;
    CHECK(atomics == 1000);
    CHECK(c.a_on.span == 1000);  // a chain: each atomic waits for the one before
    CHECK(c.a_off.span < 20);
    CHECK((c.a_on.verdict == Verdict::Exact || c.a_on.verdict == Verdict::WithinBound));
}

TEST_CASE("bug volatile-unroll: without __syncwarp a lane reads its neighbour's older value") {
    for (WarpStage w : {WarpStage::SmemDivergent, WarpStage::SmemStrided, WarpStage::SmemSequential}) {
        Schedule s = with(32, 32);
        s.warp = w;
        s.input.kind = InputKind::Iota;
        Case c = run(s, Bug::VolatileUnroll);
        check_clean_off(c);
        CHECK(c.a_off.result == 528.0);
        auto h = of_kind(c.on, HazardKind::ImplicitWarpSync);
        REQUIRE(!h.empty());
        CHECK(c.on.events[h[0]->event].kind == EventKind::SharedLoad);
        CHECK((c.on.events[h[0]->event].flags & kStale) != 0);
        CHECK(c.a_on.verdict == Verdict::Wrong);  // defined, but stale: the sum misses values
        CHECK(c.a_on.result < 528.0);
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
}
