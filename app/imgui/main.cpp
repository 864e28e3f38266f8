// app/imgui/main.cpp — reduction-lab: the lab bench window (GLFW + Dear ImGui + app/render), and its test options.
// Sections: options · window and fonts · panel placement · the frame loop (screenshot, scene dump, benchmark).
#include <CLI/CLI.hpp>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/cli/schedule_options.h"
#include "app/imgui/lesson_hook.h"
#include "app/imgui/panels.h"
#include "app/render/frame_stats.h"
#include "app/render/glyph_atlas.h"
#include "app/render/offscreen.h"
#include "app/render/renderer.h"
#include "core/emulator.h"
#include "core/version.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace rl;

struct Options {
    cli::ScheduleArgs schedule;
    std::string backend = "auto", lesson, screenshot, dump_scene, size = "1600x900", theme = "dark", zoom = "fit";
    std::string trace_file, view = "steps", time_window;
    std::string bench_file;
    int step = -1, frames = -1, bench_frames = 0;
    float progress = 1.0f, font_scale = 1.0f;
    long select = -1;
    bool quit = false, play = false, enlarge_timings = false, numerics = false;
};

void apply_style(lab::LabState& s, const std::string& font) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (!font.empty())
        io.Fonts->AddFontFromFileTTF(font.c_str(), std::round(16.0f * s.font_scale));
    else
        io.Fonts->AddFontDefault();
    io.Fonts->Build();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle st;
    if (s.dark)
        ImGui::StyleColorsDark(&st);
    else
        ImGui::StyleColorsLight(&st);
    st.WindowRounding = 0.0f;
    st.FrameRounding = 3.0f;
    st.WindowBorderSize = 1.0f;
    st.ScaleAllSizes(s.font_scale);
    ImGui::GetStyle() = st;
}

}  // namespace

