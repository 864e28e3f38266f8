// tests/test_mutant_gaps.cpp — what the mutation harness (scripts/mutate.sh, docs/mutation.md) found no test to
// check: the exact reference at a rounding midpoint, pairwise accumulation's bound, the trace reader's limits at
// their exact boundary and the fields it must read back. Each expectation comes from IEEE arithmetic worked by hand,
// the bound's derivation (Higham) or docs/limits.md.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/emulator.h"
#include "core/error_bounds.h"
#include "core/exact_sum.h"
#include "core/limits.h"
#include "core/trace_io.h"
#include "support/helpers.h"

using namespace rl;

namespace {

// A float sum of the given values as the emulator's reference (fill_reference) sees it.
float f32_reference(std::vector<double> values) {
    Schedule s;
    s.n = values.size();
    s.input.kind = InputKind::Values;
    s.input.values = std::move(values);
    REQUIRE(validate(s).empty());
    const Trace t = emulate(s);
    return unpack_value<float>(t.reference_value);
}

double exact(std::initializer_list<double> xs) {
    ExactSum s;
    for (double x : xs) s.add(x);
    return s.rounded();
}

std::string json_error(const nlohmann::ordered_json& j) { return test::trace_json_error(j.dump()); }

}  // namespace

TEST_CASE("mutant gaps: the exact double sum just past a midpoint rounds away from it (fsum's half-ulp step)") {
    // 1 + 2^-53 is a tie between 1 and 1 + 2^-52; the 2^-106 beyond it decides: up. Summed in double it rounds to 1.
    CHECK(exact({1.0, 0x1p-53, 0x1p-106}) == 1.0 + 0x1p-52);
    CHECK(exact({-1.0, -0x1p-53, -0x1p-106}) == -(1.0 + 0x1p-52));
    // Below the midpoint: down. On it exactly: to even (1).
    CHECK(exact({1.0, 0x1p-53, -0x1p-106}) == 1.0);
    CHECK(exact({1.0, 0x1p-53}) == 1.0);
    CHECK(exact({1.0 + 0x1p-52, 0x1p-53}) == 1.0 + 0x1p-51);  // a tie from an odd last bit rounds up to even
}

TEST_CASE("mutant gaps: a float reference is rounded once from the exact sum, never by way of double") {
    // 1 + 2^-24 + 2^-60: in double that is 1 + 2^-24 (2^-60 is below half its ulp), which float() then takes as a
    // tie and rounds to even, 1. The exact sum is past the float midpoint 1 + 2^-24, so its float is 1 + 2^-23.
    const double tiny = 0x1p-60;
    CHECK(f32_reference({1.0, 0x1p-24, tiny}) == 1.0f + 0x1p-23f);
    CHECK(f32_reference({-1.0, -0x1p-24, -tiny}) == -(1.0f + 0x1p-23f));
    CHECK(f32_reference({1.0, 0x1p-24, -tiny}) == 1.0f);  // just below the midpoint: down
    CHECK(f32_reference({1.0, 0x1p-24}) == 1.0f);         // on it: to even
    ExactSum s;
    for (double x : {1.0, 0x1p-24, tiny}) s.add(x);
    CHECK(s.rounded_float() == 1.0f + 0x1p-23f);
}

