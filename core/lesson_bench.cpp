// core/lesson_bench.cpp — bench_* lesson quantities: crossovers, the fast path against CUB, the
// worked example against the streaming-read bound, each computed from a recorded bench file.
#include "core/lesson_bench.h"
#include "core/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

namespace rl {
namespace {

std::string power_label(uint64_t n) {
    int k = 0;
    while (k < 63 && (uint64_t(1) << k) < n) ++k;
    return (uint64_t(1) << k) == n ? "2^" + std::to_string(k) : std::to_string(n);
}
Quantity num(double v, const char* f) { return Quantity{format_number(f, v), v}; }
Quantity text(std::string s) { return Quantity{std::move(s), std::nullopt}; }

constexpr uint64_t kWorkedN = 67108864;      // the chapter's worked example: 67,108,864 BF16 values
constexpr uint64_t kHarrisN = uint64_t(1) << 22;  // Harris's kernels: 2^22 ints, as he measured them

// The one row a lesson reads for a cell. Two rows for the same cell (a file merged from two runs) make the
// cell ambiguous: the lesson gets no value from it, and bench_duplicates names it, rather than the first row.
struct Cells {
    const BenchReport& r;
    std::vector<std::string> duplicates;
    const BenchResult* operator()(std::string_view variant, std::string_view dtype, uint64_t n) {
        const BenchResult* found = nullptr;
        int count = 0;
        for (const BenchResult& x : r.results)
            if (x.variant == variant && x.dtype == dtype && x.n == n && x.cache == "warm" && x.op == "sum") {
                found = found ? found : &x;
                ++count;
            }
        if (count < 2) return found;
        const std::string name = std::string(variant) + " " + std::string(dtype) + " " + power_label(n);
        if (std::find(duplicates.begin(), duplicates.end(), name) == duplicates.end()) duplicates.push_back(name);
        return nullptr;
    }
};

// Two measured cells compared honestly: the difference of the medians (PREFIX_diff_us), the larger run-to-run
// spread (max - min) of the two (PREFIX_spread_us) and which was faster (PREFIX_faster, named by a_name/b_name).
// A difference inside the spread is no measurable difference, whichever came out ahead.
void compare_cells(Quantities& q, const std::string& prefix, const BenchResult& a, const char* a_name, const BenchResult& b,
                   const char* b_name) {
    q[prefix + "_diff_us"] = num(std::fabs(a.median_us - b.median_us), "%.2f");
    q[prefix + "_spread_us"] = num(std::max(a.max_us - a.min_us, b.max_us - b.min_us), "%.2f");
    q[prefix + "_faster"] = text(a.median_us < b.median_us ? a_name : b_name);
}

}  // namespace

const std::vector<std::string>& bench_quantity_names() {
    static const std::vector<std::string> names{
        "bench_device", "bench_date", "bench_copy_gbps", "bench_datasheet_gbps", "bench_largest",
        "bench_block_vs_element_from", "bench_block_vs_element_n", "bench_element_us", "bench_block_us",
        "bench_element_ns", "bench_element_slowdown", "bench_twopass_vs_block_from", "bench_launch_us",
        "bench_fast_us", "bench_cub_us", "bench_fast_pct_datasheet", "bench_fast_vs_cub_min",
        "bench_fast_vs_cub_wins", "bench_sizes", "bench_det_diff_us", "bench_det_spread_us", "bench_det_faster",
        "bench_duplicates", "bench_smallest", "worked_n", "bench_harris_n", "bench_worked_copy_bound_us",
        "bench_worked_copy_share_pct", "bench_worked_rest_us", "bench_worked_atomic_block_us", "bench_worked_finish_diff_us",
        "bench_worked_finish_spread_us", "bench_worked_finish_faster", "bench_worked_fast_us", "bench_worked_cub_us",
        "bench_worked_speedup", "bench_worked_gbps", "bench_worked_pct_datasheet", "bench_worked_bound_us",
        "bench_worked_bound_ratio", "bench_worked_twopass_us", "bench_worked_mb", "bench_harris_1_us",
        "bench_harris_2_us", "bench_harris_3_us", "bench_harris_4_us", "bench_harris_7_us", "bench_harris_1_gbps",
        "bench_harris_2_gbps", "bench_harris_3_gbps", "bench_harris_4_gbps", "bench_harris_7_gbps",
        "bench_harris_speedup", "harris2007_1_gbps", "harris2007_7_gbps", "harris2007_speedup"};
    return names;
}

Quantities bench_quantities(const BenchReport& r) {
    Quantities q;
    q["bench_device"] = text(r.device);
    q["bench_date"] = text(r.date.substr(0, 10));
    if (r.copy_gbps > 0) q["bench_copy_gbps"] = num(r.copy_gbps, "%.0f");
    if (r.datasheet_gbps > 0) q["bench_datasheet_gbps"] = num(r.datasheet_gbps, "%.0f");
    Cells cell{r, {}};
    auto at = [&](const char* v, uint64_t n) { return cell(v, "f32", n); };
    q["worked_n"] = num(double(kWorkedN), "%.0f");
    q["bench_harris_n"] = text(power_label(kHarrisN));

    const auto elem = r.series("atomic-element"), fast = r.series("fast");
    if (!elem.empty() && !r.series("atomic-block").empty()) {
        const uint64_t big = elem.back().first;
        q["bench_largest"] = text(power_label(big));
        q["bench_smallest"] = text(power_label(elem.front().first));
        auto c = crossover(r, "atomic-block", "atomic-element");
        q["bench_block_vs_element_from"] = text(c ? power_label(*c) : "never");
        if (c) q["bench_block_vs_element_n"] = num(double(*c), "%.0f");
        if (const BenchResult *e = at("atomic-element", big), *b = at("atomic-block", big); e && b) {
            q["bench_element_us"] = num(e->median_us, "%.1f");
            q["bench_block_us"] = num(b->median_us, "%.1f");
            q["bench_element_ns"] = num(1000.0 * e->median_us / double(big), "%.2f");
            q["bench_element_slowdown"] = num(e->median_us / b->median_us, "%.0f");
        }
    }
    if (auto tp = r.series("two-pass"); !tp.empty() && !r.series("atomic-block").empty()) {
        auto c = crossover(r, "two-pass", "atomic-block");
        q["bench_twopass_vs_block_from"] = text(c ? power_label(*c) : "never");
        if (const BenchResult *t = at("two-pass", tp.front().first), *b = at("atomic-block", tp.front().first); t && b)
            q["bench_launch_us"] = num(t->median_us - b->median_us, "%.1f");
    }
    if (!fast.empty() && !r.series("cub").empty()) {
        const uint64_t big = fast.back().first;
        double worst = INFINITY;
        int wins = 0, counted = 0;
        for (auto [n, t] : fast)
            if (const BenchResult* c = at("cub", n)) {
                worst = std::min(worst, c->median_us / t);
                wins += c->median_us >= t;
                ++counted;
            }
        q["bench_fast_vs_cub_min"] = num(worst, "%.2f");
        q["bench_fast_vs_cub_wins"] = num(double(wins), "%.0f");
        q["bench_sizes"] = num(double(counted), "%.0f");
        if (const BenchResult *f = at("fast", big), *c = at("cub", big); f && c) {
            q["bench_fast_us"] = num(f->median_us, "%.1f");
            q["bench_cub_us"] = num(c->median_us, "%.1f");
            if (r.datasheet_gbps > 0) q["bench_fast_pct_datasheet"] = num(100.0 * f->gbps / r.datasheet_gbps, "%.1f");
        }
        // Determinism's cost: the difference of the medians against the run-to-run spread (max - min) of
        // either mode; a difference inside the spread is no measurable cost, whichever mode came out faster.
        if (const BenchResult *f = at("fast", big), *d = at("fast-deterministic", big); f && d)
            compare_cells(q, "bench_det", *d, "the deterministic mode", *f, "the atomic mode");
    }
    if (const BenchResult* w = cell("fast", "bf16", kWorkedN)) {
        const double bytes = double(kWorkedN) * 2;
        q["bench_worked_mb"] = num(bytes / 1e6, "%.0f");
        q["bench_worked_fast_us"] = num(w->median_us, "%.1f");
        q["bench_worked_gbps"] = num(w->gbps, "%.0f");
        if (r.datasheet_gbps > 0) {
            const double bound = bytes / (r.datasheet_gbps * 1e9) * 1e6;  // every byte read once at the datasheet rate
            q["bench_worked_pct_datasheet"] = num(100.0 * w->gbps / r.datasheet_gbps, "%.0f");
            q["bench_worked_bound_us"] = num(bound, "%.1f");
            q["bench_worked_bound_ratio"] = num(w->median_us / bound, "%.2f");
            // The measured copy rate (read + write bytes per second) as the practical streaming rate: how much
            // of the gap above the datasheet floor the memory system itself explains, and what is left.
            if (r.copy_gbps > 0 && w->median_us > bound) {
                const double copy_bound = bytes / (r.copy_gbps * 1e9) * 1e6;
                q["bench_worked_copy_bound_us"] = num(copy_bound, "%.1f");
                q["bench_worked_copy_share_pct"] = num(100.0 * (copy_bound - bound) / (w->median_us - bound), "%.0f");
                q["bench_worked_rest_us"] = num(w->median_us - copy_bound, "%.1f");
            }
        }
        if (const BenchResult* c = cell("cub", "bf16", kWorkedN)) {
            q["bench_worked_cub_us"] = num(c->median_us, "%.1f");
            q["bench_worked_speedup"] = num(c->median_us / w->median_us, "%.2f");
        }
        if (const BenchResult* t = cell("two-pass", "bf16", kWorkedN)) {
            q["bench_worked_twopass_us"] = num(t->median_us, "%.1f");
            // The chapter's two finishes for the same first launch: a second launch, or one atomic per block.
            if (const BenchResult* b = cell("atomic-block", "bf16", kWorkedN)) {
                q["bench_worked_atomic_block_us"] = num(b->median_us, "%.1f");
                compare_cells(q, "bench_worked_finish", *b, "one atomic per block", *t, "the second launch");
            }
        }
    }
    // Harris's kernels today (int32, 2^22, warm), and his 2007 G80 figures, as published in
    // "Optimizing Parallel Reduction in CUDA" (restated in ../shared/anchors/h200-2026-11-29.md).
    for (int k : {1, 2, 3, 4, 7})
        if (const BenchResult* h = cell("harris-" + std::to_string(k), "i32", kHarrisN)) {
            q["bench_harris_" + std::to_string(k) + "_us"] = num(h->median_us, "%.1f");
            q["bench_harris_" + std::to_string(k) + "_gbps"] = num(h->gbps, "%.0f");
        }
    if (const BenchResult *h1 = cell("harris-1", "i32", kHarrisN), *h7 = cell("harris-7", "i32", kHarrisN); h1 && h7)
        q["bench_harris_speedup"] = num(h1->median_us / h7->median_us, "%.1f");
    constexpr double kHarris2007Kernel1Gbps = 2.083, kHarris2007Kernel7Gbps = 62.671;
    q["harris2007_1_gbps"] = num(kHarris2007Kernel1Gbps, "%.3f");
    q["harris2007_7_gbps"] = num(kHarris2007Kernel7Gbps, "%.3f");
    q["harris2007_speedup"] = num(kHarris2007Kernel7Gbps / kHarris2007Kernel1Gbps, "%.1f");
    std::string dups;
    for (const std::string& d : cell.duplicates) dups += (dups.empty() ? "" : ", ") + d;
    q["bench_duplicates"] = text(dups.empty() ? "none" : dups);
    return q;
}

const Quantities* recorded_bench_quantities(const std::string& lesson_file) {
    static std::mutex mu;
    static std::map<std::string, std::unique_ptr<Quantities>> cache;
    namespace fs = std::filesystem;
    const std::string dir = lesson_file.empty() ? std::string(".") : fs::path(lesson_file).parent_path().string();
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(dir);
    if (it == cache.end()) {
        std::unique_ptr<Quantities> q;
        if (const std::string path = find_recorded_bench(dir.empty() ? "." : dir); !path.empty()) {
            try {
                q = std::make_unique<Quantities>(bench_quantities(load_bench_file(path)));
            } catch (const std::exception&) {
                q.reset();  // a broken file: the steps that need it report the missing quantities
            }
        }
        it = cache.emplace(dir, std::move(q)).first;
    }
    return it->second.get();
}

}  // namespace rl
