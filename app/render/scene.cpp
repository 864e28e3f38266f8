// app/render/scene.cpp — builds the frame's boxes, arrows and labels from the trace, the cursor and the view.
// Sections: palette · layout index · views · scene building (rows, cells, folding, arrows, header, gutter) ·
// picking and navigation · JSON dump.
#include "app/render/scene.h"
#include "app/render/drawn_panels.h"

#include "core/step_words.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace rl::render {

// ---- palette ------------------------------------------------------------------------------------
Color rgb(uint32_t hex, float alpha) {
    return {float((hex >> 16) & 0xff) / 255.0f, float((hex >> 8) & 0xff) / 255.0f, float(hex & 0xff) / 255.0f, alpha};
}

// Okabe–Ito colours: distinguishable under the common colour-vision deficiencies.
const Palette& palette(bool dark) {
    static const Palette kDark{
        rgb(0x1b1d23), rgb(0xf2f2f2), rgb(0x9aa0aa), rgb(0x4a4f5a), rgb(0x252830), rgb(0x2f3440),
        rgb(0x0072b2), rgb(0xffffff), rgb(0xcc79a7), rgb(0x009e73), rgb(0xe69f00), rgb(0xb8bec8), rgb(0xd55e00),
        rgb(0xf0e442), rgb(0xe69f00), rgb(0xf7d58b), rgb(0x56b4e9), rgb(0x4a4f5a), rgb(0x8f96a3), rgb(0xf0e442),
        rgb(0xffffff), rgb(0x3d83b8), rgb(0xff5fd2)};
    static const Palette kLight{
        rgb(0xfafaf7), rgb(0x15171c), rgb(0x5c6370), rgb(0xc4c8cf), rgb(0xeef0f3), rgb(0xfff4cc),
        rgb(0x0072b2), rgb(0xffffff), rgb(0xcc79a7), rgb(0x009e73), rgb(0xe69f00), rgb(0x6b7280), rgb(0xd55e00),
        rgb(0xb8860b), rgb(0xc77800), rgb(0x8a4f00), rgb(0x0072b2), rgb(0xc4c8cf), rgb(0x6b7280), rgb(0xd55e00),
        rgb(0x000000), rgb(0x5b9bd0), rgb(0xc0158f)};
    return dark ? kDark : kLight;
}

namespace {

bool carries_value(EventKind k) {
    switch (k) {
        case EventKind::Load: case EventKind::IdentityFill: case EventKind::Combine: case EventKind::SharedStore:
        case EventKind::SharedLoad: case EventKind::BlockPartial: case EventKind::Atomic: case EventKind::Ticket:
        case EventKind::PartialLoad: case EventKind::FinalStore:
            return true;
        default:
            return false;
    }
}

template <class V, class Key>
size_t lower_index(const std::vector<V>& v, uint64_t col, Key key) {
    return size_t(std::lower_bound(v.begin(), v.end(), col, [&](const V& a, uint64_t c) { return key(a) < c; }) -
                  v.begin());
}

}  // namespace

