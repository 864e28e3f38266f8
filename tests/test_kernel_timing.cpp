// tests/test_kernel_timing.cpp — rlab run --time's result model: kernel parameters from mangled names, the exact check
// of every repetition, GB/s and % of peak, the rows, the JSON and its one-line errors (values derived by hand).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include "core/emulator.h"  // rl::Error
#include "core/input.h"
#include "core/kernel_timing.h"

using namespace rl;

namespace {

InputData input_of(DType type, uint64_t n, InputKind kind = InputKind::Iota, std::vector<double> values = {}) {
    Schedule s;
    s.n = n;
    s.type = type;
    s.input.kind = kind;
    s.input.values = std::move(values);
    return make_input(s);
}

// n = 2^20 f32 (4 MiB read), the student's kernel at 20 us, the fast path at 10, CUB at 12.5, on an H200.
KernelTiming sample() {
    KernelTiming t;
    t.device = "NVIDIA H200";
    t.date = "2026-12-03T18:00:00Z";
    t.dtype = "f32";
    t.n = uint64_t(1) << 20;
    t.input = "iota";
    t.datasheet_gbps = datasheet_bandwidth_gbps(t.device);
    t.check.reference = 42;
    t.check.text = "42 (exact)";
    auto row = [](const char* name, double us) {
        KernelTimingRow r;
        r.name = name;
        r.what = name;
        r.timed = true;
        r.reps = 30;
        r.median_us = us;
        r.min_us = us * 0.9;
        r.max_us = us * 1.2;
        r.result = "42";
        return r;
    };
    t.rows = {row("your kernel", 20), row("fast path", 10), row("CUB", 12.5)};
    return t;
}

}  // namespace

TEST_CASE("kernel timing: a kernel's parameters from its mangled name") {
    auto p = kernel_params_from_mangled("_Z7harris4PiS_j");  // harris4(int*, int*, unsigned)
    REQUIRE(p.size() == 3);
    CHECK(p[0].kind == ParamKind::Pointer);
    CHECK(p[0].pointee == 'i');
    CHECK(p[1].kind == ParamKind::Pointer);
    CHECK(p[1].pointee == 'i');
    CHECK(p[2].kind == ParamKind::Int32);
    // template <unsigned blockSize> harris6(int*, int*, unsigned): template arguments, then the return type
    p = kernel_params_from_mangled("_Z7harris6ILj64EEvPiS0_j");
    REQUIRE(p.size() == 3);
    CHECK((p[0].kind == ParamKind::Pointer && p[1].kind == ParamKind::Pointer && p[2].kind == ParamKind::Int32));
    // reduce(const float*, float*, size_t)
    p = kernel_params_from_mangled("_Z6reducePKfPfm");
    REQUIRE(p.size() == 3);
    CHECK(p[0].pointee == 'f');
    CHECK(p[1].pointee == 'f');
    CHECK(p[2].kind == ParamKind::Int64);
    CHECK(element_type_of(p, "reduce") == DType::F32);
    CHECK(element_type_of(kernel_params_from_mangled("_Z1kPKdPdi"), "k") == DType::F64);
    CHECK(element_type_of(kernel_params_from_mangled("_Z7harris4PiS_j"), "harris4") == DType::I32);
    // in a namespace: lab::k(const float*, float*, int)
    p = kernel_params_from_mangled("_ZN3lab1kEPKfPfi");
    REQUIRE(p.size() == 3);
    CHECK(p[2].kind == ParamKind::Int32);
    // argmax_first(const float*, ValueIndex*, int): a struct's name is one parameter
    p = kernel_params_from_mangled("_Z12argmax_firstPKfP10ValueIndexi");
    REQUIRE(p.size() == 3);
    CHECK(p[1].kind == ParamKind::Pointer);
    CHECK(p[2].kind == ParamKind::Int32);
    CHECK_THROWS_AS(element_type_of(p, "argmax_first"), Error);
    CHECK_THROWS_AS(kernel_params_from_mangled("harris4"), Error);  // extern "C": no types to read
    // argmax writes int indices from float input: one type is needed
    CHECK_THROWS_WITH_AS(element_type_of(kernel_params_from_mangled("_Z6argmaxPKfPii"), "argmax"),
                         doctest::Contains("different element types"), Error);
}

