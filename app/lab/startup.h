// app/lab/startup.h — the lab bench opened as its command line asks: lesson, saved trace or schedule, then the view.
#pragma once
#include <string>
#include "app/lab/lab_state.h"
#include "app/lab/options.h"

namespace rl::lab {

// Opens what `o` asks for (the lesson at its step, the saved trace, or the schedule run on the backend), then the
// view, step, selection, timings and numerics. An error line, or empty.
std::string start_lab_bench(LabState& s, const Options& o);

// Writes the scene as JSON (--dump-scene), with what the panels drew when given; an error line, or empty.
std::string write_scene(const std::string& path, const render::Scene& scene,
                        const render::DrawnPanels* panels = nullptr);

}  // namespace rl::lab