// ---- layout index -------------------------------------------------------------------------------
Layout build_layout(const Trace& t) {
    Layout l;
    uint32_t threads = std::max<uint32_t>(1, t.schedule.block), blocks = std::max<uint32_t>(1, t.grid);
    uint32_t steps = t.step_count;  // 32 bits: a step of 65535 must not wrap step + 1 to 0
    for (const Event& e : t.events) {
        threads = std::max<uint32_t>(threads, e.thread + 1u);
        blocks = std::max<uint32_t>(blocks, e.block + 1u);
        steps = std::max<uint32_t>(steps, e.step + 1u);
    }
    l.threads = threads;
    l.blocks = blocks;
    l.gap = threads >= 8 ? 1 : 0;
    if (blocks > 1) l.gap = std::max<uint32_t>(1, threads / 16);
    l.columns = l.column(blocks - 1, threads - 1) + 1;
    l.rows.resize(steps);
    l.event_row.resize(t.events.size());
    const std::vector<uint8_t> used = used_values(t);
    std::vector<uint32_t> kinds(steps, 0);
    std::vector<uint32_t> first_shuffle(steps, kNoEvent);
    std::vector<StepLines> lines(t.lines.empty() ? 0 : steps);  // a student's kernel: its source lines per row
    std::vector<uint64_t> last_mask_key(steps, ~uint64_t(0));

    {
        // Counting first avoids regrowing rows of hundreds of thousands of cells.
        std::vector<uint32_t> cells(steps, 0), arrows(steps, 0);
        for (const Event& e : t.events) {
            cells[e.step] += carries_value(e.kind);
            arrows[e.step] += e.kind == EventKind::Shuffle || e.kind == EventKind::SharedLoad || e.kind == EventKind::PartialLoad;
        }
        for (uint32_t s = 0; s < steps; ++s) l.rows[s].cells.reserve(cells[s]), l.rows[s].arrows.reserve(arrows[s]);
    }
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        Row& r = l.rows[e.step];
        l.event_row[i] = e.step;
        kinds[e.step] |= 1u << unsigned(e.kind);
        if (!lines.empty()) lines[e.step].add(t, i);
        const uint32_t col = uint32_t(l.column(e.block, e.thread));
        if (e.flags & kHazard) r.has_hazard = true, r.hazard_cols.push_back(col);
        if (carries_value(e.kind)) r.cells.push_back({col, i});
        if (e.kind == EventKind::Shuffle) {
            if (first_shuffle[e.step] == kNoEvent) {
                first_shuffle[e.step] = i;
                r.mask = e.aux;
            } else if (e.aux != r.mask) {
                r.mixed_masks = true;
            }
            const uint64_t key = (uint64_t(e.block) << 16) | e.warp();
            if (key != last_mask_key[e.step]) {
                r.mask_events.push_back(i);
                last_mask_key[e.step] = key;
            }
            // Every executing lane records its read; the arrows show the reads a lane uses.
            if (!used[i]) continue;
            // A source lane past the block's last thread reads from nowhere: draw it from just past the block's edge.
            const uint32_t src_thread = std::min<uint32_t>(e.warp() * 32 + e.source_lane(), threads);
            const uint32_t src = uint32_t(l.column(e.block, src_thread));
            r.arrows.push_back({src, col, i, e.dep[0], 0});
        } else if ((e.kind == EventKind::SharedLoad || e.kind == EventKind::PartialLoad) && e.dep[0] != kNoEvent) {
            const Event& d = t.events[e.dep[0]];
            const uint32_t src = uint32_t(l.column(d.block, d.thread));
            if (src != col) r.arrows.push_back({src, col, i, e.dep[0], 0});
        } else if (e.kind == EventKind::Barrier || e.kind == EventKind::WarpSync) {
            const uint32_t last = std::min<uint32_t>(e.thread + 31u, threads - 1);
            r.marks.push_back({col, uint32_t(l.column(e.block, last)), i});
        } else if (e.kind == EventKind::GridSync) {
            r.marks.push_back({uint32_t(l.column(e.block, 0)), uint32_t(l.column(e.block, threads - 1)), i});
        }
    }
    for (uint32_t s = 0; s < steps; ++s) {
        Row& r = l.rows[s];
        r.step = s;
        const Event* sh = first_shuffle[s] == kNoEvent ? nullptr : &t.events[first_shuffle[s]];
        r.label = lines.empty() ? describe_step(t, kinds[s], sh) : describe_step(t, kinds[s], sh, lines[s]);
        // Later events of one thread at one step replace earlier ones: the box shows what it holds after the step.
        const auto by_col = [](const Cell& a, const Cell& b) { return a.col < b.col; };
        if (!std::is_sorted(r.cells.begin(), r.cells.end(), by_col)) std::stable_sort(r.cells.begin(), r.cells.end(), by_col);
        size_t out = 0;
        for (size_t k = 0; k < r.cells.size(); ++k) {
            if (out > 0 && r.cells[out - 1].col == r.cells[k].col)
                r.cells[out - 1] = r.cells[k];
            else
                r.cells[out++] = r.cells[k];
        }
        r.cells.resize(out);
        r.scope = r.cells.empty() ? (sh ? scope_of(t, *sh) : Scope::Block) : scope_of(t, t.events[r.cells[0].event]);
        r.undefined_prefix.assign(r.cells.size() + 1, 0);
        r.identity_prefix.assign(r.cells.size() + 1, 0);
        r.hazard_prefix.assign(r.cells.size() + 1, 0);
        for (size_t k = 0; k < r.cells.size(); ++k) {
            const uint8_t f = t.events[r.cells[k].event].flags;
            r.undefined_prefix[k + 1] = r.undefined_prefix[k] + ((f & kUndefined) ? 1 : 0);
            r.identity_prefix[k + 1] = r.identity_prefix[k] + ((f & kIdentity) ? 1 : 0);
            r.hazard_prefix[k + 1] = r.hazard_prefix[k] + ((f & kHazard) ? 1 : 0);
        }
        for (ArrowRef& a : r.arrows) {
            a.src_row = a.src_event == kNoEvent ? uint16_t(s > 0 ? s - 1 : 0) : uint16_t(l.event_row[a.src_event]);
            r.max_arrow_span = std::max(r.max_arrow_span, a.src_col > a.dst_col ? a.src_col - a.dst_col : a.dst_col - a.src_col);
        }
        std::stable_sort(r.arrows.begin(), r.arrows.end(), [](const ArrowRef& a, const ArrowRef& b) {
            return std::min(a.src_col, a.dst_col) < std::min(b.src_col, b.dst_col);
        });
        std::stable_sort(r.marks.begin(), r.marks.end(), [](const Mark& a, const Mark& b) { return a.col0 < b.col0; });
        r.marks_end.resize(r.marks.size());
        for (size_t k = 0; k < r.marks.size(); ++k) r.marks_end[k] = std::max(k ? r.marks_end[k - 1] : 0u, r.marks[k].col1);
        // Masks by column (an emulator records them so already; stable: a warp met twice keeps its order).
        const auto mask_col = [&](uint32_t ev) { return uint32_t(l.column(t.events[ev].block, t.events[ev].warp() * 32)); };
        std::stable_sort(r.mask_events.begin(), r.mask_events.end(),
                         [&](uint32_t a, uint32_t b) { return mask_col(a) < mask_col(b); });
        r.mask_cols.resize(r.mask_events.size());
        for (size_t k = 0; k < r.mask_events.size(); ++k) r.mask_cols[k] = mask_col(r.mask_events[k]);
        if (r.has_hazard) l.hazard_rows.push_back(s);
    }
    for (const Hazard& h : t.hazards)
        if (h.event < t.events.size()) {
            const uint32_t row = l.event_row[h.event];
            const Event& e = t.events[h.event];
            l.rows[row].hazard_cols.push_back(uint32_t(l.column(e.block, e.thread)));
            if (!l.rows[row].has_hazard) {
                l.rows[row].has_hazard = true;
                l.hazard_rows.push_back(row);
            }
        }
    for (Row& r : l.rows) {
        std::sort(r.hazard_cols.begin(), r.hazard_cols.end());
        r.hazard_cols.erase(std::unique(r.hazard_cols.begin(), r.hazard_cols.end()), r.hazard_cols.end());
    }
    std::sort(l.hazard_rows.begin(), l.hazard_rows.end());
    return l;
}

