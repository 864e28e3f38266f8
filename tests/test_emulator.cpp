// tests/test_emulator.cpp — the eight-thread example and the emulator's warp rules, by hand-checkable cases.
#include <doctest/doctest.h>

#include <map>

#include "core/analysis.h"
#include "core/emulator.h"

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