TEST_CASE("mutant gaps: the trace reader's limits hold at their exact boundary") {
    // The eight-thread example: one block of 8 threads, 8 elements; event 0 is thread 0's load of element 0.
    const auto good = nlohmann::ordered_json::parse(test::eight_threads_json());
    REQUIRE(json_error(good).empty());
    REQUIRE(good["events"][0]["kind"] == "load");
    const uint64_t steps = good["step_count"].get<uint64_t>();
    {
        auto j = good;  // a step equal to step_count is past the last step
        j["events"][0]["step"] = steps;
        CHECK(json_error(j).find("not below \"step_count\"") != std::string::npos);
        j["events"][0]["step"] = steps - 1;
        CHECK(json_error(j).find("step_count") == std::string::npos);
    }
    {
        auto j = good;  // thread 8 of a block of 8 threads
        j["events"][0]["lane"] = 8;
        CHECK(json_error(j).find("is thread 8 of a block of 8 threads") != std::string::npos);
        j["events"][0]["lane"] = 32;  // lanes are 0..31: lane 32 would alias lane 0 of the next warp
        CHECK(json_error(j).find("at most 31") != std::string::npos);
    }
    {
        auto j = good;  // element 8 of 8 elements
        j["events"][0]["aux"] = 8;
        CHECK(json_error(j).find("loads element 8 of 8") != std::string::npos);
        j["events"][0]["aux"] = 7;
        CHECK(json_error(j).find("loads element") == std::string::npos);
    }
    {
        // kJsonDepth levels of arrays and objects are allowed (the document itself is the first), one more is not.
        auto nested = [](int levels) {
            nlohmann::ordered_json v = nlohmann::ordered_json::array();
            for (int k = 1; k < levels; ++k) v = nlohmann::ordered_json::array({v});
            return v;
        };
        auto j = good;
        j["padding"] = nested(limits::kJsonDepth - 1);
        CHECK(json_error(j).find("nested deeper") == std::string::npos);
        j["padding"] = nested(limits::kJsonDepth);
        CHECK(json_error(j).find("nested deeper than " + std::to_string(limits::kJsonDepth)) != std::string::npos);
    }
}

TEST_CASE("mutant gaps: a trace read back keeps its timestamps, result flags and hazards' lanes") {
    // A partial warp with the full mask whose lanes read past the participating ones: an undefined result and hazards.
    Schedule s;
    s.n = 40;
    s.block = 40;
    s.bugs = uint16_t(Bug::UnboundedSource);
    s.input.kind = InputKind::Normal;  // signed values: the exact sum is not the sum of magnitudes
    REQUIRE(validate(s).empty());
    Trace t = emulate(s);
    REQUIRE(t.reference_exact != t.abs_sum);
    REQUIRE((t.result_flags & kUndefined) != 0);
    REQUIRE(!t.hazards.empty());
    t.times.resize(t.events.size());
    for (size_t i = 0; i < t.times.size(); ++i) t.times[i] = {1000 + 7 * i, 50 + 3 * i, uint32_t(i % 5)};
    std::stringstream io;
    write_trace_json(io, t);
    const Trace r = read_trace_json(io);
    CHECK(r.result_flags == t.result_flags);
    CHECK(r.abs_sum == t.abs_sum);
    CHECK(r.reference_exact == t.reference_exact);
    REQUIRE(r.times.size() == t.times.size());
    for (size_t i = 0; i < t.times.size(); ++i) {
        CHECK(r.times[i].globaltimer_ns == t.times[i].globaltimer_ns);
        CHECK(r.times[i].clock == t.times[i].clock);
        CHECK(r.times[i].sm == t.times[i].sm);
    }
    REQUIRE(r.hazards.size() == t.hazards.size());
    for (size_t i = 0; i < t.hazards.size(); ++i) {
        CHECK(r.hazards[i].kind == t.hazards[i].kind);
        CHECK(r.hazards[i].event == t.hazards[i].event);
        CHECK(r.hazards[i].lanes == t.hazards[i].lanes);
        CHECK(r.hazards[i].lanes != 0);
    }
}

TEST_CASE("mutant gaps: a pairwise thread stage of k items is bounded over ceil(log2 k) roundings") {
    // Pairwise summation of k items is a balanced tree: each item passes through at most ceil(log2 k) additions
    // (Higham §4.2), so its relative bound is gamma_ceil(log2 k); one item has no addition at all.
    for (double u : {0x1p-24, 0x1p-53})
        for (uint64_t k : {2ull, 3ull, 4ull, 5ull, 8ull, 9ull, 1000ull, 1024ull, 1025ull, 65536ull}) {
            uint32_t levels = 0;
            while ((uint64_t(1) << levels) < k) ++levels;  // ceil(log2 k), by counting
            INFO("k = " << k);
            CHECK(thread_stage_relative(Accum::Pairwise, k, u) == doctest::Approx(levels * u / (1 - levels * u)).epsilon(1e-12));
        }
    CHECK(thread_stage_relative(Accum::Pairwise, 1, 0x1p-24) == 0.0);
}
