// app/imgui/panel_timings.cpp — measured times per variant across sizes (log-log), crossovers marked and explained;
// "Measure on this GPU" with progress and cancel; "Time on GPU" (Ctrl+T) for a student's kernel. The plot's content is app/render/timings_plot's; this only draws.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/imgui/panels.h"
#include "app/render/timings_plot.h"

namespace rl::lab {
namespace {

ImU32 col(uint32_t rgb, int alpha = 255) {
    return IM_COL32((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, alpha);
}

void marker(ImDrawList* dl, render::MarkerShape shape, ImVec2 c, float r, ImU32 colour) {
    switch (shape) {
        case render::MarkerShape::Circle: dl->AddCircleFilled(c, r, colour); break;
        case render::MarkerShape::Square: dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colour); break;
        case render::MarkerShape::Triangle:
            dl->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x - r * 1.1f, c.y + r * 0.8f),
                                  ImVec2(c.x + r * 1.1f, c.y + r * 0.8f), colour);
            break;
        case render::MarkerShape::Diamond:
            dl->AddQuadFilled(ImVec2(c.x, c.y - r * 1.3f), ImVec2(c.x + r * 1.3f, c.y), ImVec2(c.x, c.y + r * 1.3f),
                              ImVec2(c.x - r * 1.3f, c.y), colour);
            break;
    }
}

void dashed_vline(ImDrawList* dl, float x, float y0, float y1, ImU32 colour, float thickness) {
    for (float y = y0; y < y1; y += 10.0f) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 6.0f, y1)), colour, thickness);
}

// The measurement controls: the action (disabled with its reason), progress and cancel, the outcome.
void measure_row(LabState& s) {
    BenchJob& job = *s.bench_job;
    if (job.running()) {
        char label[160];
        snprintf(label, sizeof label, "%s (%.0f%%)", job.cancelling() ? "cancelling after this cell" : job.what().c_str(),
                 100.0 * job.fraction());
        ImGui::ProgressBar(float(job.fraction()), ImVec2(-ImGui::GetFontSize() * 5.0f, 0), label);
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) job.cancel();
        return;
    }
    s.take_measurement();
    static std::string reason;
    static const bool available = BenchJob::available(&reason);  // asked once: it may probe the driver
    ImGui::BeginDisabled(!available);
    if (ImGui::Button("Measure on this GPU")) job.start();
    ImGui::EndDisabled();
    if (!available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", reason.c_str());
}

// Time on GPU (Ctrl+T): the open kernel through `rlab run --time` in a child (app/lab/kernel_time_job.h). While it
// runs: what runs, the seconds, Cancel. Then its reason when it failed; the rows it gave are kernel_rows' below.
void time_row(LabState& s) {
    KernelTimeJob& job = *s.time_job;
    if (job.running()) {  // Cancel first: the line after it wraps in a narrow panel and never pushes it out of sight
        if (ImGui::Button("Cancel##time")) job.cancel();
        ImGui::SameLine();
        ImGui::TextWrapped("%s", job.status_line().c_str());
        return;
    }
    // The rows just timed are what the user asked to see: enlarged, all five columns show (the side panel clips them).
    if (s.take_kernel_timing()) s.timings_large = true;
    const std::string blocker = kernel_time_blocker(s.kernel->request(), s.kernel->text);
    ImGui::BeginDisabled(!blocker.empty());
    if (ImGui::Button("Time on GPU (Ctrl+T)")) s.start_kernel_timing();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", blocker.empty() ? "your kernel, uninstrumented, timed beside the lab's fast path and CUB "
                                                  "(rlab run --backend cuda --time, with this kernel's sizes and plan)"
                                                : blocker.c_str());
    const std::string line = job.status_line();
    if (line.empty()) return;
    const bool failed = job.state() == KernelTimeJob::State::Failed;
    ImGui::PushStyleColor(ImGuiCol_Text, failed ? (s.dark ? IM_COL32(255, 120, 90, 255) : IM_COL32(190, 30, 0, 255))
                                                : ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", line.c_str());
    ImGui::PopStyleColor();
}

void legend(const render::TimingsPlot& p, float fs) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const size_t cols = std::clamp(size_t(ImGui::GetContentRegionAvail().x / (fs * 10.0f)), size_t(1), size_t(5));
    const float col_w = ImGui::GetContentRegionAvail().x / float(cols);
    for (size_t i = 0; i < p.series.size(); ++i) {
        if (i % cols) ImGui::SameLine(col_w * float(i % cols) + ImGui::GetStyle().WindowPadding.x);
        const ImVec2 q = ImGui::GetCursorScreenPos();
        marker(dl, p.series[i].shape, ImVec2(q.x + fs * 0.45f, q.y + fs * 0.55f), fs * 0.32f, col(p.series[i].rgb));
        ImGui::Dummy(ImVec2(fs, fs));
        ImGui::SameLine();
        ImGui::TextUnformatted(p.series[i].variant.c_str());
    }
}

