// tests/test_bench_report.cpp — the bench results model: JSON round trip, one-line errors, crossovers, CSV, table, lookup.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "core/bench_report.h"
#include "core/emulator.h"  // rl::Error
#include "support/helpers.h"

using namespace rl;

namespace {

// The test fixture: made-up numbers shaped like a benchmark (never shown by the apps unless passed).
const std::string kFixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json";

BenchResult result(const char* variant, uint64_t n, double us, const char* cache = "warm") {
    BenchResult b;
    b.variant = variant;
    b.n = n;
    b.cache = cache;
    b.median_us = us;
    b.min_us = us * 0.9;
    b.max_us = us * 1.1;
    b.reps = 20;
    b.gbps = double(n) * 4 / us / 1e3;
    return b;
}

std::string error_of(const std::string& text) {
    return test::thrown_error([&] { bench_from_json(text); });
}

const char* kHead = R"({"device":"d","driver":"1","cuda":"13.0","date":"2026-11-29T00:00:00Z","results":)";

}  // namespace

TEST_CASE("bench JSON round trip keeps every field") {
    BenchReport r;
    r.device = "NVIDIA H200";
    r.driver = "580.159.04";
    r.cuda = "13.0";
    r.date = "2026-11-29T20:10:00Z";
    r.copy_gbps = 3900.5;
    r.datasheet_gbps = 4800;
    r.sm_count = 132;
    r.l2_bytes = 52428800;
    r.method = "cudaEvent around each launch";
    r.results = {result("two-pass", 1 << 20, 11.25), result("atomic-block", 1 << 20, 10.5, "cold")};
    r.results[1].op = "max";
    r.results[1].dtype = "bf16";
    r.results[1].abs_error = 1e-6;
    r.results[1].tolerance = 1e-3;
    const BenchReport back = bench_from_json(bench_to_json(r));
    CHECK(back.device == r.device);
    CHECK(back.driver == r.driver);
    CHECK(back.cuda == r.cuda);
    CHECK(back.date == r.date);
    CHECK(back.copy_gbps == r.copy_gbps);
    CHECK(back.datasheet_gbps == r.datasheet_gbps);
    CHECK(back.sm_count == 132);
    CHECK(back.l2_bytes == r.l2_bytes);
    CHECK(back.method == r.method);
    REQUIRE(back.results.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const BenchResult &a = r.results[i], &b = back.results[i];
        CHECK(a.variant == b.variant);
        CHECK(a.dtype == b.dtype);
        CHECK(a.op == b.op);
        CHECK(a.n == b.n);
        CHECK(a.cache == b.cache);
        CHECK(a.median_us == b.median_us);
        CHECK(a.min_us == b.min_us);
        CHECK(a.max_us == b.max_us);
        CHECK(a.reps == b.reps);
        CHECK(a.gbps == b.gbps);
        CHECK(a.abs_error == b.abs_error);
        CHECK(a.tolerance == b.tolerance);
    }
}

TEST_CASE("bench JSON with only the contract's fields reads with defaults") {
    const BenchReport r = bench_from_json(std::string(kHead) +
                                          R"([{"variant":"cub","dtype":"f32","n":1024,"median_us":5,"min_us":4,"max_us":6,"gbps":0.8}]})");
    REQUIRE(r.results.size() == 1);
    CHECK(r.results[0].op == "sum");
    CHECK(r.results[0].cache == "warm");
    CHECK(r.copy_gbps == 0);
    CHECK(r.caches() == std::vector<std::string>{"warm"});
}

