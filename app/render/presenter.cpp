// app/render/presenter.cpp — the presenter's view (zoomed and panned to the step) and its minimum text size.
#include "app/render/presenter.h"

#include <algorithm>

namespace rl::render {

View presenter_view(const Layout& l, float width, float height, float font_scale, int step) {
    const float fs = std::max(font_scale, kPresenterFontScale);
    View v = fit_view(l, width, height, fs);
    // Lane labels are min(13 fs, 0.4 px_per_col) and row labels grow with the row: keep both at full size.
    v.px_per_col = std::max(v.px_per_col, 60.0 * fs);
    v.row_h = std::max(v.row_h, 60.0f * fs);
    const double visible_cols = std::max(1.0, (width - v.gutter()) / v.px_per_col);
    const double columns = double(l.columns);
    if (step >= 0 && size_t(step) < l.rows.size() && !l.rows[size_t(step)].cells.empty()) {
        const auto& cells = l.rows[size_t(step)].cells;  // sorted by column
        const double first = cells.front().col, last = cells.back().col + 1.0;
        const double span = last - first;
        const double x0 = span <= visible_cols ? first - (visible_cols - span) / 2 : first;
        v.x0 = std::clamp(x0, 0.0, std::max(0.0, columns - visible_cols));
    }
    const float lanes_h = std::max(1.0f, height - v.header());
    const float total = float(l.rows.size()) * v.row_h;
    const float want = float(std::max(step, 0) + 1) * v.row_h - lanes_h * 0.8f;  // the step's row near the bottom
    v.y0 = std::clamp(want, 0.0f, std::max(0.0f, total - lanes_h));
    return v;
}

void drop_small_texts(Scene& s, float min_px) {
    auto small = [min_px](const SceneText& t) { return t.size < min_px; };
    std::erase_if(s.texts, small);
    std::erase_if(s.overlay_texts, small);
}

}  // namespace rl::render
