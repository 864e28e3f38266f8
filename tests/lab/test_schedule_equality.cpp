// tests/lab/test_schedule_equality.cpp — "is this the same schedule?" compares every field, and a schedule written
// out as fields (settings, trace JSON) reads back equal.
#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include "app/lab/numerics_state.h"
#include "core/emulator.h"
#include "core/trace_io.h"
#include "../random_schedule.h"

using namespace rl;

namespace {

Schedule from_fields(const std::vector<std::pair<std::string, std::string>>& fields) {
    Schedule s;
    for (const auto& [name, value] : fields) REQUIRE(set_field(s, name, value) == "");
    return s;
}

}  // namespace

TEST_CASE("schedule equality: a step that changes only its input is another schedule") {
    Schedule a;
    a.type = DType::I32;
    a.input.kind = InputKind::Values;
    a.input.values = {1, 2, 3, 4, 5, 6, 7, 8};
    Schedule b = a;
    b.input.values = {10, 20, 30, 40, 50, 60, 70, 80};
    CHECK(describe(a) == describe(b));  // the one-line description leaves the input out: not an equality
    CHECK(a != b);
    CHECK(emulate(a).result_value != emulate(b).result_value);  // and the traces differ

    Schedule c = a;
    CHECK(a == c);
    c.input.kind = InputKind::Uniform;
    c.input.values.clear();
    Schedule d = c;
    d.input.seed = 2;
    CHECK(c != d);  // seed only
    Schedule e = c;
    e.accum = Accum::Kahan;
    CHECK(c != e);  // accumulation only
    Schedule f = c;
    f.bugs = uint16_t(Bug::UninitTail);
    CHECK(c != f);  // a bug only
}

TEST_CASE("schedule fields: every field written out reads back as an equal schedule") {
    std::mt19937_64 rng(13);
    for (int i = 0; i < 300; ++i) {
        Schedule s = testing::random_schedule(rng);
        if (i % 3 == 0) s.accum = Accum(rng() % 4);
        if (i % 4 == 0) {
            s.input.kind = InputKind::Values;
            s.input.values = {0.1, -1e-300, 3.0, 1.0 / 3.0, 123456789.123456789};
            s.n = s.input.values.size();
        }
        CAPTURE(describe(s));
        CHECK(from_fields(schedule_fields(s)) == s);
    }
    Schedule bugs;
    bugs.block = 64;
    bugs.bugs = uint16_t(Bug::MissingBarrier) | uint16_t(Bug::UninitTail);
    size_t bug_pairs = 0;
    for (const auto& f : schedule_fields(bugs)) bug_pairs += f.first == "bug";
    CHECK(bug_pairs == 2);
    CHECK(from_fields(schedule_fields(bugs)) == bugs);
}

TEST_CASE("schedule fields: the trace JSON carries the same schedule (grid as launched)") {
    Schedule s;
    s.n = 1000;
    s.block = 128;
    s.accum = Accum::Pairwise;
    s.input.kind = InputKind::Normal;
    s.input.seed = 99;
    std::stringstream json;
    write_trace_json(json, emulate(s));
    const Trace back = read_trace_json(json);
    Schedule expected = s;
    expected.grid = s.grid_size();
    CHECK(back.schedule == expected);
}

TEST_CASE("numerics state: recomputed when only the input changes, kept when nothing does") {
    Schedule s;
    s.n = 64;
    s.block = 32;
    s.input.kind = InputKind::Uniform;
    lab::NumericsState n;
    n.update(s);
    REQUIRE(n.ready);
    const double first = n.report.exact;
    n.update(s);
    CHECK(n.report.exact == first);
    s.input.seed = 7;  // the same sizes and stages, another input
    n.update(s);
    REQUIRE(n.ready);
    CHECK(n.report.exact != first);
}
