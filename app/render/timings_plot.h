// app/render/timings_plot.h — the measured-timings plot as plain data (log-log axes, series, crossovers, sentences).
// Both front ends draw this with their own toolkit (ImGui draw lists, Qt Charts), so what they show is the same.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "core/bench_report.h"

namespace rl::render {

// Marker shapes: colour is never the only difference between two lines (colour-blind safe).
enum class MarkerShape : uint8_t { Circle, Square, Triangle, Diamond };

struct PlotSeries {
    std::string variant;
    uint32_t rgb = 0;         // 0xRRGGBB, chosen for the theme's background
    MarkerShape shape = MarkerShape::Circle;
    bool story = false;       // one of the crossover story's variants: drawn thicker
    // Points in plot space: x = log2(n), y = log10(median microseconds); ascending x.
    std::vector<std::pair<double, double>> points;
    std::vector<uint64_t> n;  // the sizes, for tooltips and tests
    std::vector<double> us;   // the medians
};

struct PlotTick {
    double at = 0;            // plot-space coordinate
    std::string label;        // "2^20", "10 µs"
};

// The size from which `winner` is faster than `loser` for good (core's crossover()).
struct PlotCrossover {
    std::string winner, loser;
    uint64_t n = 0;
    double x = 0, y = 0;      // plot space: log2(n), the winner's log10 time there
    std::string label;        // "atomic-block faster from 2^16"
};

struct TimingsPlot {
    std::string caption;      // "median time per reduction: f32 sum, warm cache (same buffer each repetition)"
    std::vector<PlotSeries> series;
    std::vector<PlotCrossover> crossovers;
    std::vector<std::string> sentences;  // core's crossover_analysis, then any failed checks
    std::vector<PlotTick> x_ticks, y_ticks;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;  // axis ranges in plot space
    bool empty() const { return series.empty(); }
};

// The f32 sum results for one cache mode ("warm" or "cold"), every variant that has any, in the contract's order.
TimingsPlot build_timings_plot(const BenchReport& r, std::string_view cache = "warm", bool dark = true);

// Colour and shape of a variant, the same in every view.
uint32_t variant_rgb(std::string_view variant, bool dark);
MarkerShape variant_shape(std::string_view variant);

// "2^20" for powers of two, else the number with thousands separators.
std::string size_text(uint64_t n);
// "2026-11-29 20:10 UTC" from ISO 8601 "2026-11-29T20:10:00Z"; other text is returned as it is.
std::string date_text(const std::string& iso);

}  // namespace rl::render