int main(int argc, char** argv) {
    const auto start = Clock::now();
    Options o;
    CLI::App app{"reduction-lab — the lab bench: watch a GPU reduction schedule run, step by step, with every knob."};
    cli::add_schedule_options(app, o.schedule);
    app.add_option("--backend", o.backend, "auto|cpu|cuda")->capture_default_str();
    app.add_option("--lesson", o.lesson, "open a lesson by name");
    app.add_option("--trace", o.trace_file, "show a trace saved by `rlab trace --format json` instead of running a schedule");
    app.add_option("--view", o.view, "steps (one row per step) | time (one row per warp at GPU timestamps; T toggles)")
        ->capture_default_str();
    app.add_option("--time-window", o.time_window, "FROM:TO cycles the time view first shows (e.g. 13500:17500, the barriers)");
    app.add_option("--step", o.step, "open at this step (default 0); with --lesson, the lesson's step K (0-based)");
    app.add_option("--progress", o.progress, "animation progress of that step, 0..1 (values in flight below 0.65)");
    app.add_option("--select", o.select, "select this event index (its details and dependency cone)");
    app.add_option("--frames", o.frames, "render this many frames (with --quit: then exit)");
    app.add_option("--screenshot", o.screenshot, "save the window as a PNG after the frames");
    app.add_option("--dump-scene", o.dump_scene, "write the canvas scene (boxes, arrows, labels) as JSON after the frames");
    app.add_flag("--quit", o.quit, "exit after the frames");
    app.add_option("--bench-frames", o.bench_frames, "render this many frames without vsync and print frame-time percentiles");
    app.add_option("--size", o.size, "window size WxH")->capture_default_str();
    app.add_option("--theme", o.theme, "dark|light")->capture_default_str();
    app.add_option("--font-scale", o.font_scale, "text size factor (Ctrl +/- in the window)")->capture_default_str();
    app.add_option("--zoom", o.zoom, "fit (the whole grid) | lane (one lane fills the canvas)")->capture_default_str();
    app.add_option("--bench-file,--timings", o.bench_file,
                   "bench results JSON (`rlab bench --json`) for the timings panel (default: $RLAB_BENCH_FILE, else the "
                   "newest docs/bench/*.json installed next to the program or in the source tree)");
    app.add_flag("--play", o.play, "start playing");
    app.add_flag("--numerics", o.numerics, "open the numerics comparison in the canvas's place (N toggles it)");
    app.add_flag("--enlarge-timings", o.enlarge_timings, "show the timings panel in the canvas's place (for screenshots)");
    app.set_version_flag("--version", rl::version_line("reduction-lab"));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        std::cerr << "reduction-lab: " << e.what() << " (see --help)\n";
        return 2;
    }
    int W = 0, H = 0;
    if (std::sscanf(o.size.c_str(), "%dx%d", &W, &H) != 2 || W < 320 || H < 240) {
        std::cerr << "reduction-lab: --size " << o.size << ": expected WxH, at least 320x240\n";
        return 2;
    }
    if (o.theme != "dark" && o.theme != "light") {
        std::cerr << "reduction-lab: --theme " << o.theme << ": expected dark or light\n";
        return 2;
    }
    if (o.zoom != "fit" && o.zoom != "lane") {
        std::cerr << "reduction-lab: --zoom " << o.zoom << ": expected fit or lane\n";
        return 2;
    }
    lab::LabState s;
    try {
        s.schedule = o.schedule.build();
    } catch (const rl::Error& e) {
        std::cerr << "reduction-lab: " << e.what() << "\n";
        return 2;
    }
    int lesson_step = -1;
    if (!o.lesson.empty()) {
        if (std::string err = lab::open_lesson(o.lesson, s.schedule, lesson_step); !err.empty()) {
            std::cerr << "reduction-lab: " << err << "\n";
            return 2;
        }
    }
    if (!parse_backend(o.backend, s.backend)) {
        std::cerr << "reduction-lab: --backend " << o.backend << ": expected auto, cpu or cuda\n";
        return 2;
    }
    if (o.view != "steps" && o.view != "time") {
        std::cerr << "reduction-lab: --view " << o.view << ": expected steps or time\n";
        return 2;
    }
    if (!(o.trace_file.empty() ? s.rerun() : s.load_trace(o.trace_file))) {
        std::cerr << "reduction-lab: " << s.error << "\n";
        return 2;
    }
    if (!o.time_window.empty() &&
        (std::sscanf(o.time_window.c_str(), "%lf:%lf", &s.time_from, &s.time_to) != 2 || s.time_to <= s.time_from)) {
        std::cerr << "reduction-lab: --time-window " << o.time_window << ": expected FROM:TO cycles, FROM < TO\n";
        return 2;
    }
    if (o.view == "time" && !s.set_time_view(true)) {
        std::cerr << "reduction-lab: --view time: " << s.notice << "\n";
        return 2;
    }
    if (!s.backend_note.empty()) std::cerr << "reduction-lab: " << s.backend_note << "\n";
    s.dark = o.theme == "dark";
    s.font_scale = std::clamp(o.font_scale, 0.5f, 3.0f);
    s.zoom = o.zoom;
    s.set_step(o.step >= 0 && o.lesson.empty() ? o.step : std::max(lesson_step, 0), std::clamp(o.progress, 0.0f, 1.0f));
    if (!o.lesson.empty()) lab::goto_lesson_step(s, size_t(std::max(o.step, 0)));  // --step K: the lesson's step K
    s.playing = o.play;
    if (o.select >= 0) s.select(uint32_t(o.select));
    s.timings = lab::load_timings(o.bench_file);
    s.timings_large = o.enlarge_timings;
    s.numerics_open = o.numerics;
    if (!o.bench_file.empty() && !s.timings.loaded) {
        std::cerr << "reduction-lab: --bench-file: " << s.timings.error << "\n";
        return 2;
    }
    if (o.frames < 0) o.frames = o.quit || !o.screenshot.empty() || !o.dump_scene.empty() ? 3 : 0;

    if (!glfwInit()) {
        std::cerr << "reduction-lab: no display (GLFW could not initialise); under CI run it with xvfb-run\n";
        return 2;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(W, H, "Reduction Lab — lab bench", nullptr, nullptr);
    if (!window) {
        std::cerr << "reduction-lab: cannot create an OpenGL 3.3 core window\n";
        glfwTerminate();
        return 2;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(o.bench_frames > 0 ? 0 : 1);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    render::Renderer renderer;
    std::string err;
    if (!renderer.init(&err)) {
        std::cerr << "reduction-lab: " << err << "\n";
        return 2;
    }
    const std::string font = render::default_font_path();
    bool styled_dark = s.dark;

    std::vector<double> frame_ms;
    const int bench_total = o.bench_frames > 0 ? o.bench_frames + 5 : 0;  // five warm-up frames are not counted
    int frame = 0;
    auto last = Clock::now();
    double first_frame_ms = 0;
    int exit_code = 0;
    while (!glfwWindowShouldClose(window)) {
        const auto t0 = Clock::now();
        const float dt = std::min(0.1f, std::chrono::duration<float>(t0 - last).count());
        last = t0;
        if (s.font_dirty || styled_dark != s.dark) {
            apply_style(s, font);
            s.font_dirty = false;
            styled_dark = s.dark;
        }
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();

        int ww = 0, wh = 0, fbw = 0, fbh = 0;
        glfwGetWindowSize(window, &ww, &wh);
        glfwGetFramebufferSize(window, &fbw, &fbh);
        const float fs = s.font_scale;
        const float L = std::min(320.0f * fs, float(ww) * 0.3f), R = std::min(370.0f * fs, float(ww) * 0.3f);
        const float B = ImGui::GetFrameHeightWithSpacing() * 2.0f + ImGui::GetStyle().WindowPadding.y * 2.0f;
        const float Hh = float(wh);
        s.canvas = {L, 0, std::max(50.0f, float(ww) - L - R), std::max(50.0f, Hh - B)};
        if (!s.view_fitted) {
            if (s.time_view)
                s.view = render::fit_time_view(s.time_layout, s.canvas.w, s.canvas.h, fs, s.time_from, s.time_to);
            else
                s.view = s.zoom == "lane" ? render::lane_view(s.layout, s.canvas.w, s.canvas.h, 0, 0, fs)
                                          : render::fit_view(s.layout, s.canvas.w, s.canvas.h, fs);
            s.view_fitted = true;
        }
        s.view.width = s.canvas.w;
        s.view.height = s.canvas.h;
        s.view.font_scale = fs;
        s.view.dark = s.dark;

        lab::handle_shortcuts(s);
        lab::lesson_shortcuts(s);
        lab::canvas_panel(s, s.canvas);
        lab::config_panel(s, {0, 0, L, Hh * 0.62f});
        lab::details_panel(s, {0, Hh * 0.62f, L, Hh * 0.38f});
        lab::depth_panel(s, {float(ww) - R, 0, R, Hh * 0.46f});
        if (lab::lesson_view().active) lab::lesson_panel(s, {float(ww) - R, Hh * 0.46f, R, Hh * 0.54f});
        if (!lab::lesson_view().active || s.timings_large)  // enlarged, it covers the canvas, not the lesson
            lab::timings_panel(s, {float(ww) - R, Hh * 0.46f, R, Hh * 0.54f});
        if (s.numerics_open) lab::numerics_panel(s, s.canvas);
        lab::transport_panel(s, {L, Hh - B, s.canvas.w, B});
        s.advance(dt);
        ImGui::Render();

        s.view.selected = s.selected;
        s.view.cone = s.cone.empty() ? nullptr : &s.cone;
        s.last_scene = s.time_view ? render::build_time_scene(s.trace, s.time_layout, s.cursor, s.view)
                                   : render::build_scene(s.trace, s.layout, s.cursor, s.view);
        const render::Palette& P = render::palette(s.dark);
        renderer.begin_frame(fbw, fbh, P.background);
        renderer.draw(s.last_scene, int(s.canvas.x), int(s.canvas.y), fbw, fbh);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        ++frame;

        const bool last_frame = o.frames > 0 && frame == o.frames;
        if (last_frame && !o.screenshot.empty()) {
            const std::vector<uint8_t> px = renderer.read_pixels(0, 0, fbw, fbh, fbh);
            if (!render::write_png(o.screenshot, fbw, fbh, px, &err)) {
                std::cerr << "reduction-lab: " << err << "\n";
                exit_code = 2;
            } else {
                std::cerr << "reduction-lab: wrote " << o.screenshot << " (" << fbw << "x" << fbh << ", step "
                          << s.cursor.step << ")\n";
            }
        }
        if (last_frame && !o.dump_scene.empty()) {
            std::ofstream out(o.dump_scene);
            render::dump_scene_json(out, s.last_scene);
            if (!out) std::cerr << "reduction-lab: cannot write " << o.dump_scene << "\n", exit_code = 2;
        }
        glfwSwapBuffers(window);
        if (bench_total || frame == 1) renderer.finish();
        const auto t1 = Clock::now();
        if (frame == 1) first_frame_ms = std::chrono::duration<double, std::milli>(t1 - start).count();
        if (!s.analysis_ready) {
            s.finish_analysis();
            last = Clock::now();  // the analysis pause is not animation time
        }
        if (bench_total && frame > 5) frame_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        if (bench_total && frame >= bench_total) break;
        if (o.quit && frame >= o.frames && !bench_total) break;
    }
    if (bench_total) {
        int ww = 0, wh = 0;
        glfwGetFramebufferSize(window, &ww, &wh);
        const render::FrameStats st = render::frame_stats(frame_ms);
        std::printf("reduction-lab bench: %zu frames, window %dx%d, canvas %.0fx%.0f, zoom %s, %zu events\n", frame_ms.size(),
                    ww, wh, s.canvas.w, s.canvas.h, s.zoom.c_str(), s.trace.events.size());
        std::printf("  frame ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  mean %.2f\n", st.p50, st.p90, st.p99, st.max,
                    st.mean);
        std::printf("  first frame shown %.0f ms after start (run + layout %.0f ms); last scene: %zu boxes, %zu arrows, "
                    "%zu labels, %llu events folded\n",
                    first_frame_ms, s.run_ms, s.last_scene.boxes.size(), s.last_scene.arrows.size(), s.last_scene.texts.size(),
                    (unsigned long long)s.last_scene.folded_events);
        std::printf("  GL: %s\n", renderer.gl_version().c_str());
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    renderer.shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
