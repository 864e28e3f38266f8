// tests/gui/test_pixels.cpp — drawn pixels match the scene: boxes where it says, in its colours and patterns; the kept frame.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include "app/render/offscreen.h"
#include "app/render/renderer.h"
#include "app/render/retained_frame.h"
#include "app/render/scene.h"
#include "core/emulator.h"
#include "../support/helpers.h"

using namespace rl;
using rl::test::run;
using namespace rl::render;

namespace {

struct Image {
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    Color at(float x, float y) const {
        const int xi = int(x), yi = int(y);
        const uint8_t* p = &px[(size_t(yi) * size_t(w) + size_t(xi)) * 4];
        return {p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f, p[3] / 255.0f};
    }
};

bool near(const Color& a, const Color& b, float tol = 3.0f / 255.0f) {
    return std::fabs(a.r - b.r) <= tol && std::fabs(a.g - b.g) <= tol && std::fabs(a.b - b.b) <= tol;
}

Offscreen& context() {
    static Offscreen off;
    static bool ok = [] {
        std::string err;
        const bool created = off.create(1000, 640, &err);
        if (!created) MESSAGE(err);
        return created;
    }();
    REQUIRE(ok);
    return off;
}

Image draw(const Scene& s) {
    Image img;
    img.w = int(s.width);
    img.h = int(s.height);
    img.px = context().render(s);
    REQUIRE(img.px.size() == size_t(img.w) * size_t(img.h) * 4);
    return img;
}

}  // namespace

TEST_CASE("pixels: value boxes are drawn where the scene puts them, in the value colour") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    const View v = fit_view(l, 1000, 640);
    const Scene s = build_scene(t, l, Cursor{4, 1.0f}, v);
    const Image img = draw(s);
    const Palette& P = palette(true);
    int checked = 0;
    for (const SceneBox& b : s.boxes) {
        if (b.role != BoxRole::Value) continue;
        // Left of the centred label, inside the border: pure fill.
        CHECK(near(img.at(b.x + 5, b.y + b.h * 0.5f), b.fill));
        ++checked;
    }
    CHECK(checked == 16);
    // The final store is green, the loads blue.
    int result_boxes = 0;  // the loops below check the result's box: it must be there to be checked
    for (const SceneBox& b : s.boxes)
        if (b.role == BoxRole::Value && b.event == t.result_event) {
            CHECK(near(img.at(b.x + 5, b.y + b.h * 0.5f), P.partial));
            ++result_boxes;
        }
    CHECK(result_boxes == 1);
    // Lane 7 after step 1 holds no value: background (and no box).
    const float x7 = float(v.gutter() + (7.5 - v.x0) * v.px_per_col), y1 = v.header() + 1.55f * v.row_h;
    CHECK(near(img.at(x7, y1), P.background));
    // The label "36" puts light pixels in the middle of its box.
    for (const SceneBox& b : s.boxes) {
        if (b.role != BoxRole::Value || b.event != t.result_event) continue;
        int light = 0;
        for (float x = b.x + b.w * 0.3f; x < b.x + b.w * 0.7f; x += 1)
            light += img.at(x, b.y + b.h * 0.5f).g > 0.9f;
        CHECK(light > 2);
    }
}

TEST_CASE("pixels: undefined values are hatched, identity lanes hollow, in the light theme too") {
    for (bool dark : {true, false}) {
        CAPTURE(dark);
        // lanes 6-7 never write their register; at step 1 lanes 2-3 combine what they read from them
        const Trace t = run({{"n", "6"}, {"block", "8"}, {"bug", "uninit-tail"}});
        const Layout l = build_layout(t);
        View v = fit_view(l, 1000, 640);
        v.dark = dark;
        const Scene s = build_scene(t, l, Cursor{1, 1.0f}, v);
        const Image img = draw(s);
        const Palette& P = palette(dark);
        CHECK(near(img.at(v.width - 3, v.height - 3), P.background));
        int hatched = 0;
        for (const SceneBox& b : s.boxes) {
            if (b.role != BoxRole::Value || b.pattern != Pattern::Hatched) continue;
            // Along a row of the box both the stripe colour and the darker stripe appear.
            int full = 0, dim = 0;
            for (float x = b.x + 4; x < b.x + b.w - 4; x += 1) {
                const Color c = img.at(x, b.y + 6);
                full += near(c, P.undefined, 4.0f / 255);
                dim += c.r < P.undefined.r - 0.2f;
            }
            CHECK(full > 3);
            CHECK(dim > 3);
            ++hatched;
        }
        CHECK(hatched == 2);
    }
    const Trace t = run({{"n", "6"}, {"block", "8"}});
    const Layout l = build_layout(t);
    const Scene s = build_scene(t, l, Cursor{0, 1.0f}, fit_view(l, 1000, 640));
    const Image img = draw(s);
    const Palette& P = palette(true);
    int dashed = 0;
    for (const SceneBox& b : s.boxes) {
        if (b.role != BoxRole::Value || b.pattern != Pattern::Dashed) continue;
        ++dashed;
        CHECK(near(img.at(b.x + 6, b.y + b.h * 0.5f), P.background));  // hollow inside
        int edge = 0, gap = 0;
        for (float x = b.x + 8; x < b.x + b.w - 8; x += 1) {
            const Color c = img.at(x, b.y + 1.2f);  // inside the 2-pixel border
            edge += near(c, P.identity_edge, 24.0f / 255);
            gap += near(c, P.background, 24.0f / 255);
        }
        CHECK(edge > 3);  // dashes
        CHECK(gap > 3);   // and gaps between them
    }
    CHECK(dashed >= 2);  // threads 6 and 7 have no element: at least their identity fills were checked
}