// ---- views --------------------------------------------------------------------------------------
View fit_view(const Layout& l, float width, float height, float font_scale) {
    View v;
    v.width = width;
    v.height = height;
    v.font_scale = font_scale;
    const float lanes_w = std::max(40.0f, width - v.gutter() - 12.0f * font_scale);
    const float lanes_h = std::max(40.0f, height - v.header() - 8.0f * font_scale);
    v.px_per_col = std::min<double>(lanes_w / double(l.columns), 140.0 * font_scale);
    v.x0 = 0;
    const float rows = float(std::max<size_t>(1, l.rows.size()));
    v.row_h = std::clamp(lanes_h / rows, 14.0f * font_scale, 104.0f * font_scale);
    v.y0 = 0;
    return v;
}

void zoom_about(View& v, float factor, float sx, float sy, double min_ppc, double max_ppc) {
    const float gx = v.gutter(), gy = v.header();
    const double col = v.x0 + (sx - gx) / v.px_per_col;
    v.px_per_col = std::clamp(v.px_per_col * factor, min_ppc, std::max(min_ppc, max_ppc));  // a tiny span: min wins
    v.x0 = col - (sx - gx) / v.px_per_col;
    const float row = (sy - gy + v.y0) / v.row_h;
    v.row_h = std::clamp(v.row_h * std::sqrt(factor), 14.0f * v.font_scale, 140.0f * v.font_scale);
    v.y0 = std::max(0.0f, row * v.row_h - (sy - gy));
}

void zoom_view(View& v, const Layout& l, float factor, float sx, float sy) {
    const float gx = v.gutter();
    zoom_about(v, factor, sx, sy, std::min<double>((v.width - gx) / double(l.columns), 1.0),
               double(std::max(200.0f, v.width - gx)));
}

View lane_view(const Layout& l, float width, float height, uint32_t block, uint32_t thread, float font_scale) {
    View v = fit_view(l, width, height, font_scale);
    v.px_per_col = std::max(60.0f, width - v.gutter());
    v.x0 = double(l.column(block, thread));
    return v;
}

// ---- scene building -----------------------------------------------------------------------------
std::string box_text(const Trace& t, const Event& e) {
    if (e.flags & kUndefined) return "?";
    std::string v = format_value(t.schedule.op, t.schedule.type, e.value, e.flags);
    if (e.kind == EventKind::IdentityFill || (e.flags & kIdentity)) return "(" + v + ")";
    return v;
}

namespace {

constexpr float kCharW = 0.6f;  // average advance of DejaVu Sans digits, in ems

struct Builder {
    const Trace& t;
    const Layout& l;
    const Cursor& c;
    const View& v;
    const Palette& P;
    Scene& s;
    double c_lo = 0, c_hi = 0;
    float fs = 1;

    float col_x(double col) const { return float(v.gutter() + (col - v.x0) * v.px_per_col); }
    float row_y(int row) const { return v.header() + float(row) * v.row_h - v.y0; }
    float box_top(int row) const { return row_y(row) + v.row_h * 0.30f; }
    float box_bottom(int row) const { return row_y(row) + v.row_h * 0.80f; }
    bool in_cone(uint32_t ev) const { return !v.cone || ev == kNoEvent || (ev < v.cone->size() && (*v.cone)[ev]); }

    // Fade for the current row while values travel; rows in the future are not drawn.
    float row_alpha(int row) const {
        if (row < c.step) return 1.0f;
        if (row > c.step) return 0.0f;
        return std::clamp((c.t - 0.65f) / 0.35f, 0.0f, 1.0f);
    }

    void text(float x, float y, float size, Color col, std::string str, Align a = Align::Center, uint32_t ev = kNoEvent) {
        s.texts.push_back({x, y, size, col, std::move(str), a, ev});
    }

    // Fits a label into a box width: full text, then a shorter number, else nothing.
    bool fit_label(const std::string& str, float w, float size) const {
        return float(str.size()) * kCharW * size <= w - 4.0f;
    }

