// tests/lab/test_frame.cpp — the one function that builds a frame's scene, in the steps view (emulator trace) and
// the time view (a recorded H200 trace); zoom and pan act on the view shown.
#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <sstream>
#include "app/lab/frame.h"
#include "app/lab/source_view.h"
#include "app/render/presenter.h"
#include "core/emulator.h"

using namespace rl;
using namespace rl::lab;

namespace {

bool has_text(const render::Scene& sc, const std::string& text) {
    for (const render::SceneText& t : sc.texts)
        if (t.text == text) return true;
    return false;
}

size_t count_role(const render::Scene& sc, render::BoxRole role) {
    size_t n = 0;
    for (const render::SceneBox& b : sc.boxes) n += b.role == role;
    return n;
}

LabState eight_threads() {
    LabState s;
    s.backend = BackendChoice::Cpu;
    s.schedule.type = DType::I32;
    REQUIRE(s.rerun());
    return s;
}

}  // namespace

TEST_CASE("frame: the steps view shows the values held at the cursor, the sum only at the end") {
    LabState s = eight_threads();
    s.set_step(0);
    const render::Scene& first = frame_scene(s, 800, 500);
    CHECK(first.width == 800);
    CHECK(first.height == 500);
    CHECK(count_role(first, render::BoxRole::Value) >= 8);  // the eight loaded values
    CHECK(has_text(first, "8"));
    CHECK_FALSE(has_text(first, "36"));
    s.set_step(s.last());
    const render::Scene& last = frame_scene(s, 800, 500);
    CHECK(has_text(last, "36"));
    CHECK(count_role(last, render::BoxRole::TimeMark) == 0);
    CHECK(&last == &s.last_scene);  // kept: clicks pick from it
}

TEST_CASE("frame: theme and selection come from the state") {
    LabState s = eight_threads();
    s.dark = false;
    const uint32_t result = uint32_t(s.trace.events.size() - 1);
    s.select(result);
    frame_scene(s, 640, 400);
    CHECK_FALSE(s.view.dark);
    CHECK(s.view.selected == result);
    REQUIRE(s.view.cone != nullptr);
    CHECK((*s.view.cone)[result] == 1);
    CHECK(s.cone_size > 1);  // the result depends on more than itself
}

