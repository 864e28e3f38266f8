// app/render/time_scene.cpp — builds the time view's rows (one per warp) and its scene from the GPU timestamps.
#include "app/render/time_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>

namespace rl::render {

std::string time_view_unavailable(const Trace& t) {
    if (t.times.empty() || t.times.size() != t.events.size())
        return "time view needs a GPU trace (emulator traces have no timestamps)";
    return "";
}

TimeLayout build_time_layout(const Trace& t) {
    TimeLayout l;
    if (!time_view_unavailable(t).empty()) return l;
    l.grid = t.grid;
    // clock64 counts cycles of one SM; a block never leaves its SM, so within a block clocks compare exactly.
    // Across blocks they do not (each SM has its own counter), so each block's zero is its own first event.
    std::map<uint32_t, uint64_t> block_start;
    std::map<std::pair<uint32_t, uint32_t>, size_t> row_of;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        auto [it, fresh] = block_start.try_emplace(e.block, t.times[i].clock);
        if (!fresh) it->second = std::min(it->second, t.times[i].clock);
        row_of.try_emplace({e.block, e.warp()}, 0);
    }
    for (auto& [key, idx] : row_of) {
        idx = l.rows.size();
        l.rows.push_back({});
        l.rows.back().block = key.first;
        l.rows.back().warp = key.second;
        if (key.first >= t.grid) l.second_launch = true;
    }
    for (uint32_t i = 0; i < t.events.size(); ++i)
        l.rows[row_of[{t.events[i].block, t.events[i].warp()}]].events.push_back(i);
    const auto rel = [&](uint32_t ev) { return double(t.times[ev].clock - block_start[t.events[ev].block]); };
    for (TimeRow& r : l.rows) {
        std::stable_sort(r.events.begin(), r.events.end(), [&](uint32_t a, uint32_t b) { return t.times[a].clock < t.times[b].clock; });
        r.at.reserve(r.events.size());
        for (uint32_t ev : r.events) r.at.push_back(rel(ev)), l.span = std::max(l.span, r.at.back());
    }
    // Barriers: per (block, step), the last arrival releases everybody; earlier arrivals wait for it.
    struct Release {
        double at = -1;
        uint32_t warp = 0;
    };
    std::map<std::pair<uint32_t, uint16_t>, Release> release;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.kind != EventKind::Barrier) continue;
        Release& rl = release[{e.block, e.step}];
        if (rel(i) > rl.at) rl.at = rel(i), rl.warp = e.warp();
    }
    for (TimeRow& r : l.rows) {
        for (size_t k = 0; k < r.events.size(); ++k) {
            const Event& e = t.events[r.events[k]];
            if (e.kind != EventKind::Barrier) continue;
            const Release& rl = release[{e.block, e.step}];
            // The wait ends at the warp's first event after the barrier; a warp with nothing left waits for the release.
            double to = rl.at;
            for (size_t j = k + 1; j < r.events.size(); ++j)
                if (t.events[r.events[j]].step > e.step) {
                    to = r.at[j];
                    break;
                }
            r.waits.push_back({r.events[k], r.at[k], std::max(to, r.at[k]), rl.at, rl.warp});
            r.waited += std::max(0.0, rl.at - r.at[k]);
        }
    }
    return l;
}

float time_x(const View& v, double cycles) { return float(v.gutter() + (cycles - v.x0) * v.px_per_col); }

View fit_time_view(const TimeLayout& l, float width, float height, float font_scale, double from, double to) {
    View v;
    v.width = width;
    v.height = height;
    v.font_scale = font_scale;
    const float lanes_w = std::max(40.0f, width - v.gutter() - 24.0f * font_scale);
    const float lanes_h = std::max(40.0f, height - v.header() - 8.0f * font_scale);
    v.x0 = -0.01 * l.span;  // a little room so marks at zero are not cut by the gutter
    v.px_per_col = lanes_w / (l.span * 1.02);
    if (to > from) {
        v.x0 = from;
        v.px_per_col = lanes_w / (to - from);
    }
    const float rows = float(std::max<size_t>(1, l.rows.size())) + (l.second_launch ? 0.5f : 0.0f);
    v.row_h = std::clamp(lanes_h / rows, 14.0f * font_scale, 90.0f * font_scale);
    v.y0 = 0;
    return v;
}

