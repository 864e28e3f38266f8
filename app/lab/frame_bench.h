// app/lab/frame_bench.h — `--bench-frames N`: frame-time percentiles and the report both front ends print.
#pragma once
#include <cstdio>
#include <string>
#include <vector>
#include "app/render/scene.h"

namespace rl::lab {

struct FrameStats {
    double p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0, mean = 0;
};

// Nearest-rank percentiles of frame times in milliseconds (warm-up frames already left out by the caller).
FrameStats frame_stats(std::vector<double> ms);

// What one --bench-frames run measured; the optional parts are printed only when set.
struct FrameBench {
    std::vector<double> ms;              // one per timed frame
    int window_w = 0, window_h = 0;
    float canvas_w = 0, canvas_h = 0;
    size_t events = 0;
    const render::Scene* scene = nullptr;  // the last scene drawn
    double scene_build_ms = -1;          // what building it cost (-1: not known)
    long long scene_builds = -1;         // scenes built during the timed frames (none when nothing changed; -1: not known)
    long long redraws = -1;              // timed frames that drew (the others changed nothing on screen; -1: not known)
    std::string zoom;                    // the start view (lab bench)
    double first_frame_ms = -1, run_ms = 0;  // time to the first frame shown, and the run + layout in it
    std::string gl;                      // the GL version string
};

// "PROGRAM bench: N frames, window WxH, canvas WxH, ..., E events", the percentiles, the last scene's size.
void print_frame_bench(std::FILE* out, const std::string& program, const FrameBench& b);

}  // namespace rl::lab