    void value_box(const Event& e, uint32_t ev, float x, float y, float w, float h, float alpha, BoxRole role,
                   bool hazard = false) {
        SceneBox b{x, y, w, h, P.value, P.value, 1.5f, std::min(6.0f, w * 0.15f), Pattern::Solid, role, 1, ev, 1};
        Color txt = P.value_text;
        if (e.kind == EventKind::SharedStore || e.kind == EventKind::SharedLoad) b.fill = b.edge = P.store;
        if (e.kind == EventKind::BlockPartial || e.kind == EventKind::FinalStore || e.kind == EventKind::PartialLoad)
            b.fill = b.edge = P.partial;
        if (e.kind == EventKind::Atomic || e.kind == EventKind::Ticket) b.fill = b.edge = P.atomic, txt = rgb(0x000000);
        if (e.flags & kUndefined) {
            b.fill = P.undefined;
            b.edge = P.undefined;
            b.pattern = Pattern::Hatched;
            b.edge_w = 2.5f;
            txt = rgb(0xffffff);
        } else if (e.kind == EventKind::IdentityFill || (e.flags & kIdentity)) {
            b.fill = P.background;
            b.edge = P.identity_edge;
            b.pattern = Pattern::Dashed;
            b.edge_w = 2.0f;
            txt = P.text_dim;
        }
        if (v.cone && !in_cone(ev)) alpha *= 0.28f;
        if (v.cone && in_cone(ev) && v.selected != ev) b.edge = P.cone, b.edge_w = 3.5f;
        if (v.is_marked(ev)) b.edge = P.line_mark, b.edge_w = 4.5f;
        if (ev == v.selected) b.edge = P.selected, b.edge_w = 4.0f;
        b.fill.a *= alpha;
        b.edge.a *= alpha;
        txt.a *= alpha;
        s.boxes.push_back(b);
        const float size = std::min(h * 0.46f, 24.0f * fs);
        if (size >= 7.0f) {
            std::string label = box_text(t, e);
            if (!fit_label(label, w, size) && !(e.flags & kUndefined)) {
                char buf[32];
                snprintf(buf, sizeof buf, "%.3g", numeric_value(t.schedule.op, t.schedule.type, e.value));
                label = buf;
            }
            float sz = size;
            while (!fit_label(label, w, sz) && sz > 8.0f) sz -= 1.0f;
            if (fit_label(label, w, sz)) text(x + w * 0.5f, y + h * 0.5f, sz, txt, label, Align::Center, ev);
        }
        if ((hazard || (e.flags & kHazard)) && w >= 10.0f) {
            const float bs = std::clamp(h * 0.42f, 8.0f, 18.0f * fs);
            s.boxes.push_back({x + w - bs * 0.6f, y - bs * 0.4f, bs, bs, P.hazard, rgb(0x000000, alpha), 1.5f, bs * 0.5f,
                               Pattern::Solid, BoxRole::Badge, 1, ev, 1});
            s.boxes.back().fill.a *= alpha;
            text(x + w - bs * 0.1f, y + bs * 0.1f, bs * 0.85f, rgb(0x000000, alpha), "!", Align::Center, ev);
        }
    }

    void build_bands() {
        const float top = v.header(), bottom = v.height;
        const double warp_px = 32.0 * v.px_per_col, block_px = double(l.threads) * v.px_per_col;
        const uint32_t b_lo = uint32_t(std::clamp(std::floor(c_lo / double(l.threads + l.gap)), 0.0, double(l.blocks)));
        // Clamped as doubles: a view panned or zoomed far off the lanes must not convert out of range.
        const uint32_t b_hi = uint32_t(std::clamp(c_hi / double(l.threads + l.gap), 0.0, double(l.blocks - 1)));
        const float hs = 13.0f * fs;
        for (uint32_t b = b_lo; b <= b_hi && block_px >= 3.0; ++b) {
            const float bx0 = col_x(double(l.column(b, 0))), bx1 = col_x(double(l.column(b, l.threads - 1) + 1));
            // Warp bands alternate so warp boundaries show even where lanes are empty.
            if (warp_px >= 6.0 && l.threads > 32) {
                for (uint32_t w = 0; w * 32 < l.threads; ++w) {
                    const float x0 = col_x(double(l.column(b, w * 32)));
                    const float x1 = col_x(double(l.column(b, std::min(l.threads, w * 32 + 32) - 1) + 1));
                    if (x1 < v.gutter() || x0 > v.width) continue;
                    if (w % 2 == 1) s.boxes.push_back({x0, top, x1 - x0, bottom - top, P.warp_band, P.warp_band, 0, 0,
                                                       Pattern::Solid, BoxRole::WarpBand, 0, kNoEvent, 1});
                    if (w > 0) s.boxes.push_back({x0 - 1.0f, top, 2.0f, bottom - top, P.grid_line, P.grid_line, 0, 0,
                                                  Pattern::Solid, BoxRole::WarpBand, 0, kNoEvent, 1});
                    if (x1 - x0 >= 70.0f * fs)
                        s.overlay_texts.push_back({std::max(x0, v.gutter()) + 4.0f * fs, 31.0f * fs, hs, P.text_dim,
                                                   "warp " + std::to_string(w), Align::Left, kNoEvent});
                }
            }
            // Block edges.
            s.boxes.push_back({bx0 - 2.0f, top, 2.0f, bottom - top, P.grid_line, P.grid_line, 0, 0, Pattern::Solid,
                               BoxRole::WarpBand, 0, kNoEvent, 1});
            s.boxes.push_back({bx1, top, 2.0f, bottom - top, P.grid_line, P.grid_line, 0, 0, Pattern::Solid,
                               BoxRole::WarpBand, 0, kNoEvent, 1});
            if (bx1 - bx0 >= 80.0f * fs) {
                // (a plain run's blocks are numbered within their launch: "launch 2 · block 0")
                std::string name = !t.launches.empty() ? block_label(t, b)
                                   : (b == t.grid && t.finisher_block == t.grid) ? "second launch" : "block " + std::to_string(b);
                if (l.threads <= 32 && l.blocks == 1) name += "  ·  warp 0";
                s.overlay_texts.push_back({std::max(bx0, v.gutter()) + 4.0f * fs, 12.0f * fs, 15.0f * fs, P.text, name,
                                           Align::Left, kNoEvent});
            }
            if (v.px_per_col >= 20.0 * fs) {
                const uint32_t first = uint32_t(std::max(0.0, c_lo - double(l.column(b, 0))));
                for (uint32_t th = first; th < l.threads; ++th) {
                    const float x = col_x(double(l.column(b, th)) + 0.5);
                    if (x > v.width) break;
                    if (x < v.gutter()) continue;
                    s.overlay_texts.push_back({x, top - 10.0f * fs, std::min(13.0f * fs, float(v.px_per_col) * 0.4f), P.text_dim,
                                               "t" + std::to_string(th), Align::Center, kNoEvent});
                }
            }
        }
    }