TEST_CASE("pixels: shuffle arrows are drawn in the arrow colour between the rows") {
    const Trace t = emulate(Schedule{});
    const Layout l = build_layout(t);
    const Scene s = build_scene(t, l, Cursor{1, 1.0f}, fit_view(l, 1000, 640));
    const Image img = draw(s);
    const Palette& P = palette(true);
    REQUIRE(s.arrows.size() == 4);
    for (const SceneArrow& a : s.arrows) {
        // A point a third of the way along the shaft.
        const float x = a.x0 + (a.x1 - a.x0) * 0.3f, y = a.y0 + (a.y1 - a.y0) * 0.3f;
        bool found = false;
        for (int dy = -1; dy <= 1 && !found; ++dy) found = near(img.at(x, y + float(dy)), P.arrow, 40.0f / 255);
        CHECK(found);
    }
}

// The classroom's kept canvas (app/render/retained_frame.h): drawn once, read back top row first, stale only when
// its size or content bytes change, and a multisampled drawing resolved into the same picture.
TEST_CASE("pixels: a retained frame keeps what was drawn and says when it is stale") {
    Renderer& r = context().renderer();
    const Color bg{0.0f, 0.0f, 1.0f, 1.0f}, red{1.0f, 0.0f, 0.0f, 1.0f};
    Scene s;  // 64x32, blue, with a red box of 16x8 px near the top-left corner (rows 2 to 9)
    s.width = 64, s.height = 32, s.background = bg;
    SceneBox b = flat_box(4, 2, 16, 8, red, BoxRole::Value);
    b.radius = 0, b.edge = red;
    s.boxes.push_back(b);
    for (int samples : {0, 4}) {
        CAPTURE(samples);
        RetainedFrame kept;
        CHECK(kept.stale(64, 32, "a"));  // nothing kept yet
        REQUIRE(kept.begin_redraw(64, 32, samples, "a"));
        r.begin_frame(64, 32, bg);
        r.draw(s, 0, 0, 64, 32);
        kept.end_redraw();
        CHECK(kept.redraws() == 1);
        CHECK_FALSE(kept.stale(64, 32, "a"));
        CHECK(kept.stale(64, 32, "b"));
        CHECK(kept.stale(65, 32, "a"));
        CHECK(kept.stale(64, 31, "a"));
        Image img{64, 32, kept.read_rgba()};
        REQUIRE(img.px.size() == 64u * 32u * 4u);
        // Row 0 is the top: a read upside down would put the box in rows 22 to 29 (blue at (12, 5), red at (12, 26)).
        CHECK(near(img.at(12, 5), red));
        CHECK(near(img.at(40, 5), bg));
        CHECK(near(img.at(12, 26), bg));
        CHECK(near(img.at(1, 1), bg));
        CHECK(img.at(12, 5).a > 0.99f);
        // The same picture as 0xAARRGGBB words (the classroom's QImage layout), into rows wider than the picture.
        const size_t stride = 64 * 4 + 16;
        std::vector<uint8_t> words(stride * 32, 0);
        kept.read_argb32(words.data(), stride);
        const auto word = [&](int x, int y) {
            uint32_t v = 0;
            std::memcpy(&v, words.data() + size_t(y) * stride + size_t(x) * 4, 4);
            return v;
        };
        CHECK(word(12, 5) == 0xFFFF0000u);   // opaque red, top rows
        CHECK(word(12, 26) == 0xFF0000FFu);  // opaque blue, bottom rows
        CHECK(word(63, 31) == 0xFF0000FFu);
        CHECK(words[64 * 4] == 0);           // the padding past each row is left alone
        kept.release();
        CHECK(kept.stale(64, 32, "a"));  // released: nothing kept
    }
}
