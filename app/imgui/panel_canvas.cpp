// app/imgui/panel_canvas.cpp — the canvas's input: wheel zooms, drag pans, a click selects an event and its cone.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/imgui/panels.h"
#include "app/lab/frame.h"
#include "app/lab/source_view.h"

namespace rl::lab {

void canvas_panel(LabState& s, const Rect& r) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    begin_fixed("##canvas", r,
                ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBringToFrontOnFocus |
                    ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::InvisibleButton("canvas", ImVec2(std::max(1.0f, r.w), std::max(1.0f, r.h)),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    const ImGuiIO& io = ImGui::GetIO();
    const float mx = io.MousePos.x - r.x, my = io.MousePos.y - r.y;
    if (ImGui::IsItemHovered() && io.MouseWheel != 0.0f) {
        zoom(s, io.MouseWheel > 0 ? 1.25f : 0.8f, mx, my);
    }
    for (int b = 0; b < 3; ++b) {
        if (ImGui::IsItemActive() && ImGui::IsMouseDragging(b, 2.0f)) pan(s, io.MouseDelta.x, io.MouseDelta.y);
    }
    // A click that did not drag picks the event under the mouse from the last built scene.
    if (ImGui::IsItemDeactivated() && ImGui::IsMouseReleased(0)) {
        const ImVec2 d = ImGui::GetMouseDragDelta(0, 0.0f);
        if (d.x * d.x + d.y * d.y < 9.0f) {
            s.select(s.pending_pick(mx, my));
            line_of_selection(s);  // the source panel lights the event's line
        }
    }
    ImGui::End();
    ImGui::PopStyleVar(2);
}

}  // namespace rl::lab