TEST_CASE("malformed bench files give one-line errors") {
    const std::string cases[] = {
        "{not json",
        "[1,2]",
        R"({"driver":"1","cuda":"1","date":"x","results":[]})",                  // no device
        std::string(kHead) + "{}}",                                             // results not an array
        std::string(kHead) + "[3]}",                                            // result not an object
        std::string(kHead) + R"([{"variant":"warp-magic","dtype":"f32","n":1,"median_us":1,"min_us":1,"max_us":1,"gbps":1}]})",
        std::string(kHead) + R"([{"variant":"cub","dtype":"f32","n":"big","median_us":1,"min_us":1,"max_us":1,"gbps":1}]})",
        std::string(kHead) + R"([{"variant":"cub","dtype":"f32","n":8,"median_us":1,"min_us":2,"max_us":3,"gbps":1}]})",
        std::string(kHead) + R"([{"variant":"cub","dtype":"f32","n":0,"median_us":1,"min_us":1,"max_us":1,"gbps":1}]})",
        std::string(kHead) + R"([{"variant":"cub","dtype":"f32","n":8,"min_us":1,"max_us":1,"gbps":1}]})",
    };
    for (const std::string& text : cases) {
        CAPTURE(text);
        const std::string e = error_of(text);
        CHECK(!e.empty());
        CHECK(e.find('\n') == std::string::npos);
        CHECK(e.rfind("bench JSON:", 0) == 0);
    }
    CHECK(error_of(std::string(kHead) + R"([{"variant":"warp-magic","dtype":"f32","n":1,"median_us":1,"min_us":1,"max_us":1,"gbps":1}]})")
              .find("warp-magic") != std::string::npos);
    std::string missing;
    try {
        load_bench_file("/nonexistent/bench.json");
    } catch (const Error& e) {
        missing = e.what();
    }
    CHECK(missing.find("/nonexistent/bench.json") != std::string::npos);
}

TEST_CASE("crossover: the first size from which one variant wins for good") {
    BenchReport r;
    // b wins at 2^10; a wins at 2^12, loses once at 2^14 (a noisy point), then wins for good from 2^16.
    const double a[] = {4.0, 4.1, 11.5, 4.6, 6.0};
    const double b[] = {3.5, 5.0, 11.2, 35.8, 134.0};
    for (int i = 0; i < 5; ++i) {
        r.results.push_back(result("atomic-block", uint64_t(1) << (10 + 2 * i), a[i]));
        r.results.push_back(result("atomic-element", uint64_t(1) << (10 + 2 * i), b[i]));
    }
    CHECK(crossover(r, "atomic-block", "atomic-element") == uint64_t(1) << 16);
    CHECK(!crossover(r, "atomic-element", "atomic-block"));  // loses at the largest size: never for good
    CHECK(!crossover(r, "two-pass", "atomic-block"));        // not measured at all
    CHECK(!crossover(r, "atomic-block", "atomic-element", "f32", "cold"));
    // Winning everywhere: the crossover is the smallest size.
    r.results[0].median_us = 3.0;
    r.results[0].min_us = 2.9;
    r.results[4].median_us = 10.0;
    r.results[4].min_us = 9.0;
    r.results[4].max_us = 12.0;
    CHECK(crossover(r, "atomic-block", "atomic-element") == uint64_t(1) << 10);
}

TEST_CASE("crossover analysis on the fixture names the sizes and the reasons") {
    const BenchReport r = load_bench_file(kFixture);
    CHECK(r.device.find("FIXTURE") != std::string::npos);
    CHECK(crossover(r, "atomic-block", "atomic-element") == uint64_t(1) << 16);
    CHECK(crossover(r, "two-pass", "atomic-block") == uint64_t(1) << 22);
    CHECK(r.caches() == std::vector<std::string>{"warm", "cold"});
    const std::vector<std::string> lines = crossover_analysis(r);
    REQUIRE(lines.size() >= 2);
    CHECK(lines[0].find("One atomic per block beats one atomic per element from n = 2^16") == 0);
    CHECK(lines[1].find("Two-pass beats one atomic per block from n = 2^22") == 0);
    for (const std::string& l : lines) CHECK(l.find('\n') == std::string::npos);
    // Cold: only two-pass, atomic-block and fast were measured, at 2^20..2^24.
    const std::vector<std::string> cold = crossover_analysis(r, "cold");
    REQUIRE(!cold.empty());
    CHECK(cold[0].find("Two-pass beats one atomic per block from n = 2^22") == 0);
    CHECK(r.series("two-pass", "f32", "cold").size() == 3);
}

