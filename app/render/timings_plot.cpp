// app/render/timings_plot.cpp — builds the timings plot from a bench report: plot-space points, ticks, crossovers.
#include "app/render/timings_plot.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace rl::render {
namespace {

// The variants whose crossovers the lesson is about: drawn thicker, marked where they cross.
constexpr std::string_view kStory[] = {"atomic-element", "atomic-block", "two-pass"};
struct CrossoverPair {
    std::string_view winner, loser;
};
constexpr CrossoverPair kCrossovers[] = {{"atomic-block", "atomic-element"}, {"two-pass", "atomic-block"}};

std::string time_label(int decade) {
    static const char* kUnits[] = {"µs", "ms", "s"};
    int unit = std::clamp(decade >= 0 ? decade / 3 : 0, 0, 2);
    const double v = std::pow(10.0, decade - 3 * unit);
    char buf[32];
    snprintf(buf, sizeof buf, "%g %s", v, kUnits[unit]);
    return buf;
}

}  // namespace

uint32_t variant_rgb(std::string_view v, bool dark) {
    // Okabe–Ito; `fast` (the one to beat) gets the background's opposite, the strongest contrast.
    if (v == "atomic-element") return 0xD55E00;
    if (v == "atomic-block") return 0xE69F00;
    if (v == "two-pass") return dark ? 0x56B4E9 : 0x0072B2;
    if (v == "last-block") return 0x009E73;
    if (v == "cooperative") return 0xCC79A7;
    if (v == "fast") return dark ? 0xFFFFFF : 0x000000;
    if (v == "fast-deterministic") return dark ? 0xF0E442 : 0x8A7F00;
    if (v == "cub") return dark ? 0xA0A0A0 : 0x707070;
    return dark ? 0x7F7F7F : 0xA0A0A0;  // instrumented and anything else
}

MarkerShape variant_shape(std::string_view v) {
    if (v == "atomic-element" || v == "fast-deterministic") return MarkerShape::Triangle;
    if (v == "atomic-block" || v == "cub") return MarkerShape::Square;
    if (v == "two-pass" || v == "cooperative") return MarkerShape::Diamond;
    return MarkerShape::Circle;
}

std::string size_text(uint64_t n) {
    if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(std::countr_zero(n));
    std::string s = std::to_string(n);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

std::string date_text(const std::string& iso) {
    // 2026-11-29T20:10:00Z
    if (iso.size() >= 16 && iso[10] == 'T') return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
    return iso;
}

TimingsPlot build_timings_plot(const BenchReport& r, std::string_view cache, bool dark) {
    TimingsPlot p;
    p.caption = "median time per reduction: f32 sum, " + std::string(cache) + " cache" +
                (cache == "cold" ? " (L2 flushed before each repetition)" : " (same buffer each repetition)");
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    for (std::string_view v : kBenchVariants) {
        const auto s = r.series(v, "f32", cache, "sum");
        if (s.empty()) continue;
        PlotSeries ps;
        ps.variant = std::string(v);
        ps.rgb = variant_rgb(v, dark);
        ps.shape = variant_shape(v);
        ps.story = std::find(std::begin(kStory), std::end(kStory), v) != std::end(kStory);
        for (auto [n, us] : s) {
            const double x = std::log2(double(n)), y = std::log10(us);
            ps.points.emplace_back(x, y);
            ps.n.push_back(n);
            ps.us.push_back(us);
            xmin = std::min(xmin, x), xmax = std::max(xmax, x);
            ymin = std::min(ymin, y), ymax = std::max(ymax, y);
        }
        p.series.push_back(std::move(ps));
    }
    if (p.series.empty()) return p;

    // Axes: whole powers of two across, whole decades up, so every tick is a round number.
    p.x0 = std::floor(xmin);
    p.x1 = std::max(std::ceil(xmax), p.x0 + 1);
    p.y0 = std::floor(ymin);
    p.y1 = std::max(std::ceil(ymax), p.y0 + 1);
    // At most about six size labels: a dock-wide chart elides more (2^10..2^28 gets 2^12, 2^16, ..., 2^28).
    const int xstep = p.x1 - p.x0 > 24 ? 8 : p.x1 - p.x0 > 12 ? 4 : 2;
    for (int k = int(std::ceil(p.x0 / xstep)) * xstep; k <= int(p.x1); k += xstep)
        p.x_ticks.push_back({double(k), "2^" + std::to_string(k)});
    for (int d = int(p.y0); d <= int(p.y1); ++d) p.y_ticks.push_back({double(d), time_label(d)});

    for (const CrossoverPair& c : kCrossovers) {
        const auto n = crossover(r, c.winner, c.loser, "f32", cache);
        if (!n) continue;
        const BenchResult* w = r.find(c.winner, "f32", *n, cache, "sum");
        if (!w) continue;
        p.crossovers.push_back({std::string(c.winner), std::string(c.loser), *n, std::log2(double(*n)),
                                std::log10(w->median_us),
                                std::string(c.winner) + " faster from " + size_text(*n)});
    }
    p.sentences = crossover_analysis(r, cache);
    for (const std::string& f : r.failures) p.sentences.push_back("Not timed, its check failed: " + f);
    return p;
}

}  // namespace rl::render
