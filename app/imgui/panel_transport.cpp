// app/imgui/panel_transport.cpp — play, pause, step, speed, scrub bar, next hazard, zoom, theme and text size.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/imgui/panels.h"

namespace rl::lab {

void transport_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("##transport", r, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar)) return ImGui::End();
    const float fs = ImGui::GetFontSize();
    if (ImGui::Button("|<")) s.playing = false, s.set_step(0);
    ImGui::SameLine();
    if (ImGui::Button("<")) s.step_back();
    ImGui::SameLine();
    if (ImGui::Button(s.playing ? "pause" : "play", ImVec2(fs * 3.5f, 0))) {
        if (!s.playing && s.cursor.step >= s.last() && s.cursor.t >= 1.0f) s.set_step(0);
        s.playing = !s.playing;
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) s.step_forward();
    ImGui::SameLine();
    if (ImGui::Button(">|")) s.playing = false, s.set_step(s.last());
    ImGui::SameLine();
    ImGui::BeginDisabled(render::next_hazard_step(s.layout, s.cursor.step) < 0);
    if (ImGui::Button("next hazard")) s.jump_next_hazard();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 7);
    ImGui::SliderFloat("speed", &s.speed, 0.25f, 8.0f, "%.2f steps/s", ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    if (ImGui::Button("fit")) s.view_fitted = false;
    ImGui::SameLine();
    {
        // Disabled for emulator traces, which have no timestamps; hovering says why.
        const bool can_time = render::time_view_unavailable(s.trace).empty();
        ImGui::BeginDisabled(!can_time);
        if (ImGui::Button(s.time_view ? "steps (T)" : "time (T)")) s.set_time_view(!s.time_view);
        ImGui::EndDisabled();
        if (!can_time && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", render::time_view_unavailable(s.trace).c_str());
    }
    ImGui::SameLine();
    if (ImGui::Button(s.numerics_open ? "canvas (N)" : "numerics (N)")) s.numerics_open = !s.numerics_open;
    ImGui::SameLine();
    if (ImGui::Button("source (S)")) s.source_open = !s.source_open;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("S: show / hide the CUDA source under the canvas");
    ImGui::SameLine();
    if (ImGui::Button(s.dark ? "light" : "dark")) s.dark = !s.dark;
    ImGui::SameLine();
    if (ImGui::Button("A-")) s.font_scale = std::max(0.75f, s.font_scale - 0.25f), s.font_dirty = true, s.view_fitted = false;
    ImGui::SameLine();
    if (ImGui::Button("A+")) s.font_scale = std::min(3.0f, s.font_scale + 0.25f), s.font_dirty = true, s.view_fitted = false;

    // Scrub bar: position in whole steps plus the animation within the current one.
    float pos = float(s.cursor.step) + s.cursor.t - 1.0f;
    ImGui::SetNextItemWidth(-fs * 9.0f);
    const std::string label = "step " + std::to_string(s.cursor.step) + " / " + std::to_string(s.last()) + "  " +
                              (s.layout.rows.empty() ? "" : s.layout.rows[size_t(s.cursor.step)].label);
    if (ImGui::SliderFloat("##scrub", &pos, -0.999f, float(s.last()), label.c_str())) {
        s.playing = false;
        const int st = int(std::ceil(pos));
        s.set_step(st, std::clamp(pos - float(st) + 1.0f, 0.0f, 1.0f));
    }
    ImGui::SameLine();
    if (!s.notice.empty())
        ImGui::TextColored(ImVec4(0.94f, 0.89f, 0.26f, 1.0f), "%s", s.notice.c_str());
    else
        ImGui::TextDisabled("%s", s.backend_line().c_str());
    ImGui::End();
}

}  // namespace rl::lab
