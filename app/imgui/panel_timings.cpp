// app/imgui/panel_timings.cpp — measured times of this schedule and its alternatives across sizes, log-log.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <cmath>
#include "app/imgui/panels.h"

namespace rl::lab {
namespace {

const ImU32 kSeries[8] = {IM_COL32(0, 114, 178, 255), IM_COL32(230, 159, 0, 255), IM_COL32(0, 158, 115, 255),
                          IM_COL32(204, 121, 167, 255), IM_COL32(86, 180, 233, 255), IM_COL32(213, 94, 0, 255),
                          IM_COL32(240, 228, 66, 255), IM_COL32(150, 150, 150, 255)};

}  // namespace

void timings_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("Timings (measured)", r)) return ImGui::End();
    if (s.timings.sets.empty()) {
        ImGui::TextWrapped("No measurements yet.");
        ImGui::TextWrapped("Measured timings (JSON in the `rlab bench` format of DESIGN.md, in docs/measurements) appear "
                           "here on a log-log plot with their device and date. The benchmark itself is not built yet "
                           "(issue 8); docs/gpu holds what the H200 run measured so far.");
        ImGui::TextDisabled("Looked in:");
        for (const std::string& p : s.timings.searched) ImGui::TextDisabled("  %s", p.c_str());
        ImGui::End();
        return;
    }
    static int which = 0;
    which = std::clamp(which, 0, int(s.timings.sets.size()) - 1);
    const TimingSet& set = s.timings.sets[size_t(which)];
    if (s.timings.sets.size() > 1) {
        if (ImGui::BeginCombo("file", set.file.c_str())) {
            for (int i = 0; i < int(s.timings.sets.size()); ++i)
                if (ImGui::Selectable(s.timings.sets[size_t(i)].file.c_str(), i == which)) which = i;
            ImGui::EndCombo();
        }
    }
    ImGui::Text("%s", set.device.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("measured %s", set.date.c_str());
    // This schedule's grid stage is the variant to emphasise; the others are its alternatives.
    const std::string mine(to_string(s.schedule.effective_grid_stage()));
    const std::string dtype(to_string(s.schedule.type));
    double nmin = 1e300, nmax = 0, tmin = 1e300, tmax = 0;
    for (const TimingSeries& ser : set.series)
        for (const TimingPoint& p : ser.points)
            if (p.n > 0 && p.median_us > 0) {
                nmin = std::min(nmin, p.n), nmax = std::max(nmax, p.n);
                tmin = std::min(tmin, p.median_us), tmax = std::max(tmax, p.median_us);
            }
    if (nmax <= 0) {
        ImGui::TextDisabled("(no positive sizes and times in this file)");
        ImGui::End();
        return;
    }
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float legend_h = fs * 1.3f * float(std::min<size_t>(set.series.size(), 8) + 1) / 2.0f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float left = fs * 3.2f, bottom = fs * 1.6f;
    const ImVec2 size(avail.x, std::max(fs * 6.0f, avail.y - legend_h - fs));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled), text = ImGui::GetColorU32(ImGuiCol_Text);
    const double lx0 = std::floor(std::log10(nmin)), lx1 = std::ceil(std::log10(nmax) + 1e-9);
    const double ly0 = std::floor(std::log10(tmin)), ly1 = std::ceil(std::log10(tmax) + 1e-9);
    const float px0 = p0.x + left, px1 = p0.x + size.x - fs * 0.5f, py0 = p0.y + fs * 0.5f, py1 = p0.y + size.y - bottom;
    auto X = [&](double n) { return px0 + float((std::log10(n) - lx0) / std::max(1.0, lx1 - lx0)) * (px1 - px0); };
    auto Y = [&](double us) { return py1 - float((std::log10(us) - ly0) / std::max(1.0, ly1 - ly0)) * (py1 - py0); };
    dl->AddRect(ImVec2(px0, py0), ImVec2(px1, py1), axis);
    char buf[32];
    for (double e = lx0; e <= lx1; e += 1) {
        snprintf(buf, sizeof buf, "1e%.0f", e);
        dl->AddText(ImVec2(X(std::pow(10, e)) - fs, py1 + 2), axis, buf);
    }
    for (double e = ly0; e <= ly1; e += 1) {
        snprintf(buf, sizeof buf, "%gus", std::pow(10, e));
        dl->AddText(ImVec2(p0.x, Y(std::pow(10, e)) - fs * 0.5f), axis, buf);
        dl->AddLine(ImVec2(px0, Y(std::pow(10, e))), ImVec2(px1, Y(std::pow(10, e))), IM_COL32(128, 128, 128, 40));
    }
    int k = 0;
    std::vector<std::pair<std::string, ImU32>> legend;
    for (const TimingSeries& ser : set.series) {
        if (ser.dtype != dtype && set.series.size() > 8) continue;
        const ImU32 col = kSeries[size_t(k++) % 8];
        const bool emph = ser.variant == mine;
        for (size_t i = 0; i + 1 < ser.points.size(); ++i)
            dl->AddLine(ImVec2(X(ser.points[i].n), Y(ser.points[i].median_us)),
                        ImVec2(X(ser.points[i + 1].n), Y(ser.points[i + 1].median_us)), col, emph ? 3.5f : 1.5f);
        for (const TimingPoint& p : ser.points) dl->AddCircleFilled(ImVec2(X(p.n), Y(p.median_us)), emph ? 4.0f : 2.5f, col);
        legend.push_back({ser.variant + (ser.dtype != "f32" ? " " + ser.dtype : "") + (emph ? " (this)" : ""), col});
    }
    dl->AddText(ImVec2(px1 - fs * 4, py1 - fs * 1.2f), text, "n");
    ImGui::Dummy(size);
    for (size_t i = 0; i < legend.size(); ++i) {
        if (i % 2) ImGui::SameLine(avail.x * 0.5f);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(ImVec2(p.x, p.y + fs * 0.3f), ImVec2(p.x + fs * 0.7f, p.y + fs), legend[i].second);
        ImGui::Dummy(ImVec2(fs, fs));
        ImGui::SameLine();
        ImGui::TextUnformatted(legend[i].first.c_str());
    }
    ImGui::End();
}

}  // namespace rl::lab
