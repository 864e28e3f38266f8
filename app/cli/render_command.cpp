// app/cli/render_command.cpp — runs a schedule (or a lesson step, or a saved trace), builds the frame's scene with
// app/lab as the GUIs do, and draws it offscreen into a PNG.
#include "app/cli/render_command.h"

#include <iostream>

#include <algorithm>
#include <CLI/CLI.hpp>
#include "app/backend/backend.h"
#include "app/lab/frame.h"
#include "app/lab/options.h"
#include "app/lab/startup.h"
#include "app/render/offscreen.h"
#include "app/cli/schedule_run.h"
#include "core/emulator.h"

namespace rl::cli {

CLI::App* add_render_command(CLI::App& app, RenderArgs& a) {
    auto* r = app.add_subcommand("render", "draw the lab bench's picture of a schedule at a step into a PNG (no window)");
    lab::add_schedule_options(*r, a.schedule);
    r->add_option("--backend", a.backend, "auto|cpu|cuda")->capture_default_str();
    r->add_option("--lesson", a.lesson, "a lesson by name (its file's stem); --step K is then the lesson's step K");
    r->add_option("--step", a.step, "show the reduction up to this step (default: the last)");
    r->add_option("--png", a.png, "PNG file to write")->required();
    r->add_option("--size", a.size, "picture size WxH")->capture_default_str();
    r->add_option("--theme", a.theme, "dark|light")->capture_default_str();
    r->add_option("--font-scale", a.font_scale, "text size factor (projectors: 1.5)")->capture_default_str();
    r->add_option("--dump-scene", a.dump_scene, "also write the scene (boxes, arrows, labels) as JSON");
    r->add_option("--trace", a.trace_file, "draw a trace saved by `rlab trace --format json` instead of running a schedule");
    r->add_flag("--presenter", a.presenter, "the presenter's canvas: text of at least 18 px, zoomed and panned to the step");
    r->add_option("--view", a.view, "steps | time (one row per warp at GPU timestamps; GPU traces only)")->capture_default_str();
    return r;
}

int run_render(const RenderArgs& a) {
    int w = 0, h = 0;
    if (std::string e = lab::check_size(a.size, 64, 64, w, h); !e.empty()) throw Error(e);
    if (std::string e = lab::check_theme(a.theme); !e.empty()) throw Error(e);
    if (std::string e = lab::check_view(a.view); !e.empty()) throw Error(e);
    if (std::string e = lab::check_font_scale(a.font_scale); !e.empty()) throw Error(e);
    lab::LabState s;
    if (std::string e = lab::check_backend(a.backend, s.backend); !e.empty()) throw Error(e);
    if (!a.trace_file.empty()) {
        if (!s.load_trace(a.trace_file)) throw Error("--trace " + s.error);
    } else if (!a.lesson.empty()) {
        if (std::string e = s.lesson.open(a.lesson); !e.empty()) throw Error(e);
    } else {
        // Run here rather than by s.rerun(): a hung GPU must reach main's DeviceHung handler.
        BackendRun run = run_backend(a.schedule.build(), s.backend);
        if (!run.note.empty()) deferred_note() = run.note;
        s.schedule = run.trace.schedule;
        s.trace = std::move(run.trace);
        s.adopt_trace();
    }
    if (a.view == "time" && !s.set_time_view(true)) throw Error("--view time: " + s.notice);
    s.dark = a.theme != "light";
    s.font_scale = a.font_scale;
    s.presenter = a.presenter;
    if (s.lesson.active() && a.step >= int(s.lesson.size()))
        throw Error("--step " + std::to_string(a.step) + ": lesson " + a.lesson + " has steps 0 to " +
                    std::to_string(s.lesson.size() - 1));
    if (s.lesson.active())
        s.lesson.go(s, size_t(std::max(a.step, 0)));  // --step K: the lesson's step K
    else
        s.set_step(a.step < 0 ? s.last() : a.step);
    if (!s.error.empty()) throw Error("--lesson " + a.lesson + ": " + s.error);
    const render::Scene& scene = lab::frame_scene(s, float(w), float(h));
    if (!a.dump_scene.empty())
        if (std::string e = lab::write_scene(a.dump_scene, scene); !e.empty()) throw Error(e);
    render::Offscreen off;
    std::string err;
    if (!off.create(w, h, &err)) {
        std::cerr << "rlab: render: " << err << "\n";
        return 2;
    }
    const std::vector<uint8_t> px = off.render(scene);
    if (!render::write_png(a.png, w, h, px, &err)) throw Error("--png " + err);
    std::cerr << "rlab: wrote " << a.png << " (" << w << "x" << h << ", step " << s.cursor.step << " of " << s.last()
              << ", " << off.context_kind() << ")\n";
    return 0;
}

}  // namespace rl::cli