    void build_row(int ri) {
        const Row& r = l.rows[size_t(ri)];
        const float y = row_y(ri);
        if (y > v.height || y + v.row_h < v.header()) return;
        if (ri == c.step)
            s.boxes.push_back({v.gutter(), y, v.width - v.gutter(), v.row_h, P.row_current, P.row_current, 0, 0,
                               Pattern::Solid, BoxRole::RowHighlight, 0, kNoEvent, 1});
        const float alpha = row_alpha(ri);
        const bool folded = v.px_per_col < 5.0;
        const float by = box_top(ri), bh = box_bottom(ri) - by;
        if (alpha > 0.0f && !folded) {
            const size_t i0 = lower_index(r.cells, uint64_t(std::max(0.0, c_lo)), [](const Cell& a) { return a.col; });
            const float pad = float(std::min(v.px_per_col * 0.08, 6.0));
            for (size_t k = i0; k < r.cells.size() && r.cells[k].col <= c_hi; ++k) {
                const uint32_t ev = r.cells[k].event;
                const float x = col_x(r.cells[k].col) + pad;
                const bool hz = std::binary_search(r.hazard_cols.begin(), r.hazard_cols.end(), r.cells[k].col);
                value_box(t.events[ev], ev, x, by, float(v.px_per_col) - 2 * pad, bh, alpha, BoxRole::Value, hz);
            }
        } else if (alpha > 0.0f) {
            fold_cells(r, by, bh, alpha);
        }
        if (ri <= c.step) build_marks(r, y, folded);
        if (ri <= c.step && !folded) build_arrows(r, ri);
        if (ri <= c.step && !r.mask_events.empty() && v.px_per_col >= 6.0) build_mask(r);
    }

    // Level of detail: buckets of a power-of-two number of columns become one counted box.
    void fold_cells(const Row& r, float by, float bh, float alpha) {
        uint64_t bucket = 1;
        while (double(bucket) * v.px_per_col < 5.0) bucket *= 2;
        const uint64_t first = uint64_t(std::max(0.0, c_lo)) / bucket, last = uint64_t(std::max(0.0, c_hi)) / bucket;
        const auto key = [](const Cell& a) { return a.col; };
        size_t i = lower_index(r.cells, first * bucket, key);
        for (uint64_t b = first; b <= last && i < r.cells.size(); ++b) {
            if (r.cells[i].col >= (b + 1) * bucket) {
                b = r.cells[i].col / bucket - 1;  // skip empty buckets in one jump
                continue;
            }
            const size_t j = lower_index(r.cells, (b + 1) * bucket, key);
            const uint32_t count = uint32_t(j - i);
            const uint32_t undef = r.undefined_prefix[j] - r.undefined_prefix[i];
            const uint32_t ident = r.identity_prefix[j] - r.identity_prefix[i];
            const float x0 = col_x(r.cells[i].col), x1 = col_x(double(r.cells[j - 1].col) + 1.0);
            SceneBox fb{x0, by, std::max(2.0f, x1 - x0 - 1.0f), bh, P.folded, P.folded, 0.0f, 0.0f, Pattern::Solid,
                        BoxRole::Folded, 1, r.cells[i].event, count};
            if (count == 1) fb.fill = fb.edge = P.value;
            if (undef > 0) fb.fill = fb.edge = P.undefined, fb.pattern = Pattern::Hatched;
            else if (ident == count) fb.fill = P.background, fb.edge = P.identity_edge, fb.pattern = Pattern::Dashed, fb.edge_w = 1.0f;
            fb.fill.a *= alpha;
            fb.edge.a *= alpha;
            s.boxes.push_back(fb);
            s.folded_events += count;
            i = j;
        }
    }

