// tests/support/line_marks.h — which events a scene draws (value boxes, arrows) and which of them in the line-mark
// colour (the source line clicked): the lab and the Qt source-panel tests read scenes the same way. Header-only.
#pragma once
#include <cstdint>
#include <set>
#include "app/render/scene.h"

namespace rl::test {

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
