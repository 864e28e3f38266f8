// tests/test_properties.cpp — 1,000+ random schedules: result vs an independent reference, work n-1,
// the closed-form span of power-of-two schedules, and the order witness.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <random>
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/event_order.h"
#include "core/gpu_trace.h"
#include "random_schedule.h"

using namespace rl;

namespace {

uint32_t log2_exact(uint64_t x) { return uint32_t(std::bit_width(x) - 1); }

// Span of a power-of-two schedule (contiguous, n = G*B*K, all sizes powers of two): each thread
// chains K-1 combines; the warp and block trees add log2(B) levels together; the grid adds a second
// tree over G partials with P = min(B, G) threads (G/P - 1 + log2 P), or a chain of G atomics.
uint32_t closed_form_span(const Schedule& s) {
    const uint64_t G = s.grid_size(), B = s.block, K = s.chunk();
    uint32_t span = uint32_t(K - 1) + log2_exact(B);
    switch (s.grid_stage) {
        case GridStage::AtomicBlock: return span + uint32_t(G);
        case GridStage::AtomicElement: return uint32_t(s.n);
        default:
            if (G == 1) return span;
            uint64_t P = std::min(B, G);
            return span + uint32_t(G / P - 1) + log2_exact(P);
    }
}

}  // namespace

TEST_CASE("1,200 random schedules: result equals the reference, work is n-1, no hazard but the atomic-chain cost") {
    std::mt19937_64 rng(20261129);
    int float_within_bound = 0, exact = 0;
    for (int i = 0; i < 1200; ++i) {
        Schedule s = testing::random_schedule(rng);
        INFO("schedule " << i << ": " << describe(s) << " input=" << to_string(s.input.kind));
        Trace t = emulate(s);
        Analysis a = analyze(t);
        REQUIRE(t.result_event != kNoEvent);
        if (s.op == Op::Witness) continue;  // order is checked below
        // A correct schedule has no hazard. Its only finding is the cost note: one address updated by a chain of
        // atomics as long as the input (one atomic per element, or one per block holding one element each).
        size_t atomics = 0;
        for (const Event& e : t.events) atomics += e.kind == EventKind::Atomic;
        const bool chain_as_long_as_input = atomics >= 2 && atomics >= s.n;
        CHECK(t.hazards.empty());
        CHECK(t.notes.size() == (chain_as_long_as_input ? 1u : 0u));
        for (const Hazard& h : t.notes) CHECK(h.kind == HazardKind::AtomicContention);
        CHECK(a.work == s.n - 1);
        CHECK((a.verdict == Verdict::Exact || a.verdict == Verdict::WithinBound));
        if (!is_float_type(s.type) || s.op == Op::Max || s.op == Op::Min || s.op == Op::ArgMax)
            CHECK(a.verdict == Verdict::Exact);
        if (s.op == Op::SumCount) CHECK(uint32_t(t.result_value >> 32) == s.n);
        (a.verdict == Verdict::Exact ? exact : float_within_bound)++;
    }
    MESSAGE(exact << " exact, " << float_within_bound << " within the rounding bound");
}

TEST_CASE("power-of-two schedules: span equals the closed form, for every stage") {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300; ++i) {
        Schedule s;
        s.block = 1u << (rng() % 11);
        s.items = 1u << (rng() % 4);
        const uint32_t g = 1u << (rng() % 6);
        s.n = uint64_t(s.block) * s.items * g;
        s.warp = WarpStage(rng() % 6);
        s.block_stage = BlockStage(rng() % 2);
        s.grid_stage = GridStage(rng() % 5);
        if (s.grid_stage == GridStage::AtomicElement && s.n > 4096) s.grid_stage = GridStage::TwoPass;
        s.op = rng() % 2 ? Op::Sum : Op::Max;
        s.input.kind = InputKind::Uniform;
        REQUIRE(validate(s).empty());
        INFO(describe(s));
        Analysis a = analyze(emulate(s));
        CHECK(a.span == closed_form_span(s));
        CHECK(a.work == s.n - 1);
    }
}