void zoom_time_view(View& v, const TimeLayout& l, float factor, float sx, float sy) {
    // at most 40 px per cycle: single instructions apart
    zoom_about(v, factor, sx, sy, (v.width - v.gutter()) / (l.span * 1.5), 40.0);
}

namespace {

Color kind_color(const Palette& P, EventKind k) {
    switch (k) {
        case EventKind::SharedStore: case EventKind::SharedLoad: return P.store;
        case EventKind::BlockPartial: case EventKind::FinalStore: case EventKind::PartialLoad: return P.partial;
        case EventKind::Atomic: case EventKind::Ticket: return P.atomic;
        case EventKind::Barrier: case EventKind::GridSync: return P.text;
        case EventKind::WarpSync: return P.mask_on;
        default: return P.value;
    }
}

// Tick spacing of 1, 2 or 5 times a power of ten, at least min_px apart on screen.
constexpr int kMaxTicks = 512;  // more than any screen shows at 90 px apart

double nice_step(double px_per_unit, double min_px) {
    const double raw = min_px / std::max(px_per_unit, 1e-300);  // no floor: a huge window gets a huge step
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return m * p;
    return 10.0 * p;
}

std::string cycles_text(double c) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.0f", c);  // whole cycles: "14500", never two ticks rounded to the same "14k"
    return buf;
}

}  // namespace