    void build_marks(const Row& r, float y, bool folded) {
        const auto key = [](const Mark& m) { return m.col0; };
        // A mark's box as drawn: 2 px inside its columns, and never narrower than 2 px.
        const auto left = [&](const Mark& m) { return col_x(m.col0) + 2.0f; };
        const auto right_of = [&](uint32_t col1) { return col_x(double(col1) + 1.0) - 2.0f; };
        const auto right = [&](float x0, uint32_t col1) { return std::max(x0 + 2.0f, right_of(col1)); };
        size_t i = lower_index(r.marks, uint64_t(std::max(0.0, c_lo - double(l.threads))), key);
        float last_x1 = -1e9f;  // the right edge of the last box (folded: of every mark folded into it)
        for (; i < r.marks.size() && r.marks[i].col0 <= c_hi; ++i) {
            const Mark& m = r.marks[i];
            const float x0 = left(m), xr = right_of(m.col1), x1 = std::max(x0 + 2.0f, xr);
            if (x1 < v.gutter()) continue;
            if (folded && x0 <= last_x1 + 3.0f) {  // fold marks that touch on screen
                last_x1 = std::max(last_x1, x1);
                // Every later mark starting within reach folds in too: found by binary search and measured by the
                // prefix maximum of their end columns, so a row of 100,000 warps costs what its pixels do.
                const auto run_end = std::partition_point(r.marks.begin() + long(i) + 1, r.marks.end(), [&](const Mark& n) {
                    return n.col0 <= c_hi && left(n) <= last_x1 + 3.0f;
                });
                const size_t k = size_t(run_end - r.marks.begin());
                if (k > i + 1) {
                    last_x1 = std::max(last_x1, right(left(r.marks[k - 1]), r.marks_end[k - 1]));
                    i = k - 1;
                }
                s.boxes.back().w = std::max(s.boxes.back().w, last_x1 - s.boxes.back().x);
                continue;
            }
            const Event& e = t.events[m.event];
            Color fill = e.flags & kHazard ? P.hazard : P.barrier;
            s.boxes.push_back({x0, y + v.row_h * 0.38f, std::max(2.0f, xr - x0), v.row_h * 0.3f, fill, fill, 1.0f, 2.0f,
                               Pattern::Bars, BoxRole::Barrier, 1, m.event, 1});
            if (!in_cone(m.event)) s.boxes.back().fill.a *= 0.3f;
            if (v.is_marked(m.event)) s.boxes.back().edge = P.line_mark, s.boxes.back().edge_w = 4.0f;
            last_x1 = x1;
            if (x1 - x0 > 110.0f * fs && !folded)
                text((x0 + x1) * 0.5f, y + v.row_h * 0.53f, std::min(14.0f * fs, v.row_h * 0.26f), P.text,
                     e.kind == EventKind::Barrier ? "all warps wait" : e.kind == EventKind::WarpSync ? "warp sync" : "grid sync");
        }
    }

    void build_arrows(const Row& r, int ri) {
        const auto key = [](const ArrowRef& a) { return std::min(a.src_col, a.dst_col); };
        size_t i = lower_index(r.arrows, uint64_t(std::max(0.0, c_lo - double(r.max_arrow_span))), key);
        const bool current = ri == c.step && c.t < 1.0f;
        const float travel = current ? std::clamp(c.t / 0.65f, 0.0f, 1.0f) : 1.0f;
        const bool labels = v.px_per_col >= 30.0 * fs;
        for (; i < r.arrows.size() && key(r.arrows[i]) <= c_hi; ++i) {
            const ArrowRef& a = r.arrows[i];
            if (std::max(a.src_col, a.dst_col) < c_lo) continue;
            const Event& e = t.events[a.event];
            const float x0 = col_x(a.src_col + 0.5), x1 = col_x(a.dst_col + 0.5);
            const float y0 = box_bottom(a.src_row), y1 = box_top(ri);
            Color col = (e.flags & kUndefined) ? P.undefined : P.arrow;
            if (v.is_marked(a.event)) col = P.line_mark;  // a shuffle of the source line clicked
            if (!in_cone(a.event)) col.a *= 0.25f;
            if (current) col.a *= 0.55f;
            const uint32_t off = e.kind == EventKind::Shuffle ? e.shuffle_offset() : 0;
            const float width = std::clamp(float(v.px_per_col) * 0.05f, 1.5f, 3.5f * fs) * (v.is_marked(a.event) ? 1.5f : 1.0f);
            s.arrows.push_back({x0, y0, x1, y1 - 1.0f, col, width, std::clamp(width * 3.5f, 6.0f, 13.0f * fs), a.event, off});
            if (labels && off) {
                const float lx = x0 + (x1 - x0) * 0.72f, ly = y0 + (y1 - y0) * 0.72f;
                const float ts = std::min(15.0f * fs, v.row_h * 0.2f);
                const std::string str = "+" + std::to_string(off);
                const float tw = float(str.size()) * kCharW * ts + 6.0f;
                Color back = P.background;
                back.a = col.a;
                s.boxes.push_back({lx - tw * 0.5f, ly - ts * 0.62f, tw, ts * 1.24f, back, col, 1.0f, ts * 0.6f,
                                   Pattern::Solid, BoxRole::LabelBack, 1, kNoEvent, 1});
                Color tc = P.arrow_text;
                tc.a = col.a;
                text(lx, ly, ts, tc, str, Align::Center, a.event);
            }
            if (current && travel < 1.0f && a.src_event != kNoEvent) {
                // The value in flight: a smaller box sliding along the arrow.
                const float bw = std::max(6.0f, float(v.px_per_col) * 0.7f), bh = (box_bottom(ri) - box_top(ri)) * 0.8f;
                const float px = x0 + (x1 - x0) * travel, py = y0 + (y1 - y0) * travel;
                value_box(e, a.event, px - bw * 0.5f, py - bh * 0.5f, bw, bh, 1.0f, BoxRole::Travelling);
            }
        }
    }

