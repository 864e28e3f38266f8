// app/render/frame_stats.h — frame-time percentiles for --bench-frames, the same arithmetic in both front ends.
#pragma once
#include <algorithm>
#include <vector>

namespace rl::render {

struct FrameStats {
    double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};

// Nearest-rank percentiles of frame times in milliseconds (warm-up frames already left out by the caller).
inline FrameStats frame_stats(std::vector<double> ms) {
    FrameStats s;
    if (ms.empty()) return s;
    std::sort(ms.begin(), ms.end());
    auto at = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * double(ms.size() - 1) + 0.5))]; };
    s.p50 = at(0.5), s.p90 = at(0.9), s.p99 = at(0.99), s.max = ms.back();
    for (double v : ms) s.mean += v / double(ms.size());
    return s;
}

}  // namespace rl::render
