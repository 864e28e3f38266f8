// app/imgui/panel_common.cpp — fixed panel placement and the keyboard shortcuts shared by every panel.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/imgui/panels.h"
#include "app/lab/source_view.h"

namespace rl::lab {

bool begin_fixed(const char* name, const Rect& r, int extra_flags) {
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
    return ImGui::Begin(name, nullptr,
                        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                            ImGuiWindowFlags_NoSavedSettings | extra_flags);
}

void handle_shortcuts(LabState& s) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    const bool ctrl = io.KeyCtrl;
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))) {
        s.font_scale = std::min(3.0f, s.font_scale + 0.25f);
        s.font_dirty = true;
        s.view_fitted = false;
    }
    if (ctrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))) {
        s.font_scale = std::max(0.75f, s.font_scale - 0.25f);
        s.font_dirty = true;
        s.view_fitted = false;
    }
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) focus_kernel_path();  // Open kernel: the path field
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_E, false)) toggle_kernel_editor(s);  // the kernel's editor, in and out
    // Time on GPU: the timings panel shows its progress, its rows or why it could not run (no kernel open, no GPU).
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_T, false) && !s.time_job->running()) s.start_kernel_timing();
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_S, false) && s.kernel_editor.editing && s.kernel->active())
        s.kernel_editor.save(*s.kernel);  // the editor without focus (inside it, panel_kernel_edit.cpp reads the key)
    if (ctrl && ImGui::IsKeyPressed(GLFW_KEY_0)) {
        s.font_scale = 1.0f;
        s.font_dirty = true;
        s.view_fitted = false;
    }
    if (ctrl) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
        if (!s.playing && s.cursor.step >= s.last() && s.cursor.t >= 1.0f) s.set_step(0);  // replay from the start
        s.playing = !s.playing;
    }
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) s.step_forward();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) s.step_back();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) s.playing = false, s.set_step(0);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) s.playing = false, s.set_step(s.last());
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) s.jump_next_hazard();
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) s.view_fitted = false;
    if (ImGui::IsKeyPressed(GLFW_KEY_F5, false)) s.presenter = !s.presenter, s.view_fitted = false;  // the room's view
    if (ImGui::IsKeyPressed(GLFW_KEY_T, false)) s.set_time_view(!s.time_view);
    if (ImGui::IsKeyPressed(GLFW_KEY_N, false)) s.numerics_open = !s.numerics_open;
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) s.source_open = !s.source_open;
    if (ImGui::IsKeyPressed(GLFW_KEY_D, false)) s.source_diff = !s.source_diff;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) pick_line(s, 0);  // no selection, no marked line
    // A lesson: Page Down / Page Up move between its steps.
    if (!s.lesson.active()) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown), false)) s.lesson.go(s, s.lesson.current() + 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp), false) && s.lesson.current() > 0)
        s.lesson.go(s, s.lesson.current() - 1);
    // G: the step's recorded GPU trace (lessons/recorded) against the emulator's.
    if (ImGui::IsKeyPressed(GLFW_KEY_G, false) && s.lesson.recorded().any()) {
        s.lesson.show_recorded = !s.lesson.show_recorded;
        s.lesson.go(s, s.lesson.current());
    }
    // Keys 1-4 pick a choice of the step's knowledge check (graded in the lesson panel).
    for (int k = 0; k < 4; ++k)
        if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) s.lesson.pick(size_t(k));
}

}  // namespace rl::lab
