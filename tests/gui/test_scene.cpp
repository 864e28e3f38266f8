// tests/gui/test_scene.cpp — the scene (boxes, arrows, labels) as a pure function of trace, cursor and view.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include "app/render/scene.h"
#include "core/analysis.h"
#include "core/emulator.h"
#include "../support/helpers.h"

using namespace rl;
using rl::test::run;
using namespace rl::render;

namespace {

std::vector<const SceneBox*> boxes_of(const Scene& s, BoxRole role) {
    std::vector<const SceneBox*> out;
    for (const SceneBox& b : s.boxes)
        if (b.role == role) out.push_back(&b);
    return out;
}

bool has_text(const std::vector<SceneText>& v, const std::string& t) {
    return std::any_of(v.begin(), v.end(), [&](const SceneText& x) { return x.text == t; });
}

// The text drawn inside a box (centred in it), or "" when none.
std::string text_in(const Scene& s, const SceneBox& b) {
    for (const SceneText& t : s.texts)
        if (t.x > b.x && t.x < b.x + b.w && t.y > b.y && t.y < b.y + b.h && t.event == b.event) return t.text;
    return "";
}

}  // namespace

TEST_CASE("scene: the eight-thread example has the expected boxes, arrows and labels at each step") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    REQUIRE(l.rows.size() == 5);
    const View v = fit_view(l, 1000, 640);
    // Boxes visible after each step: 8 loads, then 4, 2, 1 combines, then the final store.
    const size_t expect_boxes[5] = {8, 12, 14, 15, 16};
    const size_t expect_arrows[5] = {0, 4, 6, 7, 7};
    for (int step = 0; step < 5; ++step) {
        CAPTURE(step);
        const Scene s = build_scene(t, l, Cursor{step, 1.0f}, v);
        CHECK(boxes_of(s, BoxRole::Value).size() == expect_boxes[step]);
        CHECK(s.arrows.size() == expect_arrows[step]);
        CHECK(boxes_of(s, BoxRole::Travelling).empty());
        // Every row is labelled in the gutter, future ones too (dimmed), so the plan is visible.
        CHECK(has_text(s.overlay_texts, "load, accumulate"));
        CHECK(has_text(s.overlay_texts, "shfl_down offset 4"));
        CHECK(has_text(s.overlay_texts, "final store"));
    }
    const Scene s1 = build_scene(t, l, Cursor{1, 1.0f}, v);
    std::multiset<std::string> row1;
    for (const SceneBox* b : boxes_of(s1, BoxRole::Value))
        if (t.events[b->event].step == 1) row1.insert(text_in(s1, *b));
    CHECK(row1 == std::multiset<std::string>{"6", "8", "10", "12"});
    // Shuffle arrows go from lane i+4 down to lane i, and each says its offset.
    for (const SceneArrow& a : s1.arrows) {
        const Event& e = t.events[a.event];
        REQUIRE(e.kind == EventKind::Shuffle);
        CHECK(a.offset == 4);
        CHECK(e.source_lane() == e.lane() + 4);
        CHECK(a.x0 > a.x1);  // source to the right of the destination
        CHECK(a.y0 < a.y1);  // from the row above
    }
    CHECK(std::count_if(s1.texts.begin(), s1.texts.end(), [](const SceneText& x) { return x.text == "+4"; }) == 4);
    const Scene s4 = build_scene(t, l, Cursor{4, 1.0f}, v);
    int thirty_six = 0;
    for (const SceneBox* b : boxes_of(s4, BoxRole::Value)) thirty_six += text_in(s4, *b) == "36";
    CHECK(thirty_six == 2);  // the last combine and the final store
    CHECK(std::count_if(s4.texts.begin(), s4.texts.end(), [](const SceneText& x) { return x.text == "+1"; }) == 1);
}

TEST_CASE("scene: boxes sit in their lane's column and their step's row") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1000, 640);
    const Scene s = build_scene(t, l, Cursor{4, 1.0f}, v);
    for (const SceneBox* b : boxes_of(s, BoxRole::Value)) {
        const Event& e = t.events[b->event];
        const float cx = b->x + b->w * 0.5f, cy = b->y + b->h * 0.5f;
        const float col = float((cx - v.gutter()) / v.px_per_col + v.x0);
        const float row = (cy - v.header() + v.y0) / v.row_h;
        CHECK(int(col) == int(e.thread));
        CHECK(int(row) == int(e.step));
    }
}

