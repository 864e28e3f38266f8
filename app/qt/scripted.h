// app/qt/scripted.h — the runs the command line scripts for tests and screenshots: --frames/--screenshot/
// --dump-scene/--quit, and --bench-frames (frame-time percentiles).
#pragma once
#include "app/lab/options.h"
#include "app/qt/main_window.h"

namespace rl::qt {

// After o.frames frames: the screenshot and scene dump asked for, then (with --quit) the exit. A failure sets
// `exit_code` to 2 with one line on stderr.
void script_frames(MainWindow& w, const lab::Options& o, int& exit_code);
// Draws n frames after five warm-ups, each from the start of the repaint to glFinish, prints the report and exits.
void bench_frames(MainWindow& w, Classroom& c, int n);

}  // namespace rl::qt