TEST_CASE("kernel timing: the reference every repetition is checked against") {
    // 1 + 2 + ... + 16384 = 16384 * 16385 / 2 = 134225920 (the corpus's harris4 line)
    KernelCheck c = kernel_check(input_of(DType::I32, 16384), Op::Sum);
    CHECK(c.reference == 134225920.0);
    CHECK(c.tolerance == 0);
    CHECK(c.passes(134225920.0));
    CHECK_FALSE(c.passes(134225920.0 - 16384));  // one element dropped
    // int adds wrap modulo 2^32 on the GPU: 2147483647 + 1 = -2147483648
    c = kernel_check(input_of(DType::I32, 2, InputKind::Values, {2147483647, 1}), Op::Sum);
    CHECK(c.reference == -2147483648.0);
    // f32 1..1000: every partial sum is a whole number below 2^24, exact in any order: 500500 exactly
    c = kernel_check(input_of(DType::F32, 1000), Op::Sum);
    CHECK(c.reference == 500500.0);
    CHECK(c.tolerance == 0);
    CHECK_FALSE(c.passes(500501.0));
    // f32 1..8192: sum 33558528 > 2^24, so orders differ; the bound gamma(8191) * 33558528 with u = 2^-24
    c = kernel_check(input_of(DType::F32, 8192), Op::Sum);
    CHECK(c.reference == 33558528.0);
    const double u = std::ldexp(1.0, -24), g = 8191 * u / (1 - 8191 * u);
    CHECK(c.tolerance == doctest::Approx(g * 33558528.0).epsilon(1e-12));
    CHECK(c.passes(33558528.0 + 1000));
    CHECK(c.tolerance == doctest::Approx(16392.0).epsilon(1e-3));  // 8191 * 2^-24 / (1 - 8191 * 2^-24) * 33558528
    CHECK_FALSE(c.passes(33558528.0 - 20000));  // outside the bound: no order of f32 adds gives it
    CHECK_FALSE(c.passes(NAN));
    // max and min are exact in any order
    c = kernel_check(input_of(DType::F32, 3, InputKind::Values, {-3, 5.5, 2}), Op::Max);
    CHECK(c.reference == 5.5);
    CHECK(c.tolerance == 0);
    CHECK(kernel_check(input_of(DType::F32, 3, InputKind::Values, {-3, 5.5, 2}), Op::Min).reference == -3.0);
    CHECK_THROWS_WITH_AS(kernel_check(input_of(DType::F32, 4), Op::ArgMax), doctest::Contains("sum, max and min"), Error);
}

TEST_CASE("kernel timing: GB/s, % of the H200's bandwidth, the rows and the text") {
    KernelTiming t = sample();
    CHECK(t.datasheet_gbps == 4800.0);
    CHECK(datasheet_bandwidth_gbps("Some GPU") == 0.0);
    // 4194304 bytes in 20 us = 209.7152 GB/s = 4.369% of 4800; in 10 us 419.43 GB/s = 8.738%
    CHECK(row_gbps(t, t.rows[0]) == doctest::Approx(209.7152));
    CHECK(row_percent_of_peak(t, t.rows[1]) == doctest::Approx(8.738133));
    t.rows[2].timed = false;
    t.rows[2].why = "no CUB for this type";
    t.rows[0].wrong = 2;
    const auto cells = kernel_timing_cells(t);
    REQUIRE(cells.size() == 3);
    CHECK(cells[0] == std::vector<std::string>{"your kernel", "20.00", "210", "4.4%", "2 of 30 WRONG"});
    CHECK(cells[1] == std::vector<std::string>{"fast path", "10.00", "419", "8.7%", "30/30 exact"});
    CHECK(cells[2][4] == "not timed: no CUB for this type");
    CHECK_FALSE(kernel_timing_ok(t));
    t.rows[0].wrong = 0;
    CHECK(kernel_timing_ok(t));
    const std::string text = kernel_timing_text(t);
    CHECK(text.find("your kernel takes 2.00x the time of fast path") != std::string::npos);
    CHECK(text.find("reference: 42 (exact)") != std::string::npos);
}

TEST_CASE("kernel timing: JSON round trip and one-line errors") {
    const KernelTiming t = sample();
    const KernelTiming back = kernel_timing_from_json(kernel_timing_to_json(t));
    CHECK(back.device == t.device);
    CHECK(back.n == t.n);
    REQUIRE(back.rows.size() == 3);
    CHECK(back.rows[2].name == "CUB");
    CHECK(back.rows[2].median_us == 12.5);
    CHECK(kernel_timing_cells(back) == kernel_timing_cells(t));
    CHECK_THROWS_WITH_AS(kernel_timing_from_json("{\"results\": []}"), doctest::Contains("{\"kernel_timing\""), Error);
    std::string bad = kernel_timing_to_json(t);
    const std::string median = "\"median_us\": 20.0";
    REQUIRE(bad.find(median) != std::string::npos);
    bad.replace(bad.find(median), median.size(), "\"median_us\": 0");
    CHECK_THROWS_WITH_AS(kernel_timing_from_json(bad), doctest::Contains("row 0 is timed but needs median_us > 0"), Error);
    CHECK_THROWS_WITH_AS(kernel_timing_from_json("{\"kernel_timing\": {\"device\": \"x\"}}"), doctest::Contains("has no \"date\""),
                         Error);
}

TEST_CASE("kernel timing: the fixture the front ends' tests show") {
    const KernelTiming t = load_kernel_timing_file(std::string(RLAB_SOURCE_DIR) + "/tests/data/kernel-timing-fixture.json");
    REQUIRE(t.rows.size() == 3);
    CHECK(t.rows[0].name == "your kernel");
    CHECK(kernel_timing_ok(t));
}
