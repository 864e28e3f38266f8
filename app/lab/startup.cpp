// app/lab/startup.cpp — from checked options to the first frame's state; the GUI only opens its window after this.
#include "app/lab/startup.h"

#include <algorithm>
#include <fstream>
#include "core/error.h"
#include "core/file_io.h"

namespace rl::lab {

std::string start_lab_bench(LabState& s, const Options& o) {
    s.schedule = o.schedule;
    s.backend = o.backend_choice;
    if (!o.lesson.empty()) {
        if (std::string err = s.lesson.open(o.lesson); !err.empty()) return err;
        s.schedule = s.lesson.lesson().steps.front().schedule;
    }
    if (!o.kernel_request.file.empty()) {
        if (std::string err = s.open_kernel_and_wait(o.kernel_request); !err.empty()) return err;
        s.backend_note = o.kernel_note;
    } else if (!(o.trace_file.empty() ? s.rerun() : s.load_trace(o.trace_file))) {
        return s.error;
    }
    s.time_from = o.time_from;
    s.time_to = o.time_to;
    if (o.view == "time" && !s.set_time_view(true)) return "--view time: " + s.notice;
    s.dark = o.theme != "light";
    s.font_scale = std::clamp(o.font_scale, 0.5f, 3.0f);
    s.presenter = o.presenter;  // --presenter: the lab bench's large view (F5 toggles)
    s.zoom = o.zoom;
    if (s.lesson.active())
        s.lesson.go(s, size_t(std::max(o.step, 0)));  // --step K: the lesson's step K
    else
        s.set_step(std::max(o.step, 0), std::clamp(o.progress, 0.0f, 1.0f));
    s.playing = o.play;
    if (o.select >= 0) s.select(uint32_t(o.select));
    s.timings = load_timings(o.bench_file);
    s.timings_large = o.enlarge_timings;
    s.numerics_open = o.numerics;
    s.source_diff = o.source_diff;
    s.kernel_editor.editing = o.edit && s.kernel->active();
    if (!o.bench_file.empty() && !s.timings.loaded) return "--bench-file: " + s.timings.error;
    if (!o.kernel_timing_file.empty())
        if (std::string why = load_kernel_timing(s.timings, o.kernel_timing_file); !why.empty()) return "--kernel-timing: " + why;
    if (o.time_on_gpu) s.start_kernel_timing();  // without a kernel it ends at once, saying so in the timings panel
    return {};
}

std::string write_scene(const std::string& path, const render::Scene& scene, const render::DrawnPanels* panels) {
    try {
        write_file_atomically(path, [&](std::ostream& out) { render::dump_scene_json(out, scene, panels); });
    } catch (const Error& e) {
        return std::string("--dump-scene ") + e.what();
    }
    return {};
}

}  // namespace rl::lab