TEST_CASE("bench CSV: a header, then one row per result") {
    BenchReport r;
    r.results = {result("cub", 1024, 5.5), result("fast", 4096, 3.25)};
    const std::string csv = bench_to_csv(r);
    CHECK(csv.rfind("variant,dtype,op,n,cache,median_us,min_us,max_us,reps,gbps,abs_error,tolerance,offset\n", 0) == 0);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
    CHECK(csv.find("\ncub,f32,sum,1024,warm,5.500,4.950,6.050,20,") != std::string::npos);
    CHECK(csv.find("\nfast,f32,sum,4096,warm,3.250,") != std::string::npos);
}

TEST_CASE("bench table: sizes down, variants across, the fastest with its bandwidth") {
    const BenchReport r = load_bench_file(kFixture);
    const std::string t = bench_table(r);
    CHECK(t.rfind("sum over f32, warm cache, median microseconds", 0) == 0);
    CHECK(t.find("atomic-element") != std::string::npos);
    CHECK(t.find("cooperative") == std::string::npos);  // not in the fixture: no empty column
    CHECK(t.find("\n2^24 ") != std::string::npos);
    // At 2^24 the fastest is `fast` at 58 us: 67,108,864 bytes / 58 us = 1157 GB/s, 28.9% of the copy.
    CHECK(t.find("fast 1157; 29%; 24.1%") != std::string::npos);
    CHECK(bench_table(r, "f64").empty());
}

TEST_CASE("find_recorded_bench honours RLAB_BENCH_FILE, else walks up to docs/bench") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / "rlab-bench-find";
    fs::remove_all(root);
    fs::create_directories(root / "docs" / "bench");
    fs::create_directories(root / "a" / "b");
    unsetenv("RLAB_BENCH_FILE");
    CHECK(find_recorded_bench((root / "a" / "b").string()).empty());
    std::ofstream(root / "docs" / "bench" / "h200-2026-11-28.json") << "{}";
    std::ofstream(root / "docs" / "bench" / "h200-2026-11-29.json") << "{}";
    std::ofstream(root / "docs" / "bench" / "notes.md") << "not results";
    CHECK(find_recorded_bench((root / "a" / "b").string()) == (root / "docs" / "bench" / "h200-2026-11-29.json").string());
    setenv("RLAB_BENCH_FILE", kFixture.c_str(), 1);
    CHECK(find_recorded_bench((root / "a").string()) == kFixture);
    unsetenv("RLAB_BENCH_FILE");
    fs::remove_all(root);
}

TEST_CASE("bench JSON: one row per cell (variant, type, op, n, cache, start); offsets and round medians round-trip") {
    BenchReport r;
    r.device = "d", r.driver = "1", r.cuda = "13", r.date = "2026-12-01T00:00:00Z";
    BenchResult a = result("fast", 1001, 5.0);
    a.offset = 1;
    a.round_medians_us = {4.9, 5.0, 5.2};
    r.results.push_back(a);
    r.results.push_back(result("fast", 1001, 6.0));  // the aligned cell of the same size: a different cell
    const BenchReport back = bench_from_json(bench_to_json(r));
    REQUIRE(back.results.size() == 2);
    CHECK(back.find("fast", "f32", 1001, "warm", "sum", 1)->round_medians_us == a.round_medians_us);
    CHECK(back.find("fast", "f32", 1001)->offset == 0);
    r.results.push_back(result("fast", 1001, 7.0));  // the aligned cell again
    CHECK_THROWS_WITH_AS(bench_from_json(bench_to_json(r)), doctest::Contains("one row per cell"), Error);
}