    // The shuffle's 32-lane mask over each warp: lit lanes are named, grey ones are not.
    void build_mask(const Row& r) {
        const float mh = std::clamp(v.row_h * 0.06f, 3.0f, 6.0f * fs), my = box_top(int(r.step)) - mh - v.row_h * 0.035f;
        // The warps in view only: masks are sorted by their lane 0's column, a warp spans 32 columns.
        const size_t first = size_t(std::lower_bound(r.mask_cols.begin(), r.mask_cols.end(), std::max(0.0, c_lo - 31.0),
                                                     [](uint32_t col, double lo) { return double(col) < lo; }) -
                                    r.mask_cols.begin());
        for (size_t k = first; k < r.mask_events.size() && double(r.mask_cols[k]) <= c_hi; ++k) {
            const uint32_t ev = r.mask_events[k];
            const Event& e = t.events[ev];
            const uint32_t base = e.warp() * 32;
            if (double(l.column(e.block, base + 31)) < c_lo || double(l.column(e.block, base)) > c_hi) continue;
            for (uint32_t lane = 0; lane < 32 && base + lane < l.threads; ++lane) {
                const double col = double(l.column(e.block, base + lane));
                if (col + 1 < c_lo || col > c_hi) continue;
                const bool on = (e.aux >> lane) & 1u;
                const float x = col_x(col) + float(v.px_per_col) * 0.1f, w = float(v.px_per_col) * 0.8f;
                s.boxes.push_back({x, my, w, mh, on ? P.mask_on : P.background, on ? P.mask_on : P.mask_off, 1.0f, 1.0f,
                                   Pattern::Solid, BoxRole::MaskLane, 0, ev, 1});
            }
        }
    }

    void build_gutter() {
        const float g = v.gutter();
        add_margins(s, v, P);
        s.overlay_texts.push_back({10.0f * fs, v.header() * 0.5f, 13.0f * fs, P.text_dim, "step", Align::Left, kNoEvent});
        const RowLabels labels(v, 40.0f, 0.4f);
        const bool two_lines = labels.two_lines;
        const float ts = labels.size;
        for (size_t ri = 0; ri < l.rows.size(); ++ri) {
            const float y = row_y(int(ri));
            // a row scrolled partly under the header keeps its boxes but not its label (it would print over "step")
            if (y < v.header() - 0.5f || y > v.height) continue;
            if (int(ri) % labels.every != 0 && int(ri) != c.step) continue;
            const Row& r = l.rows[ri];
            const bool future = int(ri) > c.step;
            Color col = future ? P.text_dim : P.text;
            if (future) col.a = 0.6f;
            const float cy = labels.first_y(y, v, 0.40f);
            if (int(ri) == c.step)
                s.overlay_boxes.push_back({2.0f, y + 2.0f, 5.0f * fs, v.row_h - 4.0f, P.arrow, P.arrow, 0, 1.0f,
                                           Pattern::Solid, BoxRole::RowHighlight, 1, kNoEvent, 1});
            s.overlay_texts.push_back({12.0f * fs, cy, ts, col, std::to_string(r.step), Align::Left, kNoEvent});
            s.overlay_texts.push_back({40.0f * fs, cy, ts, col, r.label, Align::Left, kNoEvent});
            if (r.has_hazard)
                s.overlay_texts.push_back({g - 12.0f * fs, cy, ts, P.hazard, "!", Align::Center, kNoEvent});
            if (two_lines) {
                std::string sub(to_string(r.scope));
                if (!r.mask_events.empty()) {
                    char buf[40];
                    snprintf(buf, sizeof buf, "  mask 0x%08x%s", r.mask, r.mixed_masks ? "…" : "");
                    sub += buf;
                }
                s.overlay_texts.push_back({40.0f * fs, y + v.row_h * 0.68f, std::min(12.0f * fs, v.row_h * 0.3f), P.text_dim, sub,
                                           Align::Left, kNoEvent});
            }
        }
    }
};

}  // namespace

Scene build_scene(const Trace& t, const Layout& l, const Cursor& c, const View& v) {
    Scene s = empty_scene(v);
    const Palette& P = palette(v.dark);
    Builder b{t, l, c, v, P, s};
    b.fs = v.font_scale;
    b.c_lo = v.x0 - 1.0;
    b.c_hi = std::min(double(l.columns) - 1.0, v.x0 + (v.width - v.gutter()) / v.px_per_col + 1.0);
    b.build_bands();
    const int r_lo = std::max(0, int(std::floor(v.y0 / v.row_h)) - 1);
    const int r_hi = std::min(int(l.rows.size()) - 1, int(std::ceil((v.y0 + v.height) / v.row_h)));
    for (int r = r_lo; r <= r_hi; ++r) b.build_row(r);
    b.build_gutter();
    return s;
}

Scene build_scene(const Trace& t, const Cursor& c, const View& v) { return build_scene(t, build_layout(t), c, v); }

// ---- pieces of both views ------------------------------------------------------------------------
Scene empty_scene(const View& v) {
    Scene s;
    s.width = v.width;
    s.height = v.height;
    s.background = palette(v.dark).background;
    s.clip_x = v.gutter();
    s.clip_y = v.header();
    return s;
}

SceneBox flat_box(float x, float y, float w, float h, Color c, BoxRole role, uint8_t layer) {
    return {x, y, w, h, c, c, 0, 0, Pattern::Solid, role, layer, kNoEvent, 1};
}

void add_margins(Scene& s, const View& v, const Palette& P) {
    const float g = v.gutter();
    s.overlay_boxes.push_back(flat_box(0, 0, g, v.height, P.background, BoxRole::LabelBack));
    s.overlay_boxes.push_back(flat_box(g, 0, v.width - g, v.header() - 2.0f, P.background, BoxRole::LabelBack));
    s.overlay_boxes.push_back(flat_box(g - 2.0f, v.header(), 2.0f, v.height, P.grid_line, BoxRole::LabelBack));
}

