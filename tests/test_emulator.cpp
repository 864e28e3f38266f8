// tests/test_emulator.cpp — the eight-thread example and the emulator's warp rules, by hand-checkable cases.
#include <doctest/doctest.h>

#include <map>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/event_flags.h"

using namespace rl;

namespace {
Schedule eight() { return Schedule{}; }
size_t count_kind(const Trace& t, EventKind k) {
    size_t c = 0;
    for (const Event& e : t.events) c += e.kind == k;
    return c;
}
}  // namespace

TEST_CASE("eight threads: 7 combines, span 3 against serial depth 7, exact result 36") {
    Trace t = emulate(eight());
    Analysis a = analyze(t);
    CHECK(a.work == 7);
    CHECK(a.identity_combines == 0);
    CHECK(a.span == 3);
    CHECK(a.serial_depth == 7);
    CHECK(a.tree_depth == 3);
    CHECK(a.span_by_scope[1] == 3);
    CHECK(numeric_value(Op::Sum, DType::F32, t.result_value) == 36.0);
    CHECK(a.verdict == Verdict::Exact);
    CHECK(t.hazards.empty());
    // Every lane executes each of the 3 shuffles (offsets 4, 2, 1) and records it; 7 values are used.
    CHECK(count_kind(t, EventKind::Shuffle) == 24);
    size_t used = 0;
    for (const Event& e : t.events)
        if (e.kind == EventKind::Combine && t.events[e.dep[1]].kind == EventKind::Shuffle) ++used;
    CHECK(used == 7);
    CHECK(count_kind(t, EventKind::Load) == 8);
}

TEST_CASE("eight threads: four pairs at once, then two, then one") {
    Trace t = emulate(eight());
    std::map<uint16_t, std::vector<const Event*>> combines;
    for (const Event& e : t.events)
        if (e.kind == EventKind::Combine) combines[e.step].push_back(&e);
    REQUIRE(combines.size() == 3);
    std::vector<size_t> sizes;
    for (auto& [step, v] : combines) sizes.push_back(v.size());
    CHECK(sizes == std::vector<size_t>{4, 2, 1});
    // lane i reads lane i+4 in the first level
    for (const Event& e : t.events)
        if (e.kind == EventKind::Shuffle && e.shuffle_offset() == 4) CHECK(e.source_lane() == e.lane() + 4);
}

TEST_CASE("shadow flags: a combine with an undefined operand is undefined, whichever side it is on") {
    for (uint8_t undefined : {kUnwrittenRegister, kUnwrittenMemory, uint8_t(kUndefined | kIdentity)}) {
        CAPTURE(int(undefined));
        for (uint8_t other : {uint8_t(0), uint8_t(kIdentity), uint8_t(kOrderViolated)}) {
            CHECK((combined_flags(undefined, other) & kUndefined) != 0);
            CHECK((combined_flags(other, undefined) & kUndefined) != 0);
            CHECK((combined_flags(other, other) & kUndefined) == 0);  // defined operands give a defined value
        }
    }
    CHECK(combined_flags(0, 0) == 0);
    CHECK((combined_flags(kUnwrittenMemory, 0) & kStale) != 0);  // a stale operand's value stays stale
}

TEST_CASE("shadow state: a shared slot no store reached reads as unwritten, a stored one as what was stored") {
    // missing-barrier: warp 0 reads the four warp partials before warps 1-3 store theirs. Lane 0 reads its
    // own store; lanes 1-3 read slots nothing has written yet.
    Schedule s;
    s.n = 128;
    s.block = 128;
    s.input.kind = InputKind::Uniform;
    s.bugs = uint16_t(Bug::MissingBarrier);
    const Trace t = emulate(s);
    const uint64_t poison = pack_value(unpack_value<float>(kPoisonBits));
    size_t unwritten = 0, stored = 0;
    for (const Event& e : t.events) {
        if (e.kind != EventKind::SharedLoad) continue;
        if (e.dep[0] == kNoEvent) {
            ++unwritten;
            CHECK((e.flags & kTaintFlags) == kUnwrittenMemory);
            CHECK(e.value == poison);
        } else {
            ++stored;
            const Event& st = t.events[e.dep[0]];
            CHECK(st.kind == EventKind::SharedStore);
            CHECK(st.detail == e.detail);
            CHECK(e.value == st.value);
            CHECK((e.flags & (kTaintFlags | kIdentity)) == (st.flags & (kTaintFlags | kIdentity)));  // the store's shadow travels with its value
            CHECK((e.flags & kUndefined) == 0);
        }
    }
    CHECK(unwritten == 3);
    CHECK(stored == 1);
    CHECK((t.result_flags & kUndefined) != 0);  // the undefined reads reach the result
    s.bugs = 0;
    for (const Event& e : emulate(s).events)
        if (e.kind == EventKind::SharedLoad) CHECK((e.dep[0] != kNoEvent && (e.flags & kUndefined) == 0));
}
