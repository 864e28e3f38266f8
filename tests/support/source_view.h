// tests/support/source_view.h — what the lab and the Qt source-panel tests share: a two-warp schedule, and which
// events a scene draws (value boxes, arrows) and which of them in the line-mark colour. Header-only.
#pragma once
#include <cstdint>
#include <set>
#include "app/render/scene.h"
#include "core/schedule.h"

namespace rl::test {

// 40 elements in a block of 64: two warps, a partial one; loads, shuffles, shared-memory partials, a barrier.
inline Schedule two_warps(uint16_t bugs = 0) {
    Schedule sch;
    sch.n = 40;
    sch.block = 64;
    sch.bugs = bugs;
    return sch;
}

inline void line_marked_events(const render::Scene& sc, bool dark, std::set<uint32_t>& marked, std::set<uint32_t>& drawn) {
    const render::Color m = render::palette(dark).line_mark;
    const auto is_mark = [&](const render::Color& c) { return c.r == m.r && c.g == m.g && c.b == m.b; };
    for (const render::SceneBox& b : sc.boxes)
        if (b.role == render::BoxRole::Value && b.event != kNoEvent) {
            drawn.insert(b.event);
            if (is_mark(b.edge)) marked.insert(b.event);
        }
    for (const render::SceneArrow& a : sc.arrows)  // shuffles are drawn as arrows
        if (a.event != kNoEvent) {
            drawn.insert(a.event);
            if (is_mark(a.color)) marked.insert(a.event);
        }
}

}  // namespace rl::test