TEST_CASE("scene: while a step plays, values travel along their arrows before the results appear") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1000, 640);
    const Scene s = build_scene(t, l, Cursor{1, 0.3f}, v);
    const auto travelling = boxes_of(s, BoxRole::Travelling);
    REQUIRE(travelling.size() == 4);
    for (const SceneBox* b : travelling) {
        const SceneArrow* a = nullptr;
        for (const SceneArrow& x : s.arrows)
            if (x.event == b->event) a = &x;
        REQUIRE(a);
        const float cx = b->x + b->w * 0.5f;
        CHECK(cx < a->x0);
        CHECK(cx > a->x1);
    }
    // The combined values of step 1 are not there yet.
    for (const SceneBox* b : boxes_of(s, BoxRole::Value)) CHECK(t.events[b->event].step == 0);
}

TEST_CASE("scene: an undefined value is marked by pattern and text, not by colour alone") {
    const Trace t = run({{"n", "40"}, {"block", "40"}, {"bug", "full-mask-partial-warp"}});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1400, 900);
    const Scene s = build_scene(t, l, Cursor{render::last_step(l), 1.0f}, v);
    int undefined = 0, defined = 0;
    for (const SceneBox* b : boxes_of(s, BoxRole::Value)) {
        const bool undef = t.events[b->event].flags & kUndefined;
        CHECK((b->pattern == Pattern::Hatched) == undef);
        if (undef) {
            ++undefined;
            const std::string txt = text_in(s, *b);
            CHECK((txt == "?" || txt.empty()));
        } else {
            ++defined;
        }
    }
    CHECK(undefined > 0);
    CHECK(defined > 0);
    CHECK_FALSE(boxes_of(s, BoxRole::Badge).empty());  // hazards carry a "!" badge
    CHECK(has_text(s.overlay_texts, "!"));             // and their rows a "!" in the gutter
    CHECK(render::next_hazard_step(l, 0) == 1);
}

TEST_CASE("scene: identity-filled tail lanes are hollow and dashed, an uninitialised tail is undefined") {
    const Trace ok = run({{"n", "6"}, {"block", "8"}});
    const Layout l = build_layout(ok);
    const Scene s = build_scene(ok, l, Cursor{0, 1.0f}, fit_view(l, 1000, 640));
    int dashed = 0;
    for (const SceneBox* b : boxes_of(s, BoxRole::Value)) {
        const Event& e = ok.events[b->event];
        if (e.kind == EventKind::IdentityFill) {
            ++dashed;
            CHECK(b->pattern == Pattern::Dashed);
            CHECK(text_in(s, *b) == "(0)");
        } else {
            CHECK(b->pattern == Pattern::Solid);
        }
    }
    CHECK(dashed == 2);
    // Under the bug lanes 6-7 never write their register: no box at step 0, and at step 1 (offset 4) lanes
    // 2-3 combine what they read from lanes 6-7, undefined.
    const Trace bad = run({{"n", "6"}, {"block", "8"}, {"bug", "uninit-tail"}});
    const Layout lb = build_layout(bad);
    for (uint32_t step : {0u, 1u}) {
        CAPTURE(step);
        const Scene sb = build_scene(bad, lb, Cursor{step, 1.0f}, fit_view(lb, 1000, 640));
        int hatched = 0;
        for (const SceneBox* b : boxes_of(sb, BoxRole::Value)) {
            hatched += b->pattern == Pattern::Hatched;
            CHECK(b->pattern != Pattern::Dashed);
            if (b->pattern == Pattern::Hatched) CHECK((bad.events[b->event].kind == EventKind::Combine && bad.events[b->event].step == 1));
        }
        CHECK(hatched == (step == 0 ? 0 : 2));
    }
}

TEST_CASE("scene: a shuffle row shows its mask over the warp's lanes") {
    const Trace t = run({{"n", "5"}, {"block", "8"}});
    const Layout l = build_layout(t);
    const Scene s = build_scene(t, l, Cursor{1, 1.0f}, fit_view(l, 1000, 640));
    const auto lanes = boxes_of(s, BoxRole::MaskLane);
    REQUIRE(lanes.size() == 8);
    const uint32_t mask = t.events[lanes[0]->event].aux;
    const Palette& P = palette(true);
    for (size_t i = 0; i < lanes.size(); ++i) CHECK((lanes[i]->fill == P.mask_on) == bool((mask >> i) & 1u));
}

