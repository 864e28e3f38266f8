// app/imgui/main.cpp — reduction-lab: the lab bench. Options and state are app/lab's; this is the frame loop
// (panels, the canvas scene drawn under them, then the screenshot, scene dump or frame-time report asked for).
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "app/imgui/desktop.h"
#include "app/imgui/frame_content.h"
#include "app/imgui/monkey.h"
#include "app/imgui/partial_frame.h"
#include "app/imgui/panels.h"
#include "app/imgui/window.h"
#include "app/lab/frame.h"
#include "app/lab/frame_bench.h"
#include "app/lab/process_clock.h"
#include "app/lab/sanitized_build.h"
#include "app/lab/startup.h"
#include "app/lab/state_invariants.h"
#include "app/render/damage.h"
#include "app/render/offscreen.h"
#include "app/render/renderer.h"
#include "core/error.h"
#include "core/file_io.h"

namespace {

using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// Set by GLFW when the window's contents were lost (exposed, resized): the next frame is drawn again.
bool window_exposed = true;

int fail(const std::string& line) {
    std::cerr << "reduction-lab: " << line << "\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace rl;
    const auto start = Clock::now();
    lab::Options o;
    if (int rc = lab::parse_options(lab::FrontEnd::LabBench, argc, argv, o, std::cout, std::cerr); rc >= 0) return rc;
    lab::Desktop desktop(argc, o);
    desktop.apply_to(o);
    lab::LabState s;
    if (std::string err = lab::start_lab_bench(s, o); !err.empty()) return fail(err);
    if (!s.backend_note.empty()) std::cerr << "reduction-lab: " << s.backend_note << "\n";

    std::string err;
    GLFWwindow* window = lab::open_window(o.width, o.height, o.bench_frames == 0, err);
    if (!window) return fail(err);
    desktop.on_window(window, s);
    render::Renderer renderer;
    if (!renderer.init(&err)) return fail(err);
    std::string content, shown;  // what this frame would show and what the window shows (app/imgui/frame_content.h)
    uint64_t redraws = 0;        // frames drawn (the others changed nothing)
    bool idle = false;           // the last frame put nothing new on screen
    // Drawing only what changed: the back buffer is never swapped but copied to the window rectangle by rectangle,
    // so it keeps the frame on screen, and a changed frame redraws (clear, canvas, panels, each clipped) only the
    // rectangles where its triangles or its scene differ from that frame's (app/render/damage.h). On llvmpipe the
    // cost of a frame is the pixels it fills: a playing step changes the canvas, a line of the event panel and the
    // transport, not the 1600x900 window.
    const lab::PartialPresenter partial(window);
    lab::ClippedDrawer clipped;
    int same_size_frames = 0, last_fbw = 0, last_fbh = 0;  // frames the framebuffer has kept its size
    std::optional<render::DrawnFrame> shown_triangles;  // ImGui's triangles of the frame on screen
    std::vector<render::DrawnInstance> shown_instances;   // the canvas's instances on screen (Renderer::plan)
    bool shown_dark = s.dark;
    float shown_font_scale = s.font_scale;
    uint64_t partial_frames = 0;  // frames drawn in part (the rest whole)
    double redrawn_share = 0;     // the window's share redrawn, summed over frames drawn
    // RLAB_CHECK_PARTIAL=1: each frame drawn in part is read back, drawn whole and read again; pixels that differ
    // are counted and reported (the e2e test asserts none).
    const bool check_partial = std::getenv("RLAB_CHECK_PARTIAL") && std::string(std::getenv("RLAB_CHECK_PARTIAL")) == "1";
    uint64_t checked_frames = 0, differing_pixels = 0;
    auto last_present = Clock::now();
    // RLAB_BENCH_STEPS=1 with --bench-frames: every frame shows the next step (the first after the last), so every
    // timed frame draws a changed step; --play advances by the time gone by, which at a few ms a frame is mostly the
    // same step.
    const bool bench_steps = o.bench_frames > 0 && std::getenv("RLAB_BENCH_STEPS") && std::string(std::getenv("RLAB_BENCH_STEPS")) == "1";
    glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { window_exposed = true; });

