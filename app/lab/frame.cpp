// app/lab/frame.cpp — fit, zoom, pan and the scene of one frame, for the lab bench, the classroom and `rlab render`.
#include "app/lab/frame.h"

#include <algorithm>
#include <chrono>
#include "app/render/presenter.h"

namespace rl::lab {

render::View fitted_view(const LabState& s, float w, float h, float font_scale) {
    if (s.time_view) return render::fit_time_view(s.time_layout, w, h, font_scale, s.time_from, s.time_to);
    return s.zoom == "lane" ? render::lane_view(s.layout, w, h, 0, 0, font_scale) : render::fit_view(s.layout, w, h, font_scale);
}

render::Scene build_frame(const LabState& s, const render::View& v) {
    return s.time_view ? render::build_time_scene(s.trace, s.time_layout, s.cursor, v)
                       : render::build_scene(s.trace, s.layout, s.cursor, v);
}

std::string shown_scene_bytes(const LabState& s) {
    std::string b(reinterpret_cast<const char*>(&s.scene_builds), sizeof s.scene_builds);
    b += s.dark ? 'd' : 'l';
    return b;
}

const render::Scene& frame_scene(LabState& s, float w, float h) {
    const bool follow = s.presenter && !s.time_view;
    if (follow) {
        s.view = render::presenter_view(s.layout, w, h, s.font_scale, s.cursor.step);  // every frame: it follows the step
        s.view_fitted = false;  // leaving presenter mode fits again
    } else if (!s.view_fitted) {
        s.view = fitted_view(s, w, h, s.presenter ? std::max(s.font_scale, render::kPresenterFontScale) : s.font_scale);
        s.view_fitted = true;
    }
    s.view.width = w;
    s.view.height = h;
    if (!follow) s.view.font_scale = s.presenter ? std::max(s.font_scale, render::kPresenterFontScale) : s.font_scale;
    s.view.dark = s.dark;
    s.view.selected = s.selected;
    s.view.cone = s.cone.empty() ? nullptr : &s.cone;
    s.view.marked = s.line_marks.size() == s.trace.events.size() ? &s.line_marks : nullptr;
    // The scene is a pure function of the key: a frame that changed none of it draws the scene kept. Building is
    // bounded by the screen (rows and columns in view, folded), but even so it is work an idle canvas need not do.
    SceneKey key{s.shown_version, s.time_view, s.presenter, s.cursor, s.view};
    if (s.scene_key && *s.scene_key == key) return s.last_scene;
    const auto t0 = std::chrono::steady_clock::now();
    s.last_scene = build_frame(s, s.view);
    if (s.presenter) render::drop_small_texts(s.last_scene, render::kPresenterMinTextPx);
    s.scene_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    s.scene_key = std::move(key);
    ++s.scene_builds;
    return s.last_scene;
}

void zoom(LabState& s, float factor, float x, float y) {
    if (s.time_view)
        render::zoom_time_view(s.view, s.time_layout, factor, x, y);
    else
        render::zoom_view(s.view, s.layout, factor, x, y);
}

void pan(LabState& s, float dx, float dy) {
    s.view.x0 -= dx / s.view.px_per_col;
    s.view.y0 = std::max(0.0f, s.view.y0 - dy);
}

}  // namespace rl::lab