TEST_CASE("scene: clicking a box picks its event, and the cone highlights every input") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    View v = fit_view(l, 1000, 640);
    Scene s = build_scene(t, l, Cursor{4, 1.0f}, v);
    const uint32_t final_store = t.result_event;
    const SceneBox* box = nullptr;
    for (const SceneBox* b : boxes_of(s, BoxRole::Value))
        if (b->event == final_store) box = b;
    REQUIRE(box);
    CHECK(pick(s, box->x + box->w * 0.5f, box->y + box->h * 0.5f) == final_store);
    CHECK(pick(s, 5.0f, 5.0f) == kNoEvent);  // the gutter picks nothing
    std::vector<uint8_t> cone(t.events.size(), 0);
    // The cone of lane 1 after step 1 (2 + 6): its load and lane 5's.
    uint32_t lane1_step1 = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Combine && t.events[i].step == 1 && t.events[i].thread == 1) lane1_step1 = i;
    REQUIRE(lane1_step1 != kNoEvent);
    for (uint32_t e : dependency_cone(t, lane1_step1)) cone[e] = 1;
    v.cone = &cone;
    v.selected = lane1_step1;
    s = build_scene(t, l, Cursor{4, 1.0f}, v);
    const Palette& P = palette(true);
    int highlighted = 0;
    for (const SceneBox* b : boxes_of(s, BoxRole::Value)) {
        if (b->event == lane1_step1) {
            CHECK(b->edge == P.selected);
        } else if (cone[b->event]) {
            CHECK(b->edge == P.cone);
            ++highlighted;
            const Event& e = t.events[b->event];
            CHECK(e.kind == EventKind::Load);
            CHECK((e.thread == 1 || e.thread == 5));
        } else {
            CHECK(b->fill.a < 0.5f);  // everything else steps back
        }
    }
    CHECK(highlighted == 2);
}

TEST_CASE("scene: a million-element trace folds into a screen's worth of items, zoomed out and in") {
    const Trace t = run({{"n", "1048576"}, {"block", "256"}, {"items", "4"}});
    REQUIRE(t.events.size() >= 1000000);
    const Layout l = build_layout(t);
    const View out = fit_view(l, 1280, 720);
    const Scene s = build_scene(t, l, Cursor{render::last_step(l), 1.0f}, out);
    CHECK(s.boxes.size() < 20000);
    CHECK(s.folded_events > 500000);
    uint64_t counted = 0;
    for (const SceneBox* b : boxes_of(s, BoxRole::Folded)) counted += b->count;
    CHECK(counted == s.folded_events);
    const View in = lane_view(l, 1280, 720, 3, 7);
    const Scene si = build_scene(t, l, Cursor{render::last_step(l), 1.0f}, in);
    CHECK(si.boxes.size() < 200);
    CHECK(si.folded_events == 0);
    CHECK_FALSE(boxes_of(si, BoxRole::Value).empty());
}

// Zoomed out, a barrier row holds one mark per warp: 2,048 here, far narrower than a pixel each. They fold into a
// few boxes that span them all (not one box per warp: that grew the scene and the drawing with the trace).
TEST_CASE("scene: folded barrier marks of thousands of warps are a few boxes spanning them all") {
    const Trace t = run({{"n", "65536"}, {"block", "256"}});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1280, 720);
    REQUIRE(v.px_per_col < 0.1);
    const int last = render::last_step(l);
    const Scene s = build_scene(t, l, Cursor{last, 1.0f}, v);
    const auto col_x = [&](double col) { return float(v.gutter() + (col - v.x0) * v.px_per_col); };
    int barrier_rows = 0;
    for (int r = 0; r <= last; ++r) {
        const Row& row = l.rows[size_t(r)];
        if (row.marks.size() < 100) continue;
        ++barrier_rows;
        CAPTURE(r);
        const float y = v.header() + float(r) * v.row_h - v.y0 + v.row_h * 0.38f;
        std::vector<const SceneBox*> boxes;
        for (const SceneBox* b : boxes_of(s, BoxRole::Barrier))
            if (std::abs(b->y - y) < 0.01f) boxes.push_back(b);
        REQUIRE_FALSE(boxes.empty());
        CHECK(boxes.size() <= size_t((v.width - v.gutter()) / 5.0f));  // a screen's worth, whatever the warps
        // Together they span the row's marks: from the first warp's box to past the last warp's start...
        float lo = 1e9f, hi = -1e9f;
        for (const SceneBox* b : boxes) lo = std::min(lo, b->x), hi = std::max(hi, b->x + b->w);
        CHECK(lo == doctest::Approx(col_x(row.marks.front().col0) + 2.0f));
        CHECK(hi >= col_x(row.marks.back().col0) + 2.0f);
        // ...and no further than the last one's box, 2 px inside its columns but at least 2 px wide.
        CHECK(hi <= std::max(col_x(row.marks.back().col0) + 4.0f, col_x(double(row.marks.back().col1) + 1.0) - 2.0f) + 0.01f);
        for (const Mark& m : row.marks) {  // every warp's mark lies in a box
            const float x = col_x(m.col0) + 2.0f;
            CHECK(std::any_of(boxes.begin(), boxes.end(), [&](const SceneBox* b) { return x >= b->x - 0.01f && x <= b->x + b->w + 0.01f; }));
        }
    }
    CHECK(barrier_rows >= 1);
}

