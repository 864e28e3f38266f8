// tests/test_checker.cpp — the trace checker on its own: no false positives on random correct schedules,
// and rules that read only the events (hand-edited traces stand in for GPU and imported ones).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>

#include "core/checker.h"
#include "core/emulator.h"
#include "core/input.h"
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

// A hazard's place: (kind, event, block, warp, lanes), compared as a set.
using Place = std::tuple<HazardKind, uint32_t, uint32_t, uint32_t, uint32_t>;
std::vector<Place> places(const std::vector<Hazard>& hs) {
    std::vector<Place> out;
    for (const Hazard& h : hs) out.emplace_back(h.kind, h.event, h.block, h.warp, h.lanes);
    std::sort(out.begin(), out.end());
    return out;
}
std::string text(const std::vector<Place>& ps) {
    std::string s;
    for (const auto& [k, ev, b, w, l] : ps)
        s += std::string(to_string(k)) + " event " + std::to_string(ev) + " block " + std::to_string(b) + " warp " +
             std::to_string(w) + " lanes " + std::to_string(l) + "\n";
    return s;
}

// The order witness evaluated here from the element indices the loads name (not from the recorded values):
// [lo, hi], kEmpty for no element, kBroken once two ranges merged out of order.
constexpr uint64_t kEmpty = ~0ull, kBroken = ~0ull - 1;
uint64_t merge(uint64_t a, uint64_t b) {
    if (a == kEmpty) return b;
    if (b == kEmpty) return a;
    if (a == kBroken || b == kBroken || uint32_t(b) != uint32_t(a >> 32) + 1) return kBroken;
    return (uint64_t(uint32_t(b >> 32)) << 32) | uint32_t(a);  // lo in the low half, hi in the high half
}