TEST_CASE("order witness: kept by contiguous assignment with ascending or adjacent-pair trees") {
    for (WarpStage w : {WarpStage::ShflDownAsc, WarpStage::SmemDivergent, WarpStage::SmemStrided}) {
        for (uint64_t n : {1u, 7u, 64u, 1000u, 5000u}) {
            for (GridStage g : {GridStage::TwoPass, GridStage::AtomicBlock, GridStage::LastBlock, GridStage::Cooperative}) {
                Schedule s;
                s.op = Op::Witness;
                s.n = n;
                s.block = 96;
                s.items = 3;
                s.warp = w;
                s.grid_stage = g;
                INFO(describe(s));
                Trace t = emulate(s);
                Analysis a = analyze(t);
                CHECK(a.verdict == Verdict::Exact);
                CHECK(t.hazards.empty());
                auto v = unpack_value<WitnessValue>(t.result_value);
                CHECK(v.lo == 0);
                CHECK(v.hi == n - 1);
            }
        }
    }
}

TEST_CASE("order witness: violated by descending shfl_down and by grid-stride assignment") {
    Schedule down;
    down.op = Op::Witness;
    down.n = 64;
    down.block = 64;
    down.warp = WarpStage::ShflDown;
    Trace t = emulate(down);
    CHECK(analyze(t).verdict == Verdict::OrderViolated);
    REQUIRE(!t.hazards.empty());
    CHECK(t.hazards[0].kind == HazardKind::OrderViolation);
    CHECK(t.events[t.hazards[0].event].kind == EventKind::Combine);
    CHECK(t.events[t.hazards[0].event].shuffle_offset() == 0);  // a combine; its operand came from offset 16
    CHECK(t.events[t.events[t.hazards[0].event].dep[1]].shuffle_offset() == 16);

    Schedule gs;
    gs.op = Op::Witness;
    gs.n = 1000;
    gs.block = 32;
    gs.grid = 4;
    gs.warp = WarpStage::ShflDownAsc;
    gs.assign = Assign::GridStride;
    Trace g = emulate(gs);
    CHECK(analyze(g).verdict == Verdict::OrderViolated);
    REQUIRE(!g.hazards.empty());
    // the first broken merge is thread-local: element i with element i + 128 (grid-stride)
    const Event& site = g.events[g.hazards[0].event];
    CHECK(scope_of(g, site) == Scope::Thread);
    gs.assign = Assign::Contiguous;
    CHECK(analyze(emulate(gs)).verdict == Verdict::Exact);
}

TEST_CASE("400 random schedules: the emulator's operands point to earlier events, replayed hardware orders too") {
    std::mt19937_64 rng(20261201);
    int replayed_out_of_order = 0;
    for (int i = 0; i < 400; ++i) {
        Schedule s = testing::random_schedule(rng, 5000);
        INFO("schedule " << i << ": " << describe(s));
        const Trace t = emulate(s);  // the emulator's own order, never renumbered
        CHECK(first_forward_operand(t) == kNoEvent);
        // A GPU's order of atomics and tickets, replayed: renumbered where an atomic follows a later one.
        EmulatorOptions opt;
        opt.atomic_positions = atomic_positions_of(t);
        std::shuffle(opt.atomic_positions.begin(), opt.atomic_positions.end(), rng);
        opt.tickets = tickets_of(t);
        std::shuffle(opt.tickets.begin(), opt.tickets.end(), rng);
        if (opt.atomic_positions.empty() && opt.tickets.empty()) continue;
        const Trace r = emulate(s, make_input(s), opt);
        CHECK(first_forward_operand(r) == kNoEvent);
        CHECK(atomic_positions_of(r) == opt.atomic_positions);
        replayed_out_of_order += !std::is_sorted(opt.atomic_positions.begin(), opt.atomic_positions.end());
    }
    CHECK(replayed_out_of_order > 20);  // the renumbering had work to do
}
