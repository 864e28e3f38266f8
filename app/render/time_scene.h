// app/render/time_scene.h — the time view: one row per warp, each event at its recorded GPU clock, barrier waits as bars.
// Same plain Scene data as the step view (scene.h), so the same renderer, picking and JSON dump work on it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "app/render/scene.h"
#include "core/trace.h"

namespace rl::render {

// The one-line reason the time view cannot show a trace, or "" when it can.
std::string time_view_unavailable(const Trace& t);

// A warp's wait at a __syncthreads: from its arrival to its next event (or the release when it has none).
struct TimeWait {
    uint32_t event;        // the warp's Barrier event
    double from, to;       // cycles since the block's first event
    double release;        // the last arrival at this barrier in the block: nobody passes before it
    uint32_t last_warp;    // the warp that arrived last (the one everybody waited for)
};
struct TimeRow {
    uint32_t block = 0, warp = 0;
    std::vector<uint32_t> events;  // this warp's events, sorted by time
    std::vector<double> at;        // their times: cycles since the block's first event (parallel to events)
    std::vector<TimeWait> waits;   // sorted by from
    double waited = 0;             // cycles spent waiting at barriers before the last warp arrived
};
struct TimeLayout {
    std::vector<TimeRow> rows;     // by block, then warp
    double span = 1;               // the longest block, in cycles
    uint32_t grid = 0;             // blocks of the first launch (block == grid is the second launch)
    bool second_launch = false;
};
// Empty (no rows) for traces without timestamps.
TimeLayout build_time_layout(const Trace& t);

// Whole time range and every warp in view. The View's x0 / px_per_col mean cycles here, not columns.
// from/to (cycles) narrow the window, e.g. to the block stage's barriers; to <= from means the whole span.
View fit_time_view(const TimeLayout& l, float width, float height, float font_scale = 1.0f, double from = 0, double to = -1);
void zoom_time_view(View& v, const TimeLayout& l, float factor, float sx, float sy);

// Pure function of (trace, time layout, cursor, view): events of the cursor's step are highlighted, later ones dimmed.
Scene build_time_scene(const Trace& t, const TimeLayout& l, const Cursor& c, const View& v);
Scene build_time_scene(const Trace& t, const Cursor& c, const View& v);  // builds the layout: tests

// Screen x of a time (cycles since the block's start) in a view; tests compare marks with it.
float time_x(const View& v, double cycles);

}  // namespace rl::render