    lab::FrameBench bench;
    std::optional<lab::Monkey> monkey;  // --monkey: random input, every frame timed
    if (o.monkey_events) monkey.emplace(o.monkey_seed, o.monkey_events);
    double slowest_ms = 0;
    int slowest_frame = 0;
    std::string slowest_events;
    lab::StateInvariants invariants;  // --monkey: checked after every frame; the first one broken is reported
    std::string broken;
    double invariants_ms = 0;
    const int bench_total = o.bench_frames > 0 ? o.bench_frames + 5 : 0;  // five warm-up frames are not counted
    int frame = 0, exit_code = 0;
    uint64_t builds_before_timed = 0, redraws_before_timed = 0;  // --bench-frames: scenes built, frames drawn in the warm-up
    uint64_t partial_before_timed = 0;                           // and drawn in part, and the share of the window drawn
    double share_before_timed = 0;
    auto last = Clock::now();
    lab::CloseGuard close_guard;  // the window was closed with unsaved kernel edits: ask
    while (!glfwWindowShouldClose(window)) {
        if (monkey && monkey->act(window, s)) last = Clock::now();  // a knob's or a lesson's run is not a frame's
        const auto t0 = Clock::now();
        const double cpu0 = lab::process_cpu_ms();
        const float dt = std::min(0.1f, std::chrono::duration<float>(t0 - last).count());
        last = t0;
        lab::restyle(s);
        // Idle (the last frame changed nothing): sleep until input or a 60 Hz tick, which polls workers and lets
        // ImGui's timers (tooltips, the text cursor) run; vsync no longer paces a loop that does not swap.
        // Drawing in part does not swap, so vsync does not pace a playing window either: at most 60 frames a second.
        const double since_present = std::chrono::duration<double>(t0 - last_present).count();
        if (idle)
            glfwWaitEventsTimeout(1.0 / 60.0);
        else if (partial.active() && o.bench_frames == 0 && !monkey && since_present < 1.0 / 60.0)
            glfwWaitEventsTimeout(1.0 / 60.0 - since_present);
        else
            glfwPollEvents();
        // Closing with unsaved kernel edits asks first (Save and quit, Discard and quit, Cancel): no work is lost.
        if (glfwWindowShouldClose(window) && !close_guard.request(s.kernel_editor))
            glfwSetWindowShouldClose(window, GLFW_FALSE);
        s.poll_kernel();  // a saved kernel file runs again on a worker; its trace is taken here when it is ready
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        if (monkey) monkey->feed(window);
        ImGui::NewFrame();
        int ww = 0, wh = 0, fbw = 0, fbh = 0;
        glfwGetWindowSize(window, &ww, &wh);
        glfwGetFramebufferSize(window, &fbw, &fbh);
        s.drawn = {};  // the panels record this frame's drawing afresh
        lab::place_panels(s, float(ww), float(wh));
        desktop.help_window(s);
        if (close_guard.asking() &&
            close_guard.answer(lab::unsaved_edits_dialog(s, close_guard.take_open()), s.kernel_editor, *s.kernel))
            glfwSetWindowShouldClose(window, GLFW_TRUE);
        if (bench_steps)
            s.set_step(s.cursor.step >= s.last() ? 0 : s.cursor.step + 1);
        else
            s.advance(dt);
        ImGui::Render();
        const render::Scene& scene = lab::frame_scene(s, s.canvas.w, s.canvas.h);
        // What this frame shows: the canvas's scene (which build, where, on which background), ImGui's draw lists
        // and the window's size. While those bytes repeat, the window already shows this frame.
        content.clear();  // keeps its capacity: the draw lists' bytes are appended every frame
        content += lab::shown_scene_bytes(s);
        for (float v : {s.canvas.x, s.canvas.y}) content.append(reinterpret_cast<const char*>(&v), sizeof v);
        lab::append_draw_data(content, *ImGui::GetDrawData());
        // A frame that changed nothing puts nothing on screen: the window still shows the last one (an expose, a
        // resize or a screenshot draws it again). On llvmpipe drawing the 1600x900 window costs ~20 ms whatever the
        // trace; copying a kept copy of it into the back buffer would still cost ~5 ms, so none is kept.
        for (int v : {fbw, fbh}) content.append(reinterpret_cast<const char*>(&v), sizeof v);
        const bool exposed = window_exposed;
        const bool screenshot_frame = frame + 1 == o.frames && !o.screenshot.empty();
        const bool present = exposed || content != shown || screenshot_frame;
        window_exposed = false;
        const render::DamageRect whole{0, 0, fbw, fbh};
        auto draw_within = [&](const render::DamageRect* r) {
            renderer.begin_frame(fbw, fbh, render::palette(s.dark).background, r);
            renderer.draw(scene, int(s.canvas.x), int(s.canvas.y), fbw, fbh, r);
            if (r)
                clipped.draw(*ImGui::GetDrawData(), *r);
            else
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        };
        // Drawn whole and swapped: without GLX_MESA_copy_sub_buffer, and while the drawable's size is not yet the
        // framebuffer's (a resize under way); the back buffer is undefined after a swap, so the next frame is whole.
        // Mesa's back buffer takes a new size a frame or two after the drawable does (a copy of the new size then
        // reads outside it: an X error, seen under the monkey's resizes), so copies wait for three frames of one size.
        same_size_frames = (fbw == last_fbw && fbh == last_fbh) ? same_size_frames + 1 : 0;
        last_fbw = fbw, last_fbh = fbh;
        const bool swap = present && (!partial.active() || same_size_frames < 3 || !partial.drawable_is(fbw, fbh));
        if (swap) {
            draw_within(nullptr);
            redrawn_share += 1.0;
            shown_triangles.reset();
        } else if (present) {
            std::optional<render::DrawnFrame> triangles = lab::drawn_frame(*ImGui::GetDrawData());
            std::vector<render::DrawnInstance> instances = renderer.plan(scene, int(s.canvas.x), int(s.canvas.y), fbh);
            // Drawn whole: a new or exposed window, a new size, theme or font (the atlas changes under the same
            // texture), a callback among ImGui's commands, and the frame a screenshot reads.
            const bool whole_frame = exposed || screenshot_frame || !triangles || !shown_triangles || shown.empty() ||
                                     s.dark != shown_dark || s.font_scale != shown_font_scale ||
                                     shown.size() < 2 * sizeof(int) ||
                                     shown.compare(shown.size() - 2 * sizeof(int), 2 * sizeof(int), content,
                                                   content.size() - 2 * sizeof(int), 2 * sizeof(int)) != 0;
            std::vector<render::DamageRect> rects{whole};
            if (!whole_frame) {
                rects = render::damage(*shown_triangles, *triangles, whole);
                for (const render::DamageRect& r : render::scene_damage(shown_instances, instances)) rects.push_back(r);
                rects = render::merge_rects(std::move(rects), whole, 6);
            }
            long long px = 0;
            for (const render::DamageRect& r : rects) draw_within(&r), px += r.area();
            partial.present(rects, fbh);
            if (!whole_frame) ++partial_frames;
            redrawn_share += double(px) / double(std::max(1LL, whole.area()));
            if (check_partial && !whole_frame) {
                const std::vector<uint8_t> drawn = renderer.read_pixels(0, 0, fbw, fbh, fbh);
                draw_within(nullptr);
                const std::vector<uint8_t> again = renderer.read_pixels(0, 0, fbw, fbh, fbh);
                for (size_t i = 0; i + 3 < drawn.size(); i += 4)
                    differing_pixels += (drawn[i] != again[i] || drawn[i + 1] != again[i + 1] || drawn[i + 2] != again[i + 2]);
                ++checked_frames;
            }
            shown_triangles = std::move(triangles);
            shown_instances = std::move(instances);
            shown_dark = s.dark, shown_font_scale = s.font_scale;
        }
        if (present) {
            shown.swap(content);
            ++redraws;
            last_present = t0;
        }
        ++frame;

        if (frame == o.frames && !o.screenshot.empty()) {
            if (!render::write_png(o.screenshot, fbw, fbh, renderer.read_pixels(0, 0, fbw, fbh, fbh), &err))
                exit_code = fail(err);
            else
                std::cerr << "reduction-lab: wrote " << o.screenshot << " (" << fbw << "x" << fbh << ", step " << s.cursor.step << ")\n";
        }
        if (frame == o.frames && !o.dump_scene.empty())
            if (std::string e = lab::write_scene(o.dump_scene, scene, &s.drawn); !e.empty()) exit_code = fail(e);
        if (swap) glfwSwapBuffers(window);
        idle = !present && o.bench_frames == 0 && !monkey;  // interactive and unchanged: wait for input, not a redraw
        if (bench_total || frame == 1 || monkey) renderer.finish();  // timed frames include the drawing
        const auto t1 = Clock::now();
        if (frame == 1) bench.first_frame_ms = ms_between(start, t1);
        if (!s.analysis_ready) {
            s.finish_analysis();
            last = Clock::now();  // the analysis pause is not animation time
        }
        if (monkey && broken.empty()) {
            const auto c0 = Clock::now();
            if (std::string b = invariants.check(s); !b.empty())
                broken = "frame " + std::to_string(frame) + " (" + monkey->this_frame() + "on " + describe(s.schedule) + "): " + b;
            invariants_ms += ms_between(c0, Clock::now());
        }
        if (bench_total && frame > 5) bench.ms.push_back(ms_between(t0, t1));
        if (bench_total && frame == 5)
            builds_before_timed = s.scene_builds, redraws_before_timed = redraws, partial_before_timed = partial_frames,
            share_before_timed = redrawn_share;
        const double cost_ms = lab::frame_cost_ms(ms_between(t0, t1), lab::process_cpu_ms() - cpu0);
        if (monkey && frame > 1 && cost_ms > slowest_ms)
            slowest_ms = cost_ms, slowest_frame = frame, slowest_events = monkey->this_frame() + "on " + describe(s.schedule) +
                             (s.presenter ? ", presenter" : "") + (s.time_view ? ", time view" : "") +
                             (s.numerics_open ? ", numerics" : "") + (s.source_open ? ", source" : "") +
                             (s.source_diff ? ", diff" : "") + (s.timings_large ? ", timings" : "") +
                             (s.lesson.active() ? ", lesson " + s.lesson.lesson().name : "");
        if (monkey && monkey->done()) break;
        if (bench_total && frame >= bench_total) break;
        if (o.quit && frame >= o.frames && !bench_total) break;
    }
    if (bench_total) {
        glfwGetFramebufferSize(window, &bench.window_w, &bench.window_h);
        bench.canvas_w = s.canvas.w, bench.canvas_h = s.canvas.h, bench.zoom = s.zoom, bench.run_ms = s.run_ms;
        bench.events = s.trace.events.size(), bench.scene = &s.last_scene, bench.gl = renderer.gl_version();
        bench.scene_build_ms = s.scene_build_ms, bench.scene_builds = (long long)(s.scene_builds - builds_before_timed);
        bench.redraws = (long long)(redraws - redraws_before_timed);
        lab::print_frame_bench(stdout, "reduction-lab", bench);
        if (bench_steps) std::printf("  every frame showed the next step (RLAB_BENCH_STEPS=1)\n");
        const long long drawn = std::max(1LL, bench.redraws);
        if (partial.active())
            std::printf("  drawn in part: %llu of the %lld timed frames drawn, %.1f %% of the window's pixels redrawn a frame drawn "
                        "(GLX_MESA_copy_sub_buffer)\n",
                        (unsigned long long)(partial_frames - partial_before_timed), bench.redraws,
                        100.0 * (redrawn_share - share_before_timed) / double(drawn));
        else
            std::printf("  every frame drawn whole (%s)\n", partial.why_not().c_str());
    }
    if (monkey) {
        std::cout << "reduction-lab: monkey: " << monkey->fed() << " events (" << monkey->counts() << ") over " << frame
                  << " frames; slowest frame " << slowest_ms << " ms (frame " << slowest_frame << ": " << slowest_events << ")\n";
        // The frame limit is the release build's (CI's default stage runs the same monkey): under ASan, drawn by
        // llvmpipe on shared cores, frames of several seconds are the sanitizer's cost, not the lab bench's.
        if (slowest_ms > 1000 && !lab::kSanitizedBuild)
            exit_code = fail("monkey: frame " + std::to_string(slowest_frame) + " took " + std::to_string(int(slowest_ms)) +
                             " ms (wall and CPU), over a second");
        if (broken.empty())
            std::cout << "reduction-lab: monkey: the state's invariants held after all " << invariants.checks() << " frames ("
                      << invariants.emulations() << " fresh emulations, " << invariants.skipped() << " traces too large; "
                      << int(invariants_ms) << " ms)\n";
        else
            exit_code = fail("monkey: an invariant broke after " + broken);
    }
    if (check_partial)
        std::cerr << "reduction-lab: frames drawn in part checked against a whole redraw: " << checked_frames << ", pixels differing: "
                  << differing_pixels << "\n";
    desktop.on_exit(window, s);
    renderer.shutdown();
    lab::close_window(window);
    try {
        flush_stdout_checked();  // --bench-frames' report: a full or closed standard output is exit 2
    } catch (const Error& e) {
        return fail(e.what());
    }
    return exit_code;
}
