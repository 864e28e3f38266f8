// tests/gui/test_time_scene.cpp — the time view's scene on real H200 traces: marks at timestamps, barrier waits.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include "app/render/time_scene.h"
#include "core/emulator.h"
#include "core/trace_io.h"

using namespace rl;
using namespace rl::render;

namespace {

Trace load(const char* name) {
    std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/" + name);
    REQUIRE(in);
    return read_trace_json(in);
}

// The mark of each event in the scene (one per event), by event index.
std::map<uint32_t, const SceneBox*> marks_of(const Scene& s) {
    std::map<uint32_t, const SceneBox*> m;
    for (const SceneBox& b : s.boxes)
        if (b.role == BoxRole::TimeMark) {
            CHECK(m.count(b.event) == 0);
            m[b.event] = &b;
        }
    return m;
}

float centre(const SceneBox* b) { return b->x + b->w * 0.5f; }

}  // namespace

TEST_CASE("time scene: every event of a block has a mark at its clock, ordered per warp") {
    const Trace t = load("gpu-trace-smem-512.json");
    REQUIRE(t.times.size() == t.events.size());
    const TimeLayout l = build_time_layout(t);
    CHECK(l.rows.size() == 4 * 4 + 1);  // four blocks of four warps, and the second launch's warp
    const View v = fit_time_view(l, 1400, 900);
    const Scene s = build_time_scene(t, l, Cursor{8, 1.0f}, v);
    const auto marks = marks_of(s);
    uint64_t start = ~uint64_t(0);
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].block == 0) start = std::min(start, t.times[i].clock);
    std::map<uint32_t, std::vector<uint32_t>> by_warp;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        if (t.events[i].block != 0) continue;
        CAPTURE(i);
        REQUIRE(marks.count(i) == 1);
        CHECK(centre(marks.at(i)) == doctest::Approx(time_x(v, double(t.times[i].clock - start))).epsilon(0.001));
        by_warp[t.events[i].warp()].push_back(i);
    }
    CHECK(by_warp.size() == 4);
    for (auto& [w, evs] : by_warp) {
        std::sort(evs.begin(), evs.end(), [&](uint32_t a, uint32_t b) { return t.times[a].clock < t.times[b].clock; });
        float y = marks.at(evs[0])->y + marks.at(evs[0])->h * 0.5f;
        for (size_t k = 1; k < evs.size(); ++k) {
            CHECK(centre(marks.at(evs[k])) >= centre(marks.at(evs[k - 1])));
            CHECK(marks.at(evs[k])->y + marks.at(evs[k])->h * 0.5f == doctest::Approx(y));  // one row per warp
        }
    }
}

TEST_CASE("time scene: after a barrier, every event is right of every arrival, early warps get a wait bar") {
    const Trace t = load("gpu-trace-smem-512.json");
    const TimeLayout l = build_time_layout(t);
    const View v = fit_time_view(l, 1400, 900);
    const Scene s = build_time_scene(t, l, Cursor{int(t.step_count) - 1, 1.0f}, v);
    const auto marks = marks_of(s);
    std::map<uint32_t, const SceneBox*> waits;
    for (const SceneBox& b : s.boxes)
        if (b.role == BoxRole::Wait) waits[b.event] = &b;
    int barriers = 0, early = 0;
    for (uint32_t blk = 0; blk < t.grid; ++blk) {
        std::map<uint16_t, std::vector<uint32_t>> arrivals;
        for (uint32_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].block == blk && t.events[i].kind == EventKind::Barrier) arrivals[t.events[i].step].push_back(i);
        for (const auto& [step, arr] : arrivals) {
            ++barriers;
            CHECK(arr.size() == 4);  // one arrival per warp
            float last = -1e9f;
            for (uint32_t a : arr) last = std::max(last, centre(marks.at(a)));
            for (uint32_t i = 0; i < t.events.size(); ++i)
                if (t.events[i].block == blk && t.events[i].step > step) CHECK(centre(marks.at(i)) >= last);
            for (uint32_t a : arr) {
                if (centre(marks.at(a)) >= last) continue;  // the last warp to arrive waited for nobody
                ++early;
                REQUIRE(waits.count(a) == 1);
                const SceneBox* w = waits.at(a);
                CHECK(w->pattern == Pattern::Bars);
                CHECK(w->x == doctest::Approx(centre(marks.at(a))).epsilon(0.001));
                CHECK(w->x + w->w >= last - 1.0f);  // the bar lasts at least until the last warp arrives
            }
        }
    }
    CHECK(barriers == 4 * 3);  // three __syncthreads levels per block
    CHECK(early >= 4 * 3 * 2);
    // The gutter names the warp and how long it waited; bars name the warp they waited for.
    CHECK(std::any_of(s.overlay_texts.begin(), s.overlay_texts.end(), [](const SceneText& x) { return x.text == "block 0  warp 1"; }));
    CHECK(std::any_of(s.overlay_texts.begin(), s.overlay_texts.end(),
                      [](const SceneText& x) { return x.text.rfind("waited ", 0) == 0; }));
}

TEST_CASE("time scene: the cursor's step is highlighted, later steps dimmed") {
    const Trace t = load("gpu-trace-smem-512.json");
    const TimeLayout l = build_time_layout(t);
    const View v = fit_time_view(l, 1400, 900);
    const Color cone = palette(v.dark).cone;
    const Scene s = build_time_scene(t, l, Cursor{10, 1.0f}, v);
    int current = 0;
    for (const SceneBox& b : s.boxes) {
        if (b.role != BoxRole::TimeMark) continue;
        const int step = t.events[b.event].step;
        if (step == 10) ++current;
        CHECK((b.edge == cone) == (step == 10));
        CHECK((b.fill.a < 0.5f) == (step > 10));
    }
    CHECK(current == 16);  // the second __syncthreads: one arrival per warp in four blocks
    CHECK(std::count_if(s.boxes.begin(), s.boxes.end(), [](const SceneBox& b) { return b.role == BoxRole::RowHighlight; }) == 16);
}

TEST_CASE("time scene: the eight-thread GPU trace has one warp row, emulator traces are refused with one line") {
    const Trace g = load("gpu-trace-eight.json");
    CHECK(time_view_unavailable(g).empty());
    const TimeLayout l = build_time_layout(g);
    CHECK(l.rows.size() == 1);
    const Scene s = build_time_scene(g, l, Cursor{0, 1.0f}, fit_time_view(l, 800, 500));
    CHECK(marks_of(s).size() == g.events.size());

    const Trace e = emulate(Schedule{});
    CHECK(e.times.empty());
    CHECK(time_view_unavailable(e) == "time view needs a GPU trace (emulator traces have no timestamps)");
    CHECK(build_time_layout(e).rows.empty());
}