Scene build_time_scene(const Trace& t, const TimeLayout& l, const Cursor& c, const View& v) {
    Scene s = empty_scene(v);
    const Palette& P = palette(v.dark);
    const float fs = v.font_scale, g = v.gutter(), top = v.header();
    const double t_lo = v.x0 - 8.0 / v.px_per_col, t_hi = v.x0 + (v.width - g) / v.px_per_col;
    const auto in_cone = [&](uint32_t ev) { return !v.cone || (ev < v.cone->size() && (*v.cone)[ev]); };
    // Rows of the second launch sit half a row lower, so the two launches read as separate timelines.
    std::vector<float> row_top(l.rows.size());
    for (size_t i = 0; i < l.rows.size(); ++i)
        row_top[i] = top + (float(i) + (l.rows[i].block >= l.grid && l.second_launch ? 0.5f : 0.0f)) * v.row_h - v.y0;

    // Block bands (alternating) and separators, and the current step's time span per block.
    for (size_t i = 0; i < l.rows.size(); ++i) {
        const TimeRow& r = l.rows[i];
        const float y = row_top[i];
        if (y > v.height || y + v.row_h < top) continue;
        if (r.block % 2 == 1)
            s.boxes.push_back(flat_box(g, y, v.width - g, v.row_h, P.warp_band, BoxRole::WarpBand, 0));
        if (i > 0 && l.rows[i - 1].block != r.block)
            s.boxes.push_back(flat_box(g, y - 1.0f, v.width - g, 2.0f, P.grid_line, BoxRole::WarpBand, 0));
        double lo = 1e300, hi = -1e300;
        for (size_t k = 0; k < r.events.size(); ++k)
            if (t.events[r.events[k]].step == c.step) lo = std::min(lo, r.at[k]), hi = std::max(hi, r.at[k]);
        if (lo <= hi) {
            const float x0 = time_x(v, lo) - 4.0f * fs, x1 = time_x(v, hi) + 4.0f * fs;
            s.boxes.push_back({x0, y + 1.0f, x1 - x0, v.row_h - 2.0f, P.row_current, P.row_current, 0, 2.0f, Pattern::Solid,
                               BoxRole::RowHighlight, 0, kNoEvent, 1});
        }
    }
    // Vertical time grid.
    const double tick = nice_step(v.px_per_col, 90.0 * fs);
    // At most a screen's worth of ticks, even where x + tick == x (a step below x's precision).
    int ticks = 0;
    for (double x = std::ceil(std::max(0.0, t_lo) / tick) * tick; x <= t_hi && ticks < kMaxTicks; x += tick, ++ticks)
        s.boxes.push_back(flat_box(time_x(v, x), top, 1.0f, v.height - top, P.grid_line, BoxRole::WarpBand, 0));

    const float lane_ts = std::min(14.0f * fs, v.row_h * 0.3f);
    for (size_t i = 0; i < l.rows.size(); ++i) {
        const TimeRow& r = l.rows[i];
        const float y = row_top[i];
        if (y > v.height || y + v.row_h < top) continue;
        // Waits first (under the marks): a striped bar from the arrival to the warp's next event.
        for (const TimeWait& w : r.waits) {
            if (w.to < t_lo || w.from > t_hi) continue;
            const Event& e = t.events[w.event];
            const bool last = w.release <= w.from;  // this warp released the others
            const float x0 = time_x(v, w.from), x1 = std::max(time_x(v, w.to), x0 + 3.0f);
            Color fill = P.barrier, edge = P.barrier;
            if (e.step > c.step) fill.a *= 0.3f, edge.a *= 0.3f;
            if (e.step == c.step) edge = P.cone;
            if (!in_cone(w.event)) fill.a *= 0.3f;
            s.boxes.push_back({x0, y + v.row_h * 0.32f, x1 - x0, v.row_h * 0.36f, fill, edge, e.step == c.step ? 2.0f : 1.0f,
                               2.0f, Pattern::Bars, BoxRole::Wait, 0, w.event, 1});
            const std::string label = last ? "last in" : "waits for warp " + std::to_string(w.last_warp);
            const float lw = float(label.size()) * 0.6f * lane_ts + 8.0f;
            if (lane_ts >= 8.0f && (x1 - x0 >= lw || (last && x1 - x0 >= 0))) {
                // Labels sit in a plate above the bar: stripes under text would make it unreadable on a projector.
                const float lx = last ? x1 + 4.0f * fs : x0 + 2.0f * fs;
                Color back = P.background, tc = last ? P.text_dim : P.text;
                if (e.step > c.step) back.a *= 0.5f, tc.a *= 0.5f;
                if (!last) {
                    s.boxes.push_back({lx, y + v.row_h * 0.5f - lane_ts * 0.62f, lw, lane_ts * 1.24f, back, back, 0, 3.0f,
                                       Pattern::Solid, BoxRole::LabelBack, 1, kNoEvent, 1});
                    s.texts.push_back({lx + 4.0f, y + v.row_h * 0.5f, lane_ts, tc, label, Align::Left, w.event});
                }
            }
        }
        // Events: a thin mark each at its time; barrier arrivals taller, so the start of a wait is unmistakable.
        const size_t k0 = size_t(std::lower_bound(r.at.begin(), r.at.end(), t_lo) - r.at.begin());
        const float mw = std::max(2.0f, 3.0f * fs);
        for (size_t k = k0; k < r.events.size() && r.at[k] <= t_hi; ++k) {
            const uint32_t ev = r.events[k];
            const Event& e = t.events[ev];
            const bool bar = e.kind == EventKind::Barrier || e.kind == EventKind::GridSync;
            const bool cur = e.step == c.step;
            float h = v.row_h * (bar ? 0.8f : 0.5f), w = bar ? mw * 1.5f : mw;
            if (cur) h = std::min(v.row_h * 0.9f, h * 1.3f), w *= 1.5f;
            SceneBox b{time_x(v, r.at[k]) - w * 0.5f, y + (v.row_h - h) * 0.5f, w, h, kind_color(P, e.kind),
                       kind_color(P, e.kind), 0.0f, 0.0f, Pattern::Solid, BoxRole::TimeMark, 1, ev, 1};
            if (e.flags & kUndefined) b.fill = b.edge = P.undefined;
            if (e.flags & kHazard) b.edge = P.hazard, b.edge_w = 2.0f;
            if (cur) b.edge = P.cone, b.edge_w = 1.5f;
            if (v.is_marked(ev)) b.edge = P.line_mark, b.edge_w = 3.0f;
            if (ev == v.selected) b.edge = P.selected, b.edge_w = 3.0f;
            float alpha = e.step > c.step ? 0.3f : 1.0f;
            if (!in_cone(ev)) alpha *= 0.28f;
            b.fill.a *= alpha;
            b.edge.a *= alpha;
            s.boxes.push_back(b);
        }
    }

    // Gutter, header, axis.
    add_margins(s, v, P);
    s.overlay_boxes.push_back(flat_box(g, top - 2.0f, v.width - g, 2.0f, P.grid_line, BoxRole::LabelBack));
    // The axis's meaning sits over the gutter, leaving the header's width to the legend and the ticks.
    s.overlay_texts.push_back({10.0f * fs, 14.0f * fs, 13.0f * fs, P.text, "time: clock64 cycles", Align::Left, kNoEvent});
    s.overlay_texts.push_back({10.0f * fs, 32.0f * fs, 13.0f * fs, P.text_dim, "since the block's start", Align::Left, kNoEvent});
    {
        // Legend: colour repeats what the mark's height and the stripes already say.
        float lx = g + 8.0f * fs;
        const float ly = 14.0f * fs, sz = 13.0f * fs;
        const auto key = [&](Color kc, Pattern p, float w, float h, const char* what) {
            if (lx + w + 8.0f * fs + float(std::char_traits<char>::length(what)) * 0.6f * sz > v.width) return;
            s.overlay_boxes.push_back({lx, ly - h * 0.5f, w, h, kc, kc, 0, 1.0f, p, BoxRole::LabelBack, 1, kNoEvent, 1});
            lx += w + 5.0f * fs;
            s.overlay_texts.push_back({lx, ly, sz, P.text_dim, what, Align::Left, kNoEvent});
            lx += float(std::char_traits<char>::length(what)) * 0.6f * sz + 14.0f * fs;
        };
        key(P.value, Pattern::Solid, 4.0f * fs, 14.0f * fs, "register");
        key(P.store, Pattern::Solid, 4.0f * fs, 14.0f * fs, "shared memory");
        key(P.text, Pattern::Solid, 6.0f * fs, 18.0f * fs, "barrier arrival");
        key(P.barrier, Pattern::Bars, 28.0f * fs, 10.0f * fs, "waiting");
    }
    ticks = 0;
    for (double x = std::ceil(std::max(0.0, t_lo) / tick) * tick; x <= t_hi && ticks < kMaxTicks; x += tick, ++ticks) {
        const float sx = time_x(v, x);
        if (sx < g + 10.0f * fs) continue;
        s.overlay_texts.push_back({sx, top - 14.0f * fs, 13.0f * fs, P.text_dim, cycles_text(x), Align::Center, kNoEvent});
        s.overlay_boxes.push_back(flat_box(sx, top - 6.0f * fs, 1.0f, 4.0f * fs, P.text_dim, BoxRole::LabelBack));
    }
    const RowLabels labels(v, 36.0f, 0.42f);
    const bool two_lines = labels.two_lines;
    for (size_t i = 0; i < l.rows.size(); ++i) {
        const TimeRow& r = l.rows[i];
        const float y = row_top[i];
        if (y + v.row_h < top || y > v.height || int(i) % labels.every != 0) continue;
        const bool second = r.block >= l.grid && l.second_launch;
        const std::string name = (!t.launches.empty() ? block_label(t, r.block)
                                  : second ? std::string("2nd launch") : "block " + std::to_string(r.block)) + "  warp " +
                                 std::to_string(r.warp);
        s.overlay_texts.push_back({12.0f * fs, labels.first_y(y, v, 0.36f), labels.size, P.text, name, Align::Left, kNoEvent});
        if (two_lines) {
            const std::string sub = r.waits.empty() ? "no barrier" : "waited " + cycles_text(r.waited) + " cycles";
            s.overlay_texts.push_back({12.0f * fs, y + v.row_h * 0.7f, std::min(12.0f * fs, v.row_h * 0.3f),
                                       r.waited > 0 ? P.text_dim : P.text_dim, sub, Align::Left, kNoEvent});
        }
    }
    return s;
}

Scene build_time_scene(const Trace& t, const Cursor& c, const View& v) {
    return build_time_scene(t, build_time_layout(t), c, v);
}

}  // namespace rl::render