TEST_CASE("fast against CUB: a difference inside the rounds' spread is a tie, not a win") {
    BenchResult f = result("fast", 1 << 20, 10.0), c = result("cub", 1 << 20, 10.5);
    f.round_medians_us = {9.8, 10.0, 10.6};
    c.round_medians_us = {10.3, 10.5, 10.7};
    CHECK(compare_with_cub(f, c).verdict == "tie");  // fast's slowest round (10.6) is not below CUB's fastest (10.3)
    f.round_medians_us = {9.8, 10.0, 10.2};
    CHECK(compare_with_cub(f, c).verdict == "win");
    c.round_medians_us = {9.0, 9.2, 9.5};
    c.median_us = 9.2;
    CHECK(compare_with_cub(f, c).verdict == "loss");
    CHECK(compare_with_cub(f, c).ratio == doctest::Approx(0.92));
    // One round: beyond 1% either way.
    BenchResult g = result("fast", 64, 10.0), h = result("cub", 64, 10.05);
    CHECK(compare_with_cub(g, h).verdict == "tie");
    h.median_us = 10.2;
    CHECK(compare_with_cub(g, h).verdict == "win");
}

TEST_CASE("bench Markdown: the summary counts wins, ties and losses from the cells, and names the losses") {
    BenchReport r;
    r.device = "GPU", r.driver = "1", r.cuda = "13", r.date = "2026-12-01T00:00:00Z", r.datasheet_gbps = 4800;
    r.results = {result("fast", 1024, 5.0), result("cub", 1024, 6.0), result("fast", 1 << 28, 250.0), result("cub", 1 << 28, 240.0)};
    const std::string s = bench_markdown(r, "summary");
    CHECK(s.find("2 cells: 1 faster in every round, 0 tied (inside the spread), 1 slower: f32 sum 2^28 warm (0.960)") != std::string::npos);
    CHECK(s.find("f32 sum at 2^28, warm: median 250.0 us") != std::string::npos);
    const std::string t = bench_markdown(r, "tables");
    CHECK(t.find("| 2^10 | aligned |") != std::string::npos);
    CHECK(t.find("| loss |") != std::string::npos);
    CHECK_THROWS_AS(bench_markdown(r, "everything"), Error);
}

TEST_CASE("bench Markdown: the deterministic mode counts as slower only where every round shows it beyond 2%") {
    BenchReport r;
    r.device = "GPU", r.driver = "1", r.cuda = "13", r.date = "2026-12-01T00:00:00Z";
    auto cell = [&](uint64_t n, std::vector<double> fast, std::vector<double> det) {
        BenchResult f = result("fast", n, fast[1]), d = result("fast-deterministic", n, det[1]), c = result("cub", n, 9.0);
        f.round_medians_us = fast, d.round_medians_us = det, c.round_medians_us = {9.0, 9.0, 9.0};
        r.results.insert(r.results.end(), {f, d, c});
    };
    cell(1024, {5.0, 5.0, 5.0}, {5.2, 5.3, 5.4});     // 4-8% in every round: counted
    cell(2048, {5.0, 5.0, 5.0}, {5.05, 5.5, 5.6});    // 1% in one round: inside the spread
    cell(4096, {5.0, 5.0, 5.0}, {4.9, 5.0, 5.05});    // not slower
    const std::string s = bench_markdown(r, "summary");
    CHECK(s.find("- Deterministic mode: 1 of 3 cells more than 2% slower than the fast one in every round: f32 sum 2^10 "
                 "warm (at least 4.0% in each round); by median at most 10.0% slower (f32 sum 2^11 warm).") !=
          std::string::npos);
    // Eight more such cells, 3% to 10% slower: the slowest six are named, worst first, the rest counted.
    for (int k = 0; k < 8; ++k) cell(uint64_t(1) << (13 + k), {5.0, 5.0, 5.0}, std::vector<double>(3, 5.15 + 0.05 * k));
    const std::string many = bench_markdown(r, "summary");
    CHECK(many.find("9 of 11 cells more than 2% slower than the fast one in every round: f32 sum 2^20 warm (at least 10.0% "
                    "in each round); f32 sum 2^19 warm (at least 9.0% in each round);") != std::string::npos);
    CHECK(many.find("f32 sum 2^15 warm (at least 5.0% in each round); and 3 more; by median") != std::string::npos);
}
