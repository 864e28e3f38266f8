// tests/test_event_order.cpp — renumbering events so that every operand points earlier: operands, times,
// lines, hazards, notes and the result follow their events; each thread keeps its program order; cycles are refused.
#include <doctest/doctest.h>

#include <string>

#include "core/error.h"
#include "core/event_order.h"

using namespace rl;

namespace {

// Event `value` is its old index, so every event can be found again after the renumbering.
Event ev(EventKind k, uint16_t step, uint16_t thread, uint32_t d0 = kNoEvent, uint32_t d1 = kNoEvent) {
    Event e{};
    e.kind = k;
    e.step = step;
    e.thread = thread;
    e.dep[0] = d0;
    e.dep[1] = d1;
    return e;
}

// Two lanes in lane/slot order (a GPU's records): lane 1's shuffle reads lane 0's load, lane 0's shuffle
// reads lane 1's load, a later slot; lane 0 combines and stores the result.
Trace two_lanes() {
    Trace t;
    t.events = {ev(EventKind::Load, 0, 0), ev(EventKind::Shuffle, 1, 0, 3), ev(EventKind::Combine, 2, 0, 0, 1),
                ev(EventKind::Load, 0, 1), ev(EventKind::Shuffle, 1, 1, 0), ev(EventKind::FinalStore, 3, 0, 2)};
    t.events[5].flags = kFinisher;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        t.events[i].value = i;
        t.times.push_back({1000 + i, 2000 + i, i});
        t.lines.push_back(uint16_t(10 + i));
    }
    t.hazards.push_back(Hazard{HazardKind::ReadFromNonParticipatingLane, 1, 0, 0, 1, "at the shuffle of lane 0"});
    t.notes.push_back(Hazard{HazardKind::AtomicContention, 4, 0, 0, 2, "a note at the shuffle of lane 1"});
    t.result_event = 5;
    return t;
}

uint32_t new_index_of(const Trace& t, uint64_t old) {
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].value == old) return i;
    FAIL("event " << old << " lost");
    return kNoEvent;
}

}  // namespace

TEST_CASE("event order: a forward operand is renumbered, and everything that indexes events follows") {
    const Trace before = two_lanes();
    REQUIRE(first_forward_operand(before) == 1);  // lane 0's shuffle names slot 3
    Trace t = before;
    order_operands_first(t);
    CHECK(first_forward_operand(t) == kNoEvent);
    REQUIRE(t.events.size() == before.events.size());
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const uint32_t old = uint32_t(t.events[i].value);
        for (int k = 0; k < 2; ++k) {  // the same operand event as before
            const uint32_t d = t.events[i].dep[k], was = before.events[old].dep[k];
            CHECK((d == kNoEvent) == (was == kNoEvent));
            if (d != kNoEvent) CHECK(t.events[d].value == was);
        }
        CHECK(t.times[i].globaltimer_ns == 1000 + old);
        CHECK(t.times[i].sm == old);
        CHECK(t.lines[i] == 10 + old);
    }
    CHECK(t.hazards[0].event == new_index_of(t, 1));
    CHECK(t.notes[0].event == new_index_of(t, 4));
    CHECK(t.result_event == new_index_of(t, 5));
    // the preferred order (step, block, thread), the finishing stage last
    const std::vector<uint64_t> olds = {0, 3, 1, 4, 2, 5};
    for (size_t i = 0; i < olds.size(); ++i) CHECK(t.events[i].value == olds[i]);
}

TEST_CASE("event order: an event waits for its operand, and its thread's later events wait behind it") {
    // An atomic chain in hardware order: thread 0's atomic (slot 1) followed thread 1's (slot 3), at the same step;
    // thread 0 then stores at step 2. The preferred order puts thread 0's atomic first, which cannot be: it waits,
    // and thread 0's later store waits behind it (program order).
    Trace t;
    t.events = {ev(EventKind::Load, 0, 0), ev(EventKind::Atomic, 1, 0, 3, 0), ev(EventKind::SharedStore, 2, 0, 1),
                ev(EventKind::Atomic, 1, 1)};
    for (uint32_t i = 0; i < t.events.size(); ++i) t.events[i].value = i;
    t.result_event = 1;
    order_operands_first(t);
    CHECK(first_forward_operand(t) == kNoEvent);
    const std::vector<uint64_t> olds = {0, 3, 1, 2};
    for (size_t i = 0; i < olds.size(); ++i) CHECK(t.events[i].value == olds[i]);
    CHECK(t.result_event == 2);
}

TEST_CASE("event order: a trace whose operands already point earlier is untouched by the check, a cycle is refused") {
    Trace ok;
    ok.events = {ev(EventKind::Load, 0, 0), ev(EventKind::Load, 0, 1), ev(EventKind::Combine, 1, 0, 0, 1)};
    CHECK(first_forward_operand(ok) == kNoEvent);
    Trace cyc = ok;
    cyc.events[0].dep[0] = 2;
    CHECK(first_forward_operand(cyc) == 0);
    std::string err;
    try {
        order_operands_first(cyc);
    } catch (const Error& e) {
        err = e.what();
    }
    CHECK(err.find("depends on itself") != std::string::npos);
    Trace self = ok;
    self.events[1].dep[1] = 1;
    CHECK(first_forward_operand(self) == 1);
}
