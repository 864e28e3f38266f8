// tests/gui/test_damage.cpp — the rectangles a frame changed (app/render/damage.h) against frames painted pixel by pixel.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>
#include "app/render/damage.h"

using namespace rl::render;

namespace {

constexpr int W = 64, H = 48;

// An axis-aligned rectangle as the two triangles a front end would draw, its colour in the corners' words.
void add_rect(std::vector<DrawnTriangle>& out, float x0, float y0, float x1, float y1, uint32_t colour, float clip_x1 = W) {
    DrawnTriangle a;
    a.x[0] = x0, a.y[0] = y0, a.x[1] = x1, a.y[1] = y0, a.x[2] = x0, a.y[2] = y1;
    DrawnTriangle b;
    b.x[0] = x1, b.y[0] = y0, b.x[1] = x1, b.y[1] = y1, b.x[2] = x0, b.y[2] = y1;
    for (DrawnTriangle* t : {&a, &b}) {
        for (auto& corner : t->rest) corner[2] = colour;
        t->clip[0] = 0, t->clip[1] = 0, t->clip[2] = clip_x1, t->clip[3] = H;
        out.push_back(*t);
    }
}

// The reference: a plain painter's loop over pixel centres, the last rectangle drawn wins (one rectangle is two
// consecutive triangles with the same colour and box).
std::vector<uint32_t> paint(const DrawnFrame& f) {
    std::vector<uint32_t> px(size_t(W * H), 0);
    for (const std::vector<DrawnTriangle>& list : f)
        for (size_t i = 0; i + 1 < list.size(); i += 2) {
            const DrawnTriangle& t = list[i];
            const float x0 = t.x[0], y0 = t.y[0], x1 = t.x[1], y1 = t.y[2];
            for (int y = 0; y < H; ++y)
                for (int x = 0; x < W; ++x) {
                    const float cx = float(x) + 0.5f, cy = float(y) + 0.5f;
                    if (cx >= x0 && cx < x1 && cy >= y0 && cy < y1 && cx < t.clip[2]) px[size_t(y * W + x)] = t.rest[0][2];
                }
        }
    return px;
}

bool inside_any(const std::vector<DamageRect>& rects, int x, int y) {
    for (const DamageRect& r : rects)
        if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) return true;
    return false;
}

}  // namespace

TEST_CASE("damage: one changed rectangle damages its own box, one pixel wider, and nothing else") {
    DrawnFrame before(1), now(1);
    add_rect(before[0], 0, 0, 64, 48, 1);  // the background
    add_rect(before[0], 10, 10, 20, 30, 2);
    add_rect(before[0], 40, 5, 50, 8, 3);
    now = before;
    for (int k = 2; k < 4; ++k)
        for (auto& c : now[0][size_t(k)].rest) c[2] = 9;  // the second rectangle changes colour
    const std::vector<DamageRect> d = damage(before, now, {0, 0, W, H});
    REQUIRE(d.size() == 1);
    // Hand-derived: the box 10..20 x 10..30 widened by a pixel on each side.
    CHECK(d[0] == DamageRect{9, 9, 21, 31});
    CHECK(damage(before, before, {0, 0, W, H}).empty());
    // A frame with another number of draw lists is damaged whole.
    DrawnFrame two = now;
    two.emplace_back();
    CHECK(damage(before, two, {0, 0, W, H}) == std::vector<DamageRect>{{0, 0, W, H}});
}

TEST_CASE("damage: a rectangle moved damages where it was and where it is, clipped to its clip rectangle") {
    DrawnFrame before(2), now(2);
    add_rect(before[0], 0, 0, 64, 48, 1);
    add_rect(before[1], 2, 2, 6, 6, 5, 30);
    add_rect(now[0], 0, 0, 64, 48, 1);
    add_rect(now[1], 25, 40, 40, 46, 5, 30);  // reaches past its clip rectangle's right edge (30)
    const std::vector<DamageRect> d = damage(before, now, {0, 0, W, H});
    REQUIRE(d.size() == 1);
    CHECK(d[0] == DamageRect{1, 1, 31, 47});  // 2-1 .. clip 30+1, 2-1 .. 46+1
}

TEST_CASE("merge_rects: overlapping rectangles merge; more than the limit merge where it adds fewest pixels") {
    const DamageRect window{0, 0, 100, 100};
    CHECK(merge_rects({{0, 0, 10, 10}, {5, 5, 20, 20}}, window, 6) == std::vector<DamageRect>{{0, 0, 20, 20}});
    CHECK(merge_rects({{-5, -5, 3, 3}, {98, 98, 120, 120}}, window, 6) == std::vector<DamageRect>{{0, 0, 3, 3}, {98, 98, 100, 100}});
    // Three apart, at most two: the two closest (0..10 and 12..20 on one row) merge, the far one stays.
    const std::vector<DamageRect> m = merge_rects({{0, 0, 10, 10}, {12, 0, 20, 10}, {80, 80, 90, 90}}, window, 2);
    CHECK(m == std::vector<DamageRect>{{0, 0, 20, 10}, {80, 80, 90, 90}});
    CHECK(merge_rects({{5, 5, 5, 9}}, window, 6).empty());
}

