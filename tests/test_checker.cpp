// tests/test_checker.cpp — the trace checker on its own: no false positives on random correct schedules,
// and rules that read only the events (hand-edited traces stand in for GPU and imported ones).
#include <doctest/doctest.h>

#include <random>

#include "core/checker.h"
#include "core/emulator.h"
#include "stripped_trace.h"
#include "random_schedule.h"

using namespace rl;
using rl::testing::stripped;

namespace {

size_t count(const Trace& t, EventKind k) {
    size_t c = 0;
    for (const Event& e : t.events) c += e.kind == k;
    return c;
}

std::vector<HazardKind> kinds(const std::vector<Hazard>& hs) {
    std::vector<HazardKind> out;
    for (const Hazard& h : hs) out.push_back(h.kind);
    return out;
}

}  // namespace

TEST_CASE("no false positives: 600 random correct schedules give no hazard but the genuine ones") {
    std::mt19937_64 rng(20261201);
    int contention = 0, order = 0, partial_warps = 0;
    for (int i = 0; i < 600; ++i) {
        Schedule s = testing::random_schedule(rng, 6000);
        INFO("schedule " << i << ": " << describe(s) << " input=" << to_string(s.input.kind));
        Trace t = emulate(s);
        partial_warps += s.block % 32 != 0 || s.n % 32 != 0;
        const auto found = check_trace(stripped(t));
        CHECK(found.size() == t.hazards.size());
        const auto witness = unpack_value<WitnessValue>(t.result_value);
        const size_t atomics = count(t, EventKind::Atomic);
        for (const Hazard& h : found) {
            INFO(to_string(h.kind) << ": " << h.what);
            if (h.kind == HazardKind::AtomicContention) {
                // the cost finding: one chain of atomics as long as the input
                CHECK(atomics >= 2);
                CHECK(atomics >= s.n);
                ++contention;
            } else {
                // order findings only where the witness itself shows the order broken
                REQUIRE(h.kind == HazardKind::OrderViolation);
                CHECK(s.op == Op::Witness);
                CHECK(witness.lo == kWitnessViolated);
                ++order;
            }
        }
    }
    MESSAGE(partial_warps << " with partial warps or tails, " << contention << " atomic-chain and " << order
                          << " order findings");
}

TEST_CASE("checker: a trace's own hazards and bug names are ignored") {
    Schedule s;
    s.n = 40;
    s.block = 40;
    s.bugs = uint16_t(Bug::FullMaskPartialWarp);
    Trace t = emulate(s);
    Trace forged = t;
    forged.hazards.clear();
    forged.hazards.push_back({HazardKind::DivergentBarrier, 0, 0, 0, 1u, "announced"});
    forged.schedule.bugs = uint16_t(Bug::VolatileUnroll);
    CHECK(kinds(check_trace(forged)) == kinds(t.hazards));
    // a clean trace that claims a bug stays clean
    Schedule c;
    Trace clean = emulate(c);
    clean.schedule.bugs = uint16_t(Bug::MissingBarrier);
    clean.hazards.push_back({HazardKind::SharedMemoryRace, 0, 0, 0, 1u, "announced"});
    CHECK(check_trace(clean).empty());
    attach_checked_hazards(clean);
    CHECK(clean.hazards.empty());
    for (const Event& e : clean.events) CHECK(!(e.flags & kHazard));
}

TEST_CASE("checker: a shuffle lane that stops recording is found as a lane that skipped the call") {
    // Remove lane 5's shuffle at offset 4 from a correct 8-thread warp: the exact mask 0xff names it.
    Schedule s;  // eight threads, shfl-down
    Trace t = emulate(s);
    uint32_t victim = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Shuffle && t.events[i].shuffle_offset() == 4 && t.events[i].lane() == 5) victim = i;
    REQUIRE(victim != kNoEvent);
    t.events[victim].kind = EventKind::WarpSync;  // any kind but a shuffle: lane 5 did not execute it
    t.events[victim].aux = 1u << 5;
    t.events[victim].detail = 0;
    auto h = check_trace(t);
    REQUIRE(h.size() == 2);
    CHECK(h[0].kind == HazardKind::MaskNamesInactiveLanes);
    CHECK(h[0].lanes == (1u << 5));
    // lane 1 reads lane 5 at offset 4 and uses it: undefined
    CHECK(h[1].kind == HazardKind::ReadFromNonParticipatingLane);
    CHECK(h[1].lanes == (1u << 1));
    CHECK(h[1].what.find("exist but did not execute") != std::string::npos);
}

TEST_CASE("checker: barriers from traces written before barrier lanes were kept still order") {
    Schedule s;
    s.n = 256;
    s.block = 128;
    Trace t = emulate(s);
    for (Event& e : t.events)
        if (e.kind == EventKind::Barrier || e.kind == EventKind::WarpSync) e.aux = 0;  // old traces: all lanes
    CHECK(check_trace(t).empty());
    // dropping one warp's barrier arrival leaves the barrier incomplete and the partial loads racing
    for (Event& e : t.events)
        if (e.kind == EventKind::Barrier && e.warp() == 2 && e.block == 0) e.kind = EventKind::Combine, e.dep[0] = e.dep[1] = kNoEvent;
    auto h = check_trace(t);
    bool divergent = false, race = false;
    for (const Hazard& x : h) {
        divergent = divergent || (x.kind == HazardKind::DivergentBarrier && x.block == 0);
        // lanes 1-3 of warp 0 load the partials of warps 1-3: no complete barrier orders any of them
        race = race || (x.kind == HazardKind::SharedMemoryRace && x.block == 0 && x.lanes == 0xeu);
    }
    CHECK(divergent);
    CHECK(race);
}

TEST_CASE("checker: atomics listed out of order (as a GPU trace lists them) still form one chain") {
    Schedule s;
    s.n = 300;
    s.block = 32;
    s.grid_stage = GridStage::AtomicElement;
    Trace t = emulate(s);
    // reverse the dep[0] links' direction in the index order by swapping positions: follow links, not indices
    std::vector<uint32_t> atomics;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Atomic) atomics.push_back(i);
    REQUIRE(atomics.size() == 300);
    auto h = check_trace(t);
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::AtomicContention);
    CHECK(t.events[h[0].event].dep[0] == kNoEvent);
    CHECK(h[0].what.find("300 atomics") != std::string::npos);
    // a chain shorter than the input is no finding: atomic-block with 10 blocks over 300 elements
    s.grid_stage = GridStage::AtomicBlock;
    CHECK(check_trace(emulate(s)).empty());
}
