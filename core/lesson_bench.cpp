// core/lesson_bench.cpp — bench_* lesson quantities: crossovers, the fast path against CUB, the
// worked example against the streaming-read bound, each computed from a recorded bench file.
#include "core/lesson_bench.h"
#include "core/text_format.h"

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

constexpr uint64_t kWorkedN = 67108864;

}  // namespace

const std::vector<std::string>& bench_quantity_names() {
    static const std::vector<std::string> names{
        "bench_device", "bench_date", "bench_copy_gbps", "bench_datasheet_gbps", "bench_largest",
        "bench_block_vs_element_from", "bench_block_vs_element_n", "bench_element_us", "bench_block_us",
        "bench_element_ns", "bench_element_slowdown", "bench_twopass_vs_block_from", "bench_launch_us",
        "bench_fast_us", "bench_cub_us", "bench_fast_pct_datasheet", "bench_fast_vs_cub_min",
        "bench_fast_vs_cub_wins", "bench_sizes", "bench_det_cost_us", "bench_worked_fast_us", "bench_worked_cub_us",
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
    auto at = [&](const char* v, uint64_t n) { return r.find(v, "f32", n); };

    const auto elem = r.series("atomic-element"), fast = r.series("fast");
    if (!elem.empty() && !r.series("atomic-block").empty()) {
        const uint64_t big = elem.back().first;
        q["bench_largest"] = text(power_label(big));
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
        if (const BenchResult *f = at("fast", big), *d = at("fast-deterministic", big); f && d)
            q["bench_det_cost_us"] = num(d->median_us - f->median_us, "%.2f");
    }
    if (const BenchResult* w = r.find("fast", "bf16", kWorkedN)) {
        const double bytes = double(kWorkedN) * 2;
        q["bench_worked_mb"] = num(bytes / 1e6, "%.0f");
        q["bench_worked_fast_us"] = num(w->median_us, "%.1f");
        q["bench_worked_gbps"] = num(w->gbps, "%.0f");
        if (r.datasheet_gbps > 0) {
            const double bound = bytes / (r.datasheet_gbps * 1e9) * 1e6;  // every byte read once at the datasheet rate
            q["bench_worked_pct_datasheet"] = num(100.0 * w->gbps / r.datasheet_gbps, "%.0f");
            q["bench_worked_bound_us"] = num(bound, "%.1f");
            q["bench_worked_bound_ratio"] = num(w->median_us / bound, "%.2f");
        }
        if (const BenchResult* c = r.find("cub", "bf16", kWorkedN)) {
            q["bench_worked_cub_us"] = num(c->median_us, "%.1f");
            q["bench_worked_speedup"] = num(c->median_us / w->median_us, "%.2f");
        }
        if (const BenchResult* t = r.find("two-pass", "bf16", kWorkedN)) q["bench_worked_twopass_us"] = num(t->median_us, "%.1f");
    }
    // Harris's kernels today (int32, 2^22, warm), and his 2007 G80 figures, as published in
    // "Optimizing Parallel Reduction in CUDA" (restated in ../shared/anchors/h200-2026-11-29.md).
    for (int k : {1, 2, 3, 4, 7})
        if (const BenchResult* h = r.find("harris-" + std::to_string(k), "i32", uint64_t(1) << 22)) {
            q["bench_harris_" + std::to_string(k) + "_us"] = num(h->median_us, "%.1f");
            q["bench_harris_" + std::to_string(k) + "_gbps"] = num(h->gbps, "%.0f");
        }
    if (const BenchResult *h1 = r.find("harris-1", "i32", uint64_t(1) << 22), *h7 = r.find("harris-7", "i32", uint64_t(1) << 22);
        h1 && h7)
        q["bench_harris_speedup"] = num(h1->median_us / h7->median_us, "%.1f");
    constexpr double kHarris2007Kernel1Gbps = 2.083, kHarris2007Kernel7Gbps = 62.671;
    q["harris2007_1_gbps"] = num(kHarris2007Kernel1Gbps, "%.3f");
    q["harris2007_7_gbps"] = num(kHarris2007Kernel7Gbps, "%.3f");
    q["harris2007_speedup"] = num(kHarris2007Kernel7Gbps / kHarris2007Kernel1Gbps, "%.1f");
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