// Draws the plot and writes down in `drawn` what it drew, as it draws it (--dump-scene).
void plot(const render::TimingsPlot& p, ImVec2 size, bool dark, render::DrawnTimings& drawn) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float px0 = o.x + fs * 3.6f, px1 = o.x + size.x - fs * 0.8f, py0 = o.y + fs * 0.4f, py1 = o.y + size.y - fs * 1.5f;
    drawn.plot = {px0, py0, px1, py1};
    drawn.axes(p);
    auto X = [&](double x) { return px0 + float((x - p.x0) / (p.x1 - p.x0)) * (px1 - px0); };
    auto Y = [&](double y) { return py1 - float((y - p.y0) / (p.y1 - p.y0)) * (py1 - py0); };
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = dark ? IM_COL32(255, 255, 255, 40) : IM_COL32(0, 0, 0, 40);
    dl->AddRect(ImVec2(px0, py0), ImVec2(px1, py1), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    // Every tick gets a grid line; labels are thinned so that none overlaps the next (narrow panels).
    float widest = 0;
    for (const render::PlotTick& t : p.x_ticks) widest = std::max(widest, ImGui::CalcTextSize(t.label.c_str()).x);
    const float spacing = p.x_ticks.size() > 1 ? X(p.x_ticks[1].at) - X(p.x_ticks[0].at) : px1 - px0;
    const size_t every = size_t(std::ceil((widest + fs * 0.6f) / std::max(spacing, 1.0f)));
    for (size_t i = 0; i < p.x_ticks.size(); ++i) {
        const render::PlotTick& t = p.x_ticks[i];
        dl->AddLine(ImVec2(X(t.at), py0), ImVec2(X(t.at), py1), grid);
        if (i % every) continue;
        const float w = ImGui::CalcTextSize(t.label.c_str()).x;
        dl->AddText(ImVec2(X(t.at) - w * 0.5f, py1 + fs * 0.2f), text, t.label.c_str());
    }
    for (const render::PlotTick& t : p.y_ticks) {
        dl->AddLine(ImVec2(px0, Y(t.at)), ImVec2(px1, Y(t.at)), grid);
        const float w = ImGui::CalcTextSize(t.label.c_str()).x;
        dl->AddText(ImVec2(px0 - w - fs * 0.3f, Y(t.at) - fs * 0.5f), text, t.label.c_str());
    }
    dl->PushClipRect(ImVec2(px0, py0 - fs), ImVec2(px1 + fs, py1), true);
    // Crossovers first, under the lines: a dashed line at the size, a ring on the winner's point, a label.
    for (size_t i = 0; i < p.crossovers.size(); ++i) {
        const render::PlotCrossover& c = p.crossovers[i];
        const float x = X(c.x);
        dashed_vline(dl, x, py0, py1, text, 1.5f);
        dl->AddCircle(ImVec2(x, Y(c.y)), fs * 0.75f, text, 0, 2.0f);
        const ImVec2 tsz = ImGui::CalcTextSize(c.label.c_str());
        const float tx = std::clamp(x - tsz.x * 0.5f, px0 + 2.0f, px1 - tsz.x - 2.0f), ty = py0 + 4.0f + float(i) * fs * 1.3f;
        dl->AddRectFilled(ImVec2(tx - 3, ty - 1), ImVec2(tx + tsz.x + 3, ty + tsz.y + 1),
                          dark ? IM_COL32(0, 0, 0, 220) : IM_COL32(255, 255, 255, 230), 3.0f);
        dl->AddText(ImVec2(tx, ty), text, c.label.c_str());
        drawn.crossovers.push_back(c.label);
    }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const render::PlotSeries* hover = nullptr;
    size_t hover_i = 0;
    float best = fs * 0.8f;
    for (const render::PlotSeries& s : p.series) {
        const ImU32 c = col(s.rgb);
        render::DrawnSeries& rec = drawn.add_series(s);
        for (size_t i = 0; i + 1 < s.points.size(); ++i)
            dl->AddLine(ImVec2(X(s.points[i].first), Y(s.points[i].second)),
                        ImVec2(X(s.points[i + 1].first), Y(s.points[i + 1].second)), c, s.story ? 3.0f : 1.5f);
        for (size_t i = 0; i < s.points.size(); ++i) {
            const auto [x, y] = s.points[i];  // one place for the marker and its record: they cannot disagree
            const ImVec2 q(X(x), Y(y));
            marker(dl, s.shape, q, s.story ? fs * 0.32f : fs * 0.25f, c);
            rec.drawn_at(x, y);
            const float d = std::hypot(q.x - mouse.x, q.y - mouse.y);
            if (d < best) best = d, hover = &s, hover_i = i;
        }
    }
    dl->PopClipRect();
    ImGui::Dummy(size);
    if (hover && ImGui::IsWindowHovered())
        ImGui::SetTooltip("%s at n = %s: %.2f µs", hover->variant.c_str(), render::size_text(hover->n[hover_i]).c_str(),
                          hover->us[hover_i]);
}