// Zoomed in on one lane of block 100 of 256: the masks drawn are that warp's, found among 2,048 by binary search.
TEST_CASE("scene: zoomed in, each shuffle row draws the mask of the warp in view") {
    const Trace t = run({{"n", "65536"}, {"block", "256"}});
    const Layout l = build_layout(t);
    const View v = lane_view(l, 1280, 720, 100, 40);
    const int last = render::last_step(l);
    const Scene s = build_scene(t, l, Cursor{last, 1.0f}, v);
    std::set<uint32_t> rows_with_mask;
    for (const SceneBox* b : boxes_of(s, BoxRole::MaskLane)) {
        const Event& e = t.events[b->event];
        CHECK(e.kind == EventKind::Shuffle);
        CHECK(e.block == 100);
        CHECK(e.warp() == 1);
        rows_with_mask.insert(l.event_row[b->event]);
    }
    for (int r = 0; r <= last; ++r) {
        const Row& row = l.rows[size_t(r)];
        const bool warp_shuffles = std::any_of(row.mask_events.begin(), row.mask_events.end(), [&](uint32_t ev) {
            return t.events[ev].block == 100 && t.events[ev].warp() == 1;
        });
        CAPTURE(r);
        CHECK(rows_with_mask.count(uint32_t(r)) == (warp_shuffles ? 1u : 0u));
    }
    CHECK(rows_with_mask.size() >= 5);  // offsets 16, 8, 4, 2, 1
}

TEST_CASE("scene: zooming keeps the point under the mouse in place") {
    const Trace t = run({{"n", "256"}, {"block", "64"}});
    const Layout l = build_layout(t);
    View v = fit_view(l, 1200, 700);
    const float mx = 700, my = 300;
    const double col_before = v.x0 + (mx - v.gutter()) / v.px_per_col;
    zoom_view(v, l, 2.0f, mx, my);
    const double col_after = v.x0 + (mx - v.gutter()) / v.px_per_col;
    CHECK(col_after == doctest::Approx(col_before).epsilon(1e-9));
}

TEST_CASE("scene: a note (atomic contention) carries no hazard badge, and H does not stop at it") {
    // n = 64 in blocks of 32, one atomic per element: a chain of 64 atomics as long as the input, the cost note at
    // its head, and no hazard. Nothing in the picture is alarming: no badge, no "!" in a gutter, no hazard row.
    const Trace t = run({{"n", "64"}, {"block", "32"}, {"bug", "atomic-per-element"}});
    REQUIRE(t.hazards.empty());
    REQUIRE(t.notes.size() == 1);
    const Layout l = build_layout(t);
    CHECK(l.hazard_rows.empty());
    CHECK(render::next_hazard_step(l, -1) == -1);
    for (int step = 0; step <= render::last_step(l); ++step) {
        const Scene s = build_scene(t, l, Cursor{step, 1.0f}, fit_view(l, 1400, 900));
        CHECK(boxes_of(s, BoxRole::Badge).empty());
        CHECK_FALSE(has_text(s.overlay_texts, "!"));
    }
}

// The classroom multisamples only scenes with edges its shaders do not smooth: arrow heads and hatching.
TEST_CASE("scene: hard edges are arrows and hatched boxes, nothing else") {
    Scene s;
    CHECK_FALSE(has_hard_edges(s));
    s.boxes.push_back(flat_box(0, 0, 10, 10, Color{}, BoxRole::Value));
    for (Pattern p : {Pattern::Solid, Pattern::Dashed, Pattern::Bars, Pattern::Dotted}) {
        s.boxes.back().pattern = p;
        CHECK_FALSE(has_hard_edges(s));
    }
    s.boxes.back().pattern = Pattern::Hatched;
    CHECK(has_hard_edges(s));
    s.boxes.clear();
    s.overlay_boxes.push_back(flat_box(0, 0, 10, 10, Color{}, BoxRole::Value));
    s.overlay_boxes.back().pattern = Pattern::Hatched;
    CHECK(has_hard_edges(s));
    s.overlay_boxes.clear();
    s.arrows.push_back(SceneArrow{0, 0, 10, 10, Color{}});
    CHECK(has_hard_edges(s));
    // The eight-thread example: step 0 loads eight values (boxes only), step 1 shuffles them (four arrows).
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1000, 640);
    CHECK_FALSE(has_hard_edges(build_scene(t, l, Cursor{0, 1.0f}, v)));
    CHECK(has_hard_edges(build_scene(t, l, Cursor{1, 1.0f}, v)));
}