TEST_CASE("frame: the time view marks every event of a recorded GPU trace at its clock") {
    LabState s;
    REQUIRE(s.load_trace(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json"));
    REQUIRE(s.trace.times.size() == s.trace.events.size());
    REQUIRE(s.set_time_view(true));
    s.set_step(s.last());
    const render::Scene& sc = frame_scene(s, 1000, 400);
    std::set<uint32_t> marked;
    for (const render::SceneBox& b : sc.boxes)
        if (b.role == render::BoxRole::TimeMark) marked.insert(b.event);
    CHECK(marked.size() == s.trace.events.size());
    // Back to steps: the same trace, no marks.
    REQUIRE(s.set_time_view(false));
    CHECK(count_role(frame_scene(s, 1000, 400), render::BoxRole::TimeMark) == 0);
}

TEST_CASE("frame: an emulator trace has no time view, and says why") {
    LabState s = eight_threads();
    CHECK_FALSE(s.set_time_view(true));
    CHECK(s.notice.find("GPU trace") != std::string::npos);
    CHECK_FALSE(s.time_view);
}

TEST_CASE("frame: zoom scales the shown view about the pointer, pan moves it") {
    LabState s = eight_threads();
    frame_scene(s, 800, 500);
    const float before = s.view.px_per_col;
    zoom(s, 1.25f, 400, 250);
    CHECK(s.view.px_per_col == doctest::Approx(before * 1.25f));
    const float x0 = s.view.x0;
    pan(s, s.view.px_per_col * 2, 0);  // two columns to the right: the view starts two columns earlier
    CHECK(s.view.x0 == doctest::Approx(x0 - 2));
    s.view_fitted = false;  // F: fit again
    frame_scene(s, 800, 500);
    CHECK(s.view.px_per_col == doctest::Approx(before));
}

TEST_CASE("frame: the presenter's canvas at 1920x1080 has no text under 18 px and follows the step") {
    for (const auto& size : std::vector<std::pair<uint64_t, uint32_t>>{{8, 8}, {1000, 256}, {4096, 256}}) {
        const uint64_t n = size.first;  // a plain variable: clang 14 cannot capture a structured binding (CAPTURE)
        LabState s;
        s.backend = BackendChoice::Cpu;
        s.schedule.n = n;
        s.schedule.block = size.second;
        s.schedule.items = 1;
        REQUIRE(s.rerun());
        s.presenter = true;
        for (int step = 0; step <= s.last(); ++step) {
            CAPTURE(n);
            CAPTURE(step);
            s.set_step(step);
            const render::Scene& sc = frame_scene(s, 1920, 1080);
            size_t texts = 0;
            for (const auto* list : {&sc.texts, &sc.overlay_texts})
                for (const render::SceneText& t : *list) {
                    CHECK(t.size >= render::kPresenterMinTextPx);
                    ++texts;
                }
            CHECK(texts > 0);
            // The step's row is on the canvas: below the header, above the bottom edge.
            const float row_top = s.view.header() + float(step) * s.view.row_h - s.view.y0;
            CHECK(row_top >= s.view.header() - 1.0f);
            CHECK(row_top + s.view.row_h <= 1080.0f + 1.0f);
            // Its first active column is on the canvas.
            const auto& cells = s.layout.rows[size_t(step)].cells;
            if (!cells.empty()) {
                const double x = s.view.gutter() + (double(cells.front().col) - s.view.x0) * s.view.px_per_col;
                CHECK(x >= s.view.gutter() - 1.0);
                CHECK(x < 1920.0);
            }
        }
        // Leaving presenter mode fits the whole picture again, at the chosen scale.
        s.presenter = false;
        frame_scene(s, 1920, 1080);
        CHECK(s.view.x0 == 0);
        CHECK(s.view.font_scale == doctest::Approx(s.font_scale));
    }
}

namespace {

std::string json_of(const render::Scene& sc) {
    std::ostringstream out;
    render::dump_scene_json(out, sc);
    return out.str();
}

// What frame_scene() would draw if it built the scene afresh, with the state's current view.
std::string fresh_json(const LabState& s) {
    render::Scene sc = build_frame(s, s.view);
    if (s.presenter) render::drop_small_texts(sc, render::kPresenterMinTextPx);
    return json_of(sc);
}

}  // namespace

// The fold of events into boxes runs once per change of what is seen, not once per frame: a counter of builds stays
// put over unchanged frames and goes up by one on each change, and the scene kept is then the one a fresh build
// gives (a stale cache would draw the old picture). Not timed: counted.
TEST_CASE("frame: unchanged frames build no scene; each change of what is seen builds one, as a fresh build would") {
    LabState s;
    s.backend = BackendChoice::Cpu;
    s.schedule.n = 4096;  // 16 blocks of 256: folded when fitted, arrows and labels when zoomed in
    s.schedule.block = 256;
    REQUIRE(s.rerun());
    s.set_step(3);
    float w = 900, h = 520;
    const render::Scene* first = &frame_scene(s, w, h);
    REQUIRE(s.scene_builds == 1);
    CHECK(first->folded_events > 0);
    for (int f = 0; f < 50; ++f) CHECK(&frame_scene(s, w, h) == first);
    CHECK(s.scene_builds == 1);  // 50 frames that changed nothing: no fold

    uint64_t builds = s.scene_builds;
    const auto changes = [&](const std::string& what, const std::function<void()>& change) {
        CAPTURE(what);
        change();
        frame_scene(s, w, h);
        CHECK(s.scene_builds == builds + 1);
        for (int f = 0; f < 5; ++f) frame_scene(s, w, h);
        CHECK(s.scene_builds == builds + 1);  // and once built, kept
        CHECK(json_of(s.last_scene) == fresh_json(s));
        builds = s.scene_builds;
    };
    changes("a step forward", [&] { s.step_forward(); });
    changes("a step back", [&] { s.step_back(); });
    changes("values travelling (playback)", [&] { s.cursor.t = 0.4f; });
    changes("the row complete", [&] { s.cursor.t = 1.0f; });
    changes("the wheel", [&] { zoom(s, 8.0f, 400, 200); });
    changes("more wheel: lanes with numbers and arrows", [&] { zoom(s, 16.0f, 400, 200); });
    changes("a drag", [&] { pan(s, -30, 12); });
    changes("F: fit", [&] { s.view_fitted = false; });
    changes("the wheel again: boxes with numbers", [&] { zoom(s, 40.0f, 400, 200); });
    changes("a wider window", [&] { w = 1000; });
    changes("a taller window", [&] { h = 600; });
    changes("the light theme", [&] { s.dark = false; });
    changes("larger text", [&] { s.font_scale = 1.25f; });
    changes("a click on an event: its cone", [&] { s.select(uint32_t(s.trace.events.size() - 1)); });
    changes("a click on another event: another cone", [&] { s.select(0); });
    const int shuffle = s.source.source.line_of("shuffle");
    REQUIRE(shuffle > 0);
    changes("a source line's events marked", [&] { pick_line(s, shuffle); });
    changes("the marks cleared by a click on an event", [&] { s.select(3), line_of_selection(s); });
    changes("presenter mode", [&] { s.presenter = true; });
    changes("presenter mode follows the step", [&] { s.step_forward(); });
    changes("presenter mode left: fitted again", [&] { s.presenter = false; });
    changes("a new trace of the same size", [&] {
        s.schedule.input.kind = InputKind::Equal;
        REQUIRE(s.rerun());
    });
    for (int f = 0; f < 20; ++f) frame_scene(s, w, h);
    CHECK(s.scene_builds == builds);

    LabState g;  // the time view of a recorded GPU trace, the same cache
    REQUIRE(g.load_trace(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json"));
    frame_scene(g, w, h);
    REQUIRE(g.scene_builds == 1);
    REQUIRE(g.set_time_view(true));
    frame_scene(g, w, h);
    frame_scene(g, w, h);
    CHECK(g.scene_builds == 2);
    CHECK(count_role(g.last_scene, render::BoxRole::TimeMark) > 0);
    g.set_step(g.last());
    frame_scene(g, w, h);
    CHECK(g.scene_builds == 3);
    CHECK(json_of(g.last_scene) == fresh_json(g));
}

// The bytes a front end compares before drawing again (app/imgui/main.cpp, app/qt/canvas_widget.cpp): equal while
// frames change nothing, different after a step, a theme or a new trace.
TEST_CASE("frame: the shown scene's bytes change exactly when what the canvas shows changes") {
    LabState s = eight_threads();
    frame_scene(s, 800, 500);
    const std::string first = shown_scene_bytes(s);
    for (int i = 0; i < 5; ++i) {
        frame_scene(s, 800, 500);
        CHECK(shown_scene_bytes(s) == first);
    }
    s.cursor.step = 1;
    frame_scene(s, 800, 500);
    const std::string stepped = shown_scene_bytes(s);
    CHECK(stepped != first);
    s.dark = !s.dark;
    CHECK(shown_scene_bytes(s) != stepped);  // the background alone, before the scene is rebuilt
    frame_scene(s, 800, 500);
    const std::string themed = shown_scene_bytes(s);
    s.dark = !s.dark;
    frame_scene(s, 800, 500);
    // Back to the first theme: a new build, so new bytes, although the picture equals an earlier one (a redraw
    // too many is harmless; a stale picture would not be).
    CHECK(shown_scene_bytes(s) != themed);
    CHECK(shown_scene_bytes(s) != stepped);
}
