// app/render/damage.cpp — the triangles two frames share at each draw list's ends, and the rectangles of the rest.
#include "app/render/damage.h"

#include <algorithm>
#include <cmath>

namespace rl::render {

DamageRect intersect(const DamageRect& a, const DamageRect& b) {
    return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

DamageRect unite(const DamageRect& a, const DamageRect& b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

namespace {
// A pixel is drawn when its centre is inside; one pixel more on each side also covers any rounding of the rasteriser.
// Anything not finite reaches the window's edge (and the clip then bounds it).
int lo(float v) { return std::isfinite(v) ? int(std::floor(std::max(v, -1e8f))) - 1 : -100000000; }
int hi(float v) { return std::isfinite(v) ? int(std::ceil(std::min(v, 1e8f))) + 1 : 100000000; }
}  // namespace

DamageRect covered(const DrawnTriangle& t) {
    const float x0 = std::min({t.x[0], t.x[1], t.x[2]}), x1 = std::max({t.x[0], t.x[1], t.x[2]});
    const float y0 = std::min({t.y[0], t.y[1], t.y[2]}), y1 = std::max({t.y[0], t.y[1], t.y[2]});
    // The clip rectangle is the scissor, rounded as the front end rounds it: widened, it bounds that too.
    const DamageRect clip{lo(t.clip[0]), lo(t.clip[1]), hi(t.clip[2]), hi(t.clip[3])};
    return intersect({lo(x0), lo(y0), hi(x1), hi(y1)}, clip);
}

DamageRect covered(const DrawnInstance& i) {
    const float* d = i.data;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    switch (i.kind) {
        case InstanceKind::Clear: return i.clip;
        case InstanceKind::Box:  // rect x, y, w, h: the quad reaches one pixel beyond it for the smoothed edge
            x0 = d[0] - 1, y0 = d[1] - 1, x1 = d[0] + d[2] + 1, y1 = d[1] + d[3] + 1;
            break;
        case InstanceKind::Arrow: {  // line x0, y0, x1, y1, colour, shaft width, head length
            const float shaft = d[8] * 0.5f + 1.0f, head = std::max(d[9] * 0.55f, d[8] * 1.5f);
            const float r = std::max(shaft, head);
            x0 = std::min(d[0], d[2]) - r, y0 = std::min(d[1], d[3]) - r, x1 = std::max(d[0], d[2]) + r, y1 = std::max(d[1], d[3]) + r;
            break;
        }
        case InstanceKind::Glyph:  // rect x, y, w, h
            x0 = d[0], y0 = d[1], x1 = d[0] + d[2], y1 = d[1] + d[3];
            break;
    }
    const DamageRect box{lo(x0 + float(i.x)), lo(y0 + float(i.y)), hi(x1 + float(i.x)), hi(y1 + float(i.y))};
    return intersect(box, i.clip);
}

std::vector<DamageRect> merge_rects(std::vector<DamageRect> rects, const DamageRect& window, int max_rects) {
    std::vector<DamageRect> out;
    for (const DamageRect& r : rects)
        if (DamageRect c = intersect(r, window); !c.empty()) out.push_back(c);
    max_rects = std::max(1, max_rects);
    for (bool merged = true; merged;) {
        merged = false;
        for (size_t i = 0; i < out.size() && !merged; ++i)
            for (size_t j = i + 1; j < out.size() && !merged; ++j)
                if (!intersect(out[i], out[j]).empty()) {
                    out[i] = unite(out[i], out[j]);
                    out.erase(out.begin() + long(j));
                    merged = true;
                }
        if (!merged && int(out.size()) > max_rects) {
            size_t bi = 0, bj = 1;
            long long best = -1;
            for (size_t i = 0; i < out.size(); ++i)
                for (size_t j = i + 1; j < out.size(); ++j)
                    if (long long grow = unite(out[i], out[j]).area() - out[i].area() - out[j].area(); best < 0 || grow < best)
                        best = grow, bi = i, bj = j;
            out[bi] = unite(out[bi], out[bj]);
            out.erase(out.begin() + long(bj));
            merged = true;
        }
    }
    return out;
}

std::vector<DamageRect> scene_damage(const std::vector<DrawnInstance>& before, const std::vector<DrawnInstance>& now) {
    // Passes are drawn one after another in the order of their numbers, so each pass's items compared alone keep
    // the argument of changed_span: outside the rectangles, every pixel is covered by the same items in the same order.
    std::vector<std::vector<DrawnInstance>> a, b;
    for (const DrawnInstance& i : before) {
        if (a.size() <= i.pass) a.resize(size_t(i.pass) + 1);
        a[i.pass].push_back(i);
    }
    for (const DrawnInstance& i : now) {
        if (b.size() <= i.pass) b.resize(size_t(i.pass) + 1);
        b[i.pass].push_back(i);
    }
    a.resize(std::max(a.size(), b.size())), b.resize(a.size());
    std::vector<DamageRect> rects;
    for (size_t p = 0; p < a.size(); ++p)
        if (DamageRect r = changed_span(a[p], b[p]); !r.empty()) rects.push_back(r);
    return rects;
}

std::vector<DamageRect> damage(const DrawnFrame& before, const DrawnFrame& now, const DamageRect& window, int max_rects) {
    if (before.size() != now.size()) return {window};
    std::vector<DamageRect> rects;
    for (size_t l = 0; l < now.size(); ++l)
        if (DamageRect r = changed_span(before[l], now[l]); !r.empty()) rects.push_back(r);
    return merge_rects(std::move(rects), window, max_rects);
}

}  // namespace rl::render
