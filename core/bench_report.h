// core/bench_report.h — measured benchmark results: the `rlab bench` JSON and CSV, the terminal
// table and the crossover analysis. No CUDA here: the front ends read recorded results with it.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "core/data_paths.h"

namespace rl {

// The variant names of the command-line contract, in table order.
inline constexpr std::string_view kBenchVariants[] = {
    "atomic-element", "atomic-block", "two-pass", "last-block", "cooperative",
    "fast", "fast-deterministic", "cub", "instrumented"};

// Harris's kernels (2007) as schedules of the chapter's kernels, int32 at 2^22 (kernels 5 and 6
// unroll source loops, which a schedule does not express).
inline constexpr std::string_view kHarrisVariants[] = {"harris-1", "harris-2", "harris-3", "harris-4", "harris-7"};

struct BenchResult {
    std::string variant;        // one of kBenchVariants
    std::string dtype = "f32";  // element type read: f32 | bf16 | f64 (accumulation: f32, f32, f64)
    std::string op = "sum";     // sum | max | min
    uint64_t n = 0;             // elements
    std::string cache = "warm"; // warm (same buffer, repeated) | cold (L2 flushed before each rep)
    uint32_t offset = 0;        // elements the input starts past a 256-byte boundary (1: misaligned for vector loads)
    double median_us = 0, min_us = 0, max_us = 0;  // over every repetition of every round
    std::vector<double> round_medians_us;  // one median per round of the whole matrix (empty: one round, not kept)
    int reps = 0;
    double gbps = 0;            // bytes read (n * element size) / median time, in GB/s (1e9)
    double abs_error = 0;       // |result - reference| checked before timing
    double tolerance = 0;       // the stated tolerance it was checked against
};

struct BenchReport {
    std::string device, driver, cuda, date;  // date: ISO 8601 UTC, e.g. 2026-11-29T20:10:00Z
    double copy_gbps = 0;                    // measured device-to-device copy, read + write
    double datasheet_gbps = 0;               // vendor's memory bandwidth, 0 when unknown
    int sm_count = 0;
    uint64_t l2_bytes = 0;
    std::string method;                      // one line: how the numbers were taken
    std::vector<BenchResult> results;
    std::vector<std::string> failures;       // checks that failed (those cells were not timed)

    const BenchResult* find(std::string_view variant, std::string_view dtype, uint64_t n,
                            std::string_view cache = "warm", std::string_view op = "sum", uint32_t offset = 0) const;
    // (n, median_us) for one variant, sorted by n: a plotted series.
    std::vector<std::pair<uint64_t, double>> series(std::string_view variant, std::string_view dtype = "f32",
                                                    std::string_view cache = "warm",
                                                    std::string_view op = "sum") const;
    std::vector<std::string> caches() const;  // the cache modes present, warm first
};

// What to measure (rlab bench flags, the front ends' "Measure on this GPU").
struct BenchOptions {
    std::vector<int> log2_sizes = {10, 12, 14, 16, 18, 20, 22, 24, 26, 28};  // f32 sizes, 2^k
    std::vector<std::string> variants;        // empty: all of kBenchVariants
    std::vector<std::string> caches = {"warm"};  // warm and/or cold
    bool worked_example = true;               // 67,108,864 bf16 values summed in f32 (fast, cub)
    bool harris = true;                       // Harris's kernels 1-4 and 7 on 2^22 int32
    bool extra_types = false;                 // also fast vs cub for f64 sum and f32 max/min
    // The fast path's matrix (issue 18): fast, fast-deterministic and cub only, for f32/f64/i32/bf16 sums and
    // f32 max/min, at the powers of log2_sizes (aligned) and at odd_sizes (each starting one element past
    // alignment), every cache mode, the whole matrix `rounds` times.
    bool fast_matrix = false;
    std::vector<uint64_t> odd_sizes;
    int rounds = 1;
    int reps = 100;                           // timed repetitions per cell (fewer when one takes long)
    double max_seconds_per_cell = 2.0;        // cap on timed repetitions' total time per cell
    // Called between cells: what is being measured and the fraction done (0..1).
    std::function<void(const std::string& what, double fraction)> progress;
    const std::atomic<bool>* cancel = nullptr;  // set to stop after the current cell
};

// JSON as in the contract ({"device","driver","cuda","date","results":[{variant,dtype,n,median_us,
// min_us,max_us,gbps, ...}]}) plus the extra fields above. Reading throws rl::Error with one line
// naming what is wrong.
std::string bench_to_json(const BenchReport& r);
BenchReport bench_from_json(std::string_view text);
BenchReport load_bench_file(const std::string& path);

// One row per result, a header line first.
std::string bench_to_csv(const BenchReport& r);

// The fast path against CUB in one cell, ratio = CUB median / fast median. With rounds: "win" when fast's slowest
// round median beats CUB's fastest, "loss" the reverse, else "tie" (the difference is inside the run-to-run
// spread). With one round: win/loss beyond 1% either way, else tie.
struct CubComparison {
    double ratio = 0;
    std::string verdict;  // win | tie | loss
};
CubComparison compare_with_cub(const BenchResult& fast, const BenchResult& cub);

// The Markdown that docs/bench/README.md (between its "generated" markers) and the other documents quote:
// one table per type/op/cache of fast, fast-deterministic and CUB (min/median/max), the ratio and verdict,
// GB/s and % of the datasheet, and the goals of issue 18 checked against the numbers.
// part: "summary" (the goals, a few lines), "tables" (every cell) or "crossovers" (crossover_analysis as a
// list, every cache mode). Throws rl::Error for another part.
std::string bench_markdown(const BenchReport& r, std::string_view part);

// The terminal table for one op/dtype/cache: rows are sizes, columns variants, cells the median in
// microseconds; plus GB/s of the fastest and its fraction of the copy and datasheet bandwidth.
std::string bench_table(const BenchReport& r, std::string_view dtype = "f32", std::string_view cache = "warm",
                        std::string_view op = "sum");

// The first size from which variant `a` is faster than `b` at that size and at every larger
// measured size (so one noisy point does not count); nullopt when `a` never wins for good.
std::optional<uint64_t> crossover(const BenchReport& r, std::string_view a, std::string_view b,
                                  std::string_view dtype = "f32", std::string_view cache = "warm");

// The crossover lines printed under the table, each with the reason read from the numbers.
std::vector<std::string> crossover_analysis(const BenchReport& r, std::string_view cache = "warm");

// Where recorded results live: search_recorded_bench and find_recorded_bench in core/data_paths.h.

}  // namespace rl
