// app/cli/render_command.cpp — runs a schedule, builds the frame's scene and draws it offscreen into a PNG.
#include "app/cli/render_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/backend/backend.h"
#include "app/render/offscreen.h"
#include "app/render/scene.h"
#include "app/render/time_scene.h"
#include "core/emulator.h"
#include "core/trace_io.h"

namespace rl::cli {

CLI::App* add_render_command(CLI::App& app, RenderArgs& a) {
    auto* r = app.add_subcommand("render", "draw the lab bench's picture of a schedule at a step into a PNG (no window)");
    add_schedule_options(*r, a.schedule);
    r->add_option("--backend", a.backend, "auto|cpu|cuda")->capture_default_str();
    r->add_option("--lesson", a.lesson, "a lesson by name (not available yet)");
    r->add_option("--step", a.step, "show the reduction up to this step (default: the last)");
    r->add_option("--png", a.png, "PNG file to write")->required();
    r->add_option("--size", a.size, "picture size WxH")->capture_default_str();
    r->add_option("--theme", a.theme, "dark|light")->capture_default_str();
    r->add_option("--font-scale", a.font_scale, "text size factor (projectors: 1.5)")->capture_default_str();
    r->add_option("--dump-scene", a.dump_scene, "also write the scene (boxes, arrows, labels) as JSON");
    r->add_option("--trace", a.trace_file, "draw a trace saved by `rlab trace --format json` instead of running a schedule");
    r->add_option("--view", a.view, "steps | time (one row per warp at GPU timestamps; GPU traces only)")->capture_default_str();
    return r;
}

int run_render(const RenderArgs& a) {
    int w = 0, h = 0;
    if (std::sscanf(a.size.c_str(), "%dx%d", &w, &h) != 2 || w < 64 || h < 64 || w > 16384 || h > 16384)
        throw Error("--size " + a.size + ": expected WxH, e.g. 1280x720");
    if (a.theme != "dark" && a.theme != "light") throw Error("--theme " + a.theme + ": expected dark or light");
    if (!a.lesson.empty()) throw Error("--lesson " + a.lesson + ": lessons are not available in this build yet");
    BackendChoice choice;
    if (!parse_backend(a.backend, choice)) throw Error("--backend " + a.backend + ": expected auto, cpu or cuda");
    if (a.view != "steps" && a.view != "time") throw Error("--view " + a.view + ": expected steps or time");
    Trace t;
    if (!a.trace_file.empty()) {
        std::ifstream in(a.trace_file);
        if (!in) throw Error("--trace " + a.trace_file + ": cannot open");
        try {
            t = read_trace_json(in);
        } catch (const Error& e) {
            throw Error("--trace " + a.trace_file + ": " + e.what());
        }
    } else {
        BackendRun run = run_backend(a.schedule.build(), choice);
        if (!run.note.empty()) std::cerr << "rlab: " << run.note << "\n";
        t = std::move(run.trace);
    }
    const bool time = a.view == "time";
    if (time && !render::time_view_unavailable(t).empty()) throw Error("--view time: " + render::time_view_unavailable(t));
    const render::Layout layout = render::build_layout(t);
    const render::TimeLayout time_layout = time ? render::build_time_layout(t) : render::TimeLayout{};
    render::View view = time ? render::fit_time_view(time_layout, float(w), float(h), a.font_scale)
                             : render::fit_view(layout, float(w), float(h), a.font_scale);
    view.dark = a.theme == "dark";
    render::Cursor cursor{a.step < 0 ? render::last_step(layout) : std::min(a.step, render::last_step(layout)), 1.0f};
    const render::Scene scene = time ? render::build_time_scene(t, time_layout, cursor, view)
                                     : render::build_scene(t, layout, cursor, view);
    if (!a.dump_scene.empty()) {
        std::ofstream out(a.dump_scene);
        if (!out) throw Error("--dump-scene " + a.dump_scene + ": cannot open for writing");
        render::dump_scene_json(out, scene);
    }
    render::Offscreen off;
    std::string err;
    if (!off.create(w, h, &err)) {
        std::cerr << "rlab: render: " << err << "\n";
        return 2;
    }
    const std::vector<uint8_t> px = off.render(scene);
    if (!render::write_png(a.png, w, h, px, &err)) throw Error("--png " + a.png + ": " + err);
    std::cerr << "rlab: wrote " << a.png << " (" << w << "x" << h << ", step " << cursor.step << " of "
              << render::last_step(layout) << ", " << off.context_kind() << ")\n";
    return 0;
}

}  // namespace rl::cli