RowLabels::RowLabels(const View& v, float min_two_lines_px, float size_of_row)
    : two_lines(v.row_h >= min_two_lines_px * v.font_scale),
      size(std::min(15.0f * v.font_scale, v.row_h * size_of_row)),
      every(std::max(1, int(std::ceil(15.0f * v.font_scale / v.row_h)))) {}

float RowLabels::first_y(float row_top, const View& v, float two_line_pos) const {
    return row_top + v.row_h * (two_lines ? two_line_pos : 0.5f);
}

// ---- picking and navigation ---------------------------------------------------------------------
bool has_hard_edges(const Scene& s) {
    if (!s.arrows.empty()) return true;
    for (const auto* boxes : {&s.boxes, &s.overlay_boxes})
        for (const SceneBox& b : *boxes)
            if (b.pattern == Pattern::Hatched) return true;
    return false;
}

uint32_t pick(const Scene& s, float x, float y) {
    if (x < s.clip_x || y < s.clip_y) return kNoEvent;
    for (size_t i = s.boxes.size(); i-- > 0;) {
        const SceneBox& b = s.boxes[i];
        if (b.event == kNoEvent || b.role == BoxRole::LabelBack || b.role == BoxRole::WarpBand) continue;
        if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return b.event;
    }
    return kNoEvent;
}

int last_step(const Layout& l) { return std::max(0, int(l.rows.size()) - 1); }

int next_hazard_step(const Layout& l, int step) {
    auto it = std::upper_bound(l.hazard_rows.begin(), l.hazard_rows.end(), uint32_t(std::max(step, -1) + 0));
    if (step < 0 && !l.hazard_rows.empty()) return int(l.hazard_rows.front());
    return it == l.hazard_rows.end() ? -1 : int(*it);
}

int prev_hazard_step(const Layout& l, int step) {
    auto it = std::lower_bound(l.hazard_rows.begin(), l.hazard_rows.end(), uint32_t(std::max(step, 0)));
    return it == l.hazard_rows.begin() ? -1 : int(*std::prev(it));
}

uint32_t first_hazard_event(const Trace& t, const Layout& l, int step) {
    if (step < 0 || size_t(step) >= l.rows.size()) return kNoEvent;
    for (const Hazard& h : t.hazards)
        if (h.event < t.events.size() && int(l.event_row[h.event]) == step) return h.event;
    for (const Cell& c : l.rows[size_t(step)].cells)
        if (t.events[c.event].flags & kHazard) return c.event;
    return kNoEvent;
}

// ---- JSON dump ----------------------------------------------------------------------------------
namespace {
std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        if (uint8_t(ch) < 0x20) continue;
        o += ch;
    }
    return o;
}
const char* pattern_name(Pattern p) {
    static const char* k[] = {"solid", "hatched", "dashed", "bars", "dotted"};
    return k[size_t(p)];
}
const char* role_name(BoxRole r) {
    static const char* k[] = {"value", "travelling", "folded", "barrier", "mask-lane", "warp-band", "row-highlight", "badge",
                              "label-back", "time-mark", "wait"};
    return k[size_t(r)];
}
}  // namespace

void dump_scene_json(std::ostream& out, const Scene& s, const DrawnPanels* panels) {
    char buf[512];
    out << "{\"width\":" << s.width << ",\"height\":" << s.height << ",\"folded_events\":" << s.folded_events << ",\n\"boxes\":[";
    bool first = true;
    auto boxes = [&](const std::vector<SceneBox>& v, bool overlay) {
        for (const SceneBox& b : v) {
            snprintf(buf, sizeof buf,
                     "%s\n{\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f,\"role\":\"%s\",\"pattern\":\"%s\",\"event\":%d,"
                     "\"count\":%u,\"fill\":[%.3f,%.3f,%.3f,%.3f],\"overlay\":%s}",
                     first ? "" : ",", b.x, b.y, b.w, b.h, role_name(b.role), pattern_name(b.pattern),
                     b.event == kNoEvent ? -1 : int(b.event), b.count, b.fill.r, b.fill.g, b.fill.b, b.fill.a,
                     overlay ? "true" : "false");
            out << buf;
            first = false;
        }
    };
    boxes(s.boxes, false);
    boxes(s.overlay_boxes, true);
    out << "],\n\"arrows\":[";
    first = true;
    for (const SceneArrow& a : s.arrows) {
        snprintf(buf, sizeof buf, "%s\n{\"x0\":%.1f,\"y0\":%.1f,\"x1\":%.1f,\"y1\":%.1f,\"event\":%d,\"offset\":%u}",
                 first ? "" : ",", a.x0, a.y0, a.x1, a.y1, a.event == kNoEvent ? -1 : int(a.event), a.offset);
        out << buf;
        first = false;
    }
    out << "],\n\"texts\":[";
    first = true;
    auto texts = [&](const std::vector<SceneText>& v, bool overlay) {
        for (const SceneText& tx : v) {
            snprintf(buf, sizeof buf, "%s\n{\"x\":%.1f,\"y\":%.1f,\"size\":%.1f,\"event\":%d,\"overlay\":%s,\"text\":\"",
                     first ? "" : ",", tx.x, tx.y, tx.size, tx.event == kNoEvent ? -1 : int(tx.event),
                     overlay ? "true" : "false");
            out << buf << json_escape(tx.text) << "\"}";
            first = false;
        }
    };
    texts(s.texts, false);
    texts(s.overlay_texts, true);
    out << "]";
    if (panels) {
        out << ",\n\"panels\":";
        dump_panels_json(out, *panels);
    }
    out << "}\n";
}

}  // namespace rl::render
