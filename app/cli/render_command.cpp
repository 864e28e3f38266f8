// app/cli/render_command.cpp — runs a schedule, builds the frame's scene and draws it offscreen into a PNG.
#include "app/cli/render_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/backend/backend.h"
#include "app/render/offscreen.h"
#include "app/render/scene.h"
#include "core/emulator.h"

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
    BackendRun run = run_backend(a.schedule.build(), choice);
    if (!run.note.empty()) std::cerr << "rlab: " << run.note << "\n";
    const Trace& t = run.trace;
    const render::Layout layout = render::build_layout(t);
    render::View view = render::fit_view(layout, float(w), float(h), a.font_scale);
    view.dark = a.theme == "dark";
    render::Cursor cursor{a.step < 0 ? render::last_step(layout) : std::min(a.step, render::last_step(layout)), 1.0f};
    const render::Scene scene = render::build_scene(t, layout, cursor, view);
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
