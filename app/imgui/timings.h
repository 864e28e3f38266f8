// app/imgui/timings.h — measured times from `rlab bench --json` files, for the timings plot.
#pragma once
#include <string>
#include <vector>

namespace rl::lab {

struct TimingPoint {
    double n = 0, median_us = 0;
};
struct TimingSeries {
    std::string variant, dtype;
    std::vector<TimingPoint> points;  // ascending n
};
struct TimingSet {
    std::string file, device, date;
    std::vector<TimingSeries> series;
};
struct Timings {
    std::vector<TimingSet> sets;
    std::vector<std::string> searched;  // where we looked, for the empty-state message
};

// Reads the given files, or when none are given every *.json under docs/measurements and docs/bench
// (relative to the working directory and to the source tree). Files that are not bench results are skipped.
Timings load_timings(const std::vector<std::string>& files);

}  // namespace rl::lab