// A student's kernel timed beside the fast path and CUB (rlab run --time): the heading, then one row each, the checked
// column in the warning colour where repetitions were wrong. Recorded in `drawn` as drawn (--dump-scene).
void kernel_rows(const KernelTiming& k, bool dark, render::DrawnPanels& drawn) {
    render::DrawnKernelTiming& rec = drawn.kernel_timing.emplace();
    rec.heading = kernel_timing_heading(k);
    ImGui::TextWrapped("%s", rec.heading.c_str());
    const std::vector<std::vector<std::string>> cells = kernel_timing_cells(k);
    if (!ImGui::BeginTable("kernel_timing", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg))
        return;
    for (const char* h : kKernelTimingColumns) {
        ImGui::TableSetupColumn(h);
        rec.header.push_back(h);
    }
    ImGui::TableHeadersRow();
    const ImU32 warn = dark ? IM_COL32(255, 120, 90, 255) : IM_COL32(190, 30, 0, 255);
    for (size_t i = 0; i < cells.size(); ++i) {
        const bool wrong = i < k.rows.size() && k.rows[i].timed && k.rows[i].wrong > 0;
        ImGui::TableNextRow();
        render::DrawnRow& drawn_row = rec.rows.emplace_back();
        drawn_row.outside_bound = wrong;
        drawn_row.visible = true;
        for (size_t c = 0; c < cells[i].size(); ++c) {
            ImGui::TableNextColumn();
            if (wrong && c == 4) ImGui::PushStyleColor(ImGuiCol_Text, warn);
            ImGui::TextUnformatted(cells[i][c].c_str());
            drawn_row.cells.push_back(cells[i][c]);  // recorded where it is drawn: the two cannot disagree
            if (wrong && c == 4) ImGui::PopStyleColor();
        }
    }
    ImGui::EndTable();
    ImGui::Spacing();
}

}  // namespace

void timings_panel(LabState& s, const Rect& r) {
    // Enlarged, the plot takes the canvas's place: the room a projector needs.
    const Rect where = s.timings_large ? s.canvas : r;
    if (s.timings_large) ImGui::SetNextWindowBgAlpha(1.0f);  // opaque over the canvas
    if (!begin_fixed("Timings (measured)", where)) return ImGui::End();
    if (ImGui::SmallButton(s.timings_large ? "Back to the canvas" : "Enlarge")) s.timings_large = !s.timings_large;
    ImGui::SameLine();
    measure_row(s);
    const Timings& t = s.timings;
    // The cache choice sits on the button row: after the wrapped heading it could fall off the panel.
    const std::vector<std::string> caches = t.loaded ? t.report.caches() : std::vector<std::string>{};
    if (caches.size() > 1) {
        ImGui::SameLine();
        ImGui::TextDisabled("cache:");
        for (const std::string& c : caches) {
            ImGui::SameLine();
            if (ImGui::RadioButton(c.c_str(), s.timings.cache == c)) s.timings.cache = c;
        }
    }
    if (!s.timings_note.empty()) ImGui::TextWrapped("%s", s.timings_note.c_str());
    if (s.kernel->active() || s.time_job->state() != KernelTimeJob::State::Idle) time_row(s);
    if (t.kernel) kernel_rows(*t.kernel, s.dark, s.drawn);
    if (!t.loaded) {
        ImGui::Separator();
        const std::vector<std::string> lines = timings_empty_lines(t);
        for (size_t i = 0; i < lines.size(); ++i) {
            if (i) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", lines[i].c_str());
            if (i) ImGui::PopStyleColor();
        }
        ImGui::End();
        return;
    }
    ImGui::TextWrapped("%s", timings_heading(t).c_str());
    const render::TimingsPlot p = render::build_timings_plot(t.report, s.timings.cache, s.dark);
    if (p.empty()) {
        ImGui::TextWrapped("This file has no f32 sum results for the %s cache.", s.timings.cache.c_str());
        ImGui::End();
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", p.caption.c_str());
    ImGui::PopStyleColor();
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const size_t cols = std::clamp(size_t(avail.x / (fs * 10.0f)), size_t(1), size_t(5));
    const float legend_h = float((p.series.size() + cols - 1) / cols) * ImGui::GetTextLineHeightWithSpacing();
    const float plot_h = std::max(fs * 8.0f, (avail.y - legend_h) * (s.timings_large ? 0.72f : 0.62f));
    s.drawn.timings.emplace().cache = s.timings.cache;
    plot(p, ImVec2(avail.x, plot_h), s.dark, *s.drawn.timings);
    legend(p, fs);
    ImGui::BeginChild("crossovers", ImVec2(0, 0), false);
    for (const std::string& line : p.sentences) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s", line.c_str());
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace rl::lab