// The places where order was first lost in the result's cone (a merge of two unbroken ranges that are not
// adjacent), one per warp instruction: the lanes of one warp at one step merged, the lowest event named.
std::vector<Place> expected_order_sites(const Trace& t) {
    const auto& ev = t.events;
    std::vector<uint64_t> range(ev.size(), kEmpty);
    for (uint32_t i = 0; i < ev.size(); ++i) {  // operands come first in an emulator trace
        const Event& e = ev[i];
        auto at = [&](uint32_t d) { return d == kNoEvent ? kEmpty : range[d]; };
        if (e.kind == EventKind::Load) range[i] = (uint64_t(e.aux) << 32) | e.aux;
        else if (e.kind == EventKind::Combine || e.kind == EventKind::Atomic) range[i] = merge(at(e.dep[0]), at(e.dep[1]));
        else range[i] = at(e.dep[0]);
    }
    std::vector<uint8_t> cone(ev.size(), 0);
    std::vector<uint32_t> stack{t.result_event};
    while (!stack.empty()) {
        const uint32_t i = stack.back();
        stack.pop_back();
        if (i == kNoEvent || cone[i]) continue;
        cone[i] = 1;
        for (uint32_t d : ev[i].dep) stack.push_back(d);
    }
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, Place> sites;  // (instance, step, warp, kind)
    for (uint32_t i = 0; i < ev.size(); ++i) {
        const Event& e = ev[i];
        if (!cone[i] || (e.kind != EventKind::Combine && e.kind != EventKind::Atomic) || range[i] != kBroken) continue;
        auto broken = [&](uint32_t d) { return d != kNoEvent && range[d] == kBroken; };
        if (broken(e.dep[0]) || broken(e.dep[1])) continue;  // order was lost before this merge
        const auto key = std::tuple(e.block * 2 + ((e.flags & kFinisher) ? 1u : 0u), uint32_t(e.step), e.warp(), uint32_t(e.kind));
        auto [it, fresh] = sites.try_emplace(key, Place{HazardKind::OrderViolation, i, e.block, e.warp(), 0u});
        std::get<4>(it->second) |= 1u << e.lane();
        (void)fresh;
    }
    std::vector<Place> out;
    for (const auto& [k, p] : sites) out.push_back(p);
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
        const Findings findings = check_findings(stripped(t));
        const auto& found = findings.hazards;
        CHECK(found.size() == t.hazards.size());
        CHECK(findings.notes.size() == t.notes.size());
        const auto witness = unpack_value<WitnessValue>(t.result_value);
        const size_t atomics = count(t, EventKind::Atomic);
        // The lists fixed independently: the witness's first out-of-order merges, found here from the loads'
        // element indices, are the only hazards; the one chain of atomics as long as the input is the only note,
        // at its head, the first atomic the emulator emits (block 0, thread 0).
        std::vector<Place> expected = s.op == Op::Witness ? expected_order_sites(t) : std::vector<Place>{};
        std::vector<Place> expected_notes;
        if (atomics >= 2 && atomics >= s.n) {
            uint32_t head = kNoEvent;
            for (uint32_t k = 0; k < t.events.size() && head == kNoEvent; ++k)
                if (t.events[k].kind == EventKind::Atomic) head = k;
            REQUIRE(head != kNoEvent);
            CHECK(t.events[head].dep[0] == kNoEvent);
            CHECK(t.events[head].block == 0);
            CHECK(t.events[head].thread == 0);
            expected_notes.emplace_back(HazardKind::AtomicContention, head, 0u, 0u, 1u);
        }
        std::sort(expected.begin(), expected.end());
        INFO("expected:\n" << text(expected) << "found:\n" << text(places(found)));
        CHECK(places(found) == expected);
        CHECK(places(findings.notes) == expected_notes);
        contention += int(findings.notes.size());
        for (const Hazard& h : found) {
            INFO(to_string(h.kind) << ": " << h.what);
            // order findings only where the witness itself shows the order broken
            REQUIRE(h.kind == HazardKind::OrderViolation);
            CHECK(s.op == Op::Witness);
            CHECK(witness.lo == kWitnessViolated);
            ++order;
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
    // The list derived by hand from the kernel: n = 40 in one block of 40 threads, every shuffle with the full
    // mask and no bound. Warp 1 holds lanes 0-7 (threads 32-39); lanes 8-31 were never launched, so naming them
    // is no violation, but reading them is: at offset 16 and 8 lanes 0-7 read and use lanes 16-23 and 8-15, at
    // offset 4 lanes 4-7, at 2 lanes 6-7, at 1 lane 7 (warp stage, steps 1-5). In the block stage only lanes 0-1
    // of warp 0 (the two warp partials) run the same loop (steps 9-13): the mask names lanes 2-31, which exist
    // and skip the call, at every offset; lanes 0-1 read and use lanes 16-17, 8-9, 4-5, 2-3 (which did not
    // execute), and at offset 1 lane 1 reads lane 2 (lane 0 reads lane 1, which did execute).
    struct HandPlace {
        HazardKind kind;
        uint16_t step;
        uint32_t warp, lanes;
        uint16_t thread;  // the thread of the event named: the lowest lane of the warp instruction that runs it
    };
    const HazardKind read = HazardKind::ReadFromNonParticipatingLane, mask = HazardKind::MaskNamesInactiveLanes;
    const std::vector<HandPlace> hand{
        {read, 1, 1, 0xffu, 32},        {read, 2, 1, 0xffu, 32},        {read, 3, 1, 0xf0u, 36},
        {read, 4, 1, 0xc0u, 38},        {read, 5, 1, 0x80u, 39},        {mask, 9, 0, 0xfffffffcu, 0},
        {read, 9, 0, 0x3u, 0},          {mask, 10, 0, 0xfffffffcu, 0},  {read, 10, 0, 0x3u, 0},
        {mask, 11, 0, 0xfffffffcu, 0},  {read, 11, 0, 0x3u, 0},         {mask, 12, 0, 0xfffffffcu, 0},
        {read, 12, 0, 0x3u, 0},         {mask, 13, 0, 0xfffffffcu, 0},  {read, 13, 0, 0x2u, 1},
    };
    const uint32_t offsets[] = {16, 8, 4, 2, 1};
    for (const std::vector<Hazard>& hs : {check_trace(forged), t.hazards}) {
        REQUIRE(hs.size() == hand.size());
        for (size_t k = 0; k < hand.size(); ++k) {
            CAPTURE(k);
            const Hazard& h = hs[k];
            const Event& e = t.events[h.event];
            CHECK(h.kind == hand[k].kind);
            CHECK(h.block == 0);
            CHECK(h.warp == hand[k].warp);
            CHECK(h.lanes == hand[k].lanes);
            CHECK(e.kind == EventKind::Shuffle);
            CHECK(e.step == hand[k].step);
            CHECK(e.thread == hand[k].thread);
            CHECK(e.shuffle_offset() == offsets[(hand[k].step - 1) % 8]);
        }
    }
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
    CHECK(h[1].what.find("lane 5, which exists but did not execute") != std::string::npos);
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
    // The emulator's own order: the chain starts at the first atomic emitted, block 0 thread 0.
    {
        const Trace own = emulate(s);
        CHECK(check_trace(own).empty());  // correct, only serialised: a note, no hazard
        auto h = check_findings(own).notes;
        REQUIRE(h.size() == 1);
        CHECK(h[0].kind == HazardKind::AtomicContention);
        CHECK(h[0].block == 0);
        CHECK(h[0].warp == 0);
        CHECK(h[0].lanes == 1u);
        CHECK(own.events[h[0].event].dep[0] == kNoEvent);
    }
    // The hardware's order reversed: the last element's atomic (n = 300 = 9*32 + 12: block 9, thread 11) lands
    // first and heads the chain.
    EmulatorOptions reversed;
    for (uint32_t i = 0; i < 300; ++i) reversed.atomic_positions.push_back(299 - i);
    Trace t = emulate(s, make_input(s), reversed);
    // Listed against the chain, as a GPU trace may list them: the atomics' slots reversed, every link renamed.
    std::vector<uint32_t> atomics;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Atomic) atomics.push_back(i);
    REQUIRE(atomics.size() == 300);
    std::vector<uint32_t> moved(t.events.size());
    for (uint32_t i = 0; i < moved.size(); ++i) moved[i] = i;
    for (size_t k = 0; k < atomics.size(); ++k) moved[atomics[k]] = atomics[atomics.size() - 1 - k];
    std::vector<Event> listed(t.events.size());
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        Event e = t.events[i];
        for (uint32_t& d : e.dep)
            if (d != kNoEvent) d = moved[d];
        listed[moved[i]] = e;
    }
    t.events = listed;
    t.result_event = moved[t.result_event];
    t.hazards.clear();
    // Every link now points to a later slot: the chain runs against the index order.
    uint32_t backwards = 0;
    for (uint32_t i : atomics) backwards += t.events[i].dep[0] != kNoEvent && t.events[i].dep[0] > i;
    CHECK(backwards == 299);
    CHECK(check_trace(t).empty());
    auto h = check_findings(t).notes;
    REQUIRE(h.size() == 1);
    CHECK(h[0].kind == HazardKind::AtomicContention);
    CHECK(h[0].event == atomics.back());  // the head, listed last
    CHECK(h[0].block == 9);
    CHECK(h[0].warp == 0);
    CHECK(h[0].lanes == 1u << 11);
    const Event& head = t.events[h[0].event];
    CHECK(head.kind == EventKind::Atomic);
    CHECK(head.dep[0] == kNoEvent);
    CHECK(head.aux == 0);  // position 0 of the order
    CHECK(head.block == 9);
    CHECK(head.thread == 11);
    CHECK(h[0].what ==
          "300 atomics to one address for 300 elements, each waiting for the one before: a chain as long as the "
          "input (correct, but serialised)");
    // a chain shorter than the input is no finding: atomic-block with 10 blocks over 300 elements
    s.grid_stage = GridStage::AtomicBlock;
    const Findings block = check_findings(emulate(s));
    CHECK(block.hazards.empty());
    CHECK(block.notes.empty());
}