TEST_CASE("damage: every pixel that differs between two painted frames lies in a damaged rectangle (random edits)") {
    std::mt19937 rng(7);
    auto coord = [&](int n) { return float(std::uniform_int_distribution<int>(0, n)(rng)) + (rng() % 2 ? 0.5f : 0.0f); };
    int differing = 0, outside = 0;
    long long damaged = 0;
    for (int round = 0; round < 300; ++round) {
        DrawnFrame before(3);
        for (auto& list : before) {
            add_rect(list, 0, 0, 0, 0, 0);  // an empty first rectangle, so edits are not always at the start
            for (int k = 0; k < 6; ++k) {
                const float x0 = coord(W - 8), y0 = coord(H - 8);
                add_rect(list, x0, y0, x0 + coord(20) + 1, y0 + coord(16) + 1, uint32_t(rng() % 4 + 1), rng() % 3 ? W : 40);
            }
        }
        DrawnFrame now = before;
        std::vector<DrawnTriangle>& list = now[rng() % 3];
        const size_t r = 1 + rng() % 6;  // a rectangle: its triangles are 2r and 2r + 1
        switch (rng() % 3) {
            case 0:  // recoloured
                for (size_t k : {2 * r, 2 * r + 1})
                    for (auto& c : list[k].rest) c[2] = uint32_t(rng() % 4 + 1);
                break;
            case 1:  // removed
                list.erase(list.begin() + long(2 * r), list.begin() + long(2 * r + 2));
                break;
            default: {  // another one put before it
                std::vector<DrawnTriangle> one;
                const float x0 = coord(W - 8), y0 = coord(H - 8);
                add_rect(one, x0, y0, x0 + coord(20) + 1, y0 + coord(16) + 1, uint32_t(rng() % 4 + 1));
                list.insert(list.begin() + long(2 * r), one.begin(), one.end());
            }
        }
        const std::vector<DamageRect> d = damage(before, now, {0, 0, W, H});
        const std::vector<uint32_t> a = paint(before), b = paint(now);
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x)
                if (a[size_t(y * W + x)] != b[size_t(y * W + x)]) {
                    ++differing;
                    outside += !inside_any(d, x, y);
                }
        for (const DamageRect& rect : d) damaged += rect.area();
    }
    CHECK(differing > 1000);  // the edits did change pixels
    CHECK(outside == 0);
    CHECK(damaged < 300LL * W * H / 2);  // and the damage is not simply the whole window
}

TEST_CASE("scene_damage: per pass; a box reaches one pixel past its rectangle, a glyph its quad, an arrow its head") {
    DrawnInstance clear;
    clear.kind = InstanceKind::Clear, clear.x = 100, clear.y = 50, clear.clip = {100, 50, 300, 250};
    DrawnInstance box;
    box.kind = InstanceKind::Box, box.pass = 1, box.x = 100, box.y = 50, box.clip = clear.clip;
    box.data[0] = 5, box.data[1] = 6, box.data[2] = 10, box.data[3] = 4;  // x, y, w, h in canvas pixels
    DrawnInstance row = box;
    row.data[1] = 100;
    DrawnInstance glyph = box;
    glyph.kind = InstanceKind::Glyph, glyph.pass = 2;
    glyph.data[0] = 20, glyph.data[1] = 20, glyph.data[2] = 3.5f, glyph.data[3] = 7;
    DrawnInstance arrow = box;
    arrow.kind = InstanceKind::Arrow, arrow.pass = 3;
    arrow.data[0] = 0, arrow.data[1] = 0, arrow.data[2] = 40, arrow.data[3] = 0, arrow.data[8] = 2, arrow.data[9] = 8;
    // box: 105-1-1 .. 115+1+1, 56-1-1 .. 60+1+1 (the quad's smoothing pixel, then the rounding pixel)
    CHECK(covered(box) == DamageRect{103, 54, 117, 62});
    CHECK(covered(glyph) == DamageRect{119, 69, 125, 78});  // 120-1 .. ceil(123.5)+1
    // arrow: head half width max(8 * 0.55, 2 * 1.5) = 4.4 beyond the line, clipped at the canvas's corner
    CHECK(covered(arrow) == DamageRect{100, 50, 146, 56});
    CHECK(covered(clear) == clear.clip);

    const std::vector<DrawnInstance> before{clear, box, row, glyph}, now_same{clear, box, row, glyph};
    CHECK(scene_damage(before, now_same).empty());
    DrawnInstance moved = box;
    moved.data[0] = 50;
    DrawnInstance other_glyph = glyph;
    other_glyph.data[4] = 0.25f;  // another letter: its atlas coordinates
    const std::vector<DrawnInstance> now{clear, moved, row, other_glyph};
    // The box (pass 1) and the glyph (pass 2) changed: the row between them in pass 1's order stays out.
    CHECK(scene_damage(before, now) == std::vector<DamageRect>{{103, 54, 162, 62}, {119, 69, 125, 78}});
}
