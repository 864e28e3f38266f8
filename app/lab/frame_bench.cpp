// app/lab/frame_bench.cpp — percentiles and the --bench-frames report, the same arithmetic and words in both GUIs.
#include "app/lab/frame_bench.h"

#include <algorithm>

namespace rl::lab {

FrameStats frame_stats(std::vector<double> ms) {
    FrameStats s;
    if (ms.empty()) return s;
    std::sort(ms.begin(), ms.end());
    auto at = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * double(ms.size() - 1) + 0.5))]; };
    s.p50 = at(0.5), s.p90 = at(0.9), s.p95 = at(0.95), s.p99 = at(0.99), s.max = ms.back();
    for (double v : ms) s.mean += v / double(ms.size());
    return s;
}

void print_frame_bench(std::FILE* out, const std::string& program, const FrameBench& b) {
    std::fprintf(out, "%s bench: %zu frames, window %dx%d, canvas %.0fx%.0f, ", program.c_str(), b.ms.size(), b.window_w,
                 b.window_h, b.canvas_w, b.canvas_h);
    if (!b.zoom.empty()) std::fprintf(out, "zoom %s, ", b.zoom.c_str());
    std::fprintf(out, "%zu events\n", b.events);
    const FrameStats st = frame_stats(b.ms);
    std::fprintf(out, "  frame ms: p50 %.2f  p90 %.2f  p95 %.2f  p99 %.2f  max %.2f  mean %.2f\n", st.p50, st.p90, st.p95,
                 st.p99, st.max, st.mean);
    std::fprintf(out, "  ");
    if (b.first_frame_ms >= 0)
        std::fprintf(out, "first frame shown %.0f ms after start (run + layout %.0f ms); ", b.first_frame_ms, b.run_ms);
    if (b.scene) {
        std::fprintf(out, "last scene: %zu boxes, %zu arrows, %zu labels, %llu events folded", b.scene->boxes.size(),
                     b.scene->arrows.size(), b.scene->texts.size(), (unsigned long long)b.scene->folded_events);
        if (b.scene_build_ms >= 0) std::fprintf(out, ", built in %.2f ms", b.scene_build_ms);
        std::fprintf(out, "\n");
        // Frames that change nothing draw the scene kept (app/lab/frame.h): a timed run of an idle canvas builds none.
        if (b.scene_builds >= 0) std::fprintf(out, "  scenes built during the timed frames: %lld\n", b.scene_builds);
        // A frame is drawn only when what it shows changed (the lab bench's draw lists, the classroom's scene).
        if (b.redraws >= 0) std::fprintf(out, "  frames drawn during the timed frames: %lld (the others changed nothing on screen)\n", b.redraws);
    } else {
        std::fprintf(out, "no scene drawn\n");
    }
    if (!b.gl.empty()) std::fprintf(out, "  GL: %s\n", b.gl.c_str());
    std::fflush(out);
}

}  // namespace rl::lab
