// app/render/drawn_panels.h — what the lab bench's panels drew in one frame, as plain data for --dump-scene.
// The canvas is checkable through its Scene; the ImGui panels draw straight into draw lists, so the code that draws
// the timings plot and the numerics table writes down here what it drew, as it draws it. Tests then read what the
// panels showed, not a recomputation of what they should have shown.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "app/render/timings_plot.h"

namespace rl::render {

// A rectangle in window pixels (top-left x0, y0; bottom-right x1, y1).
struct PixelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

struct DrawnSeries {
    std::string variant;
    uint32_t rgb = 0;
    MarkerShape shape = MarkerShape::Circle;
    // (size, median µs) of each marker in drawing order, read back from the plot-space point it was drawn at
    // (2^x, 10^y): a point drawn in the wrong place shows as a wrong number.
    std::vector<std::pair<double, double>> points;
    void drawn_at(double x, double y);
};

struct DrawnTimings {
    std::string cache;                    // "warm" or "cold": the results plotted
    PixelRect plot;                       // the plot's frame
    double size_from = 0, size_to = 0;    // the axes' ranges in data units: sizes across,
    double us_from = 0, us_to = 0;        // microseconds up
    std::vector<DrawnSeries> series;      // in drawing order
    std::vector<std::string> crossovers;  // the labels drawn at the crossovers
    void axes(const TimingsPlot& p);      // takes the ranges from the plot being drawn
    DrawnSeries& add_series(const PlotSeries& s);
};

struct DrawnRow {
    std::vector<std::string> cells;  // the text of each cell, left to right
    bool chosen = false;             // drawn emphasised (the schedule as given)
    bool outside_bound = false;      // its "within bound" cell drawn in the warning colour
    bool visible = false;            // its first cell on screen (not scrolled or clipped away)
};

struct DrawnNumerics {
    PixelRect window;
    std::string summary;               // the line above the table, or the message shown instead of it
    std::vector<std::string> header;
    std::vector<DrawnRow> rows;        // in drawing order; empty when no table was drawn
};

// A student's kernel timed beside the fast path and CUB (rlab run --time), as the timings panel drew its rows.
struct DrawnKernelTiming {
    std::string heading;
    std::vector<std::string> header;
    std::vector<DrawnRow> rows;        // cells as drawn; outside_bound: drawn in the warning colour (a wrong result)
};

// Each member is set only when its panel drew that frame; the front end clears the record before drawing.
struct DrawnPanels {
    std::optional<DrawnTimings> timings;    // the timings panel drew its plot
    std::optional<DrawnNumerics> numerics;  // the numerics view was open
    std::optional<DrawnKernelTiming> kernel_timing;  // the timings panel drew a timed kernel's rows
};

// The record as one JSON object: "timings" and "numerics" keys, each only when drawn (docs/renderer.md).
void dump_panels_json(std::ostream& out, const DrawnPanels& p);

}  // namespace rl::render
