// app/imgui/desktop.cpp — settings file and ImGui ini in the XDG config folder, window and last lesson restored,
// recent files, content-scale (high-DPI) fonts, and the F1 help window with the shortcuts and About.
#include "app/imgui/desktop.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/version.h"

namespace rl::lab {
namespace fs = std::filesystem;

Desktop::Desktop(int argc, const Options& o) {
    const bool scripted = o.frames > 0 || o.quit || !o.screenshot.empty() || !o.dump_scene.empty() || o.bench_frames > 0;
    dir_ = config_dir();
    persist_ = !scripted && !dir_.empty();
    restore_ = persist_ && argc <= 1;  // from the menu: where the last session ended; arguments mean what they say
    if (persist_) d_ = load_desktop_settings(dir_ + "/lab-bench.json");
}

void Desktop::apply_to(Options& o) const {
    if (!restore_) return;
    std::error_code ec;  // a lesson removed since is not reopened (the start would refuse it)
    if (!d_.lesson.empty() && fs::exists(find_lessons_dir() + "/" + d_.lesson + ".toml", ec)) o.lesson = d_.lesson;
    if (!d_.theme.empty()) o.theme = d_.theme;
    if (d_.font_scale > 0) o.font_scale = d_.font_scale;
    if (d_.width >= 320 && d_.height >= 240) o.width = d_.width, o.height = d_.height;
}

void Desktop::on_window(GLFWwindow* window, LabState& s) {
    if (persist_) {
        ini_ = dir_ + "/imgui.ini";
        ImGui::GetIO().IniFilename = ini_.c_str();  // read at the first frame, written at exit
    }
    if (restore_ && d_.width > 0) {
        glfwSetWindowPos(window, d_.x, d_.y);
        if (d_.maximized) glfwMaximizeWindow(window);
    }
    // High DPI: text follows the monitor's content scale unless a scale was chosen (--font-scale or remembered).
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window, &sx, &sy);
    const bool chosen = (restore_ && d_.font_scale > 0) || std::abs(s.font_scale - 1.0f) > 1e-3f;
    if (!chosen && sx > 1.01f) {
        s.font_scale = std::clamp(s.font_scale * sx, 0.5f, 3.0f);
        s.font_dirty = true;
    }
    if (persist_) {
        if (s.lesson.active()) remember_recent(d_, "lesson:" + s.lesson.lesson().name);
        if (!s.trace_file.empty()) remember_recent(d_, "trace:" + fs::absolute(s.trace_file).string());
    }
}

void Desktop::on_exit(GLFWwindow* window, const LabState& s) {
    if (!persist_) return;
    d_.maximized = glfwGetWindowAttrib(window, GLFW_MAXIMIZED) == GLFW_TRUE;
    if (!d_.maximized) {
        glfwGetWindowPos(window, &d_.x, &d_.y);
        glfwGetWindowSize(window, &d_.width, &d_.height);
    }
    d_.theme = s.dark ? "dark" : "light";
    d_.font_scale = s.font_scale;
    d_.lesson = s.lesson.active() ? s.lesson.lesson().name : "";
    save_desktop_settings(dir_ + "/lab-bench.json", d_);  // best effort: a read-only home loses only the settings
}

namespace {

// The lab bench's keys, as handle_shortcuts (panel_common.cpp) and the canvas (panel_canvas.cpp) read them.
constexpr const char* kShortcuts[][2] = {
    {"Space", "play / pause (at the end: replay)"},
    {"Right / Left", "next / previous step"},
    {"Home / End", "first / last step"},
    {"Page Down / Page Up", "next / previous lesson step"},
    {"1 - 4", "answer the lesson step's knowledge check (graded at once)"},
    {"G", "the lesson step's recorded GPU trace / the emulator's"},
    {"F5", "presenter view: large text, the canvas follows the step"},
    {"H", "next hazard"},
    {"T", "time view of a GPU trace (warps at their timestamps)"},
    {"N", "numerics: the comparison of orders"},
    {"S", "show / hide the CUDA source panel"},
    {"D", "diff: a bug's lines against the clean kernel"},
    {"Click a source line", "mark the events it produced in the canvas"},
    {"Ctrl+O", "open a kernel: the path field"},
    {"Ctrl+E", "edit your kernel in the source panel / back to the lit lines"},
    {"Ctrl+S", "save the edited kernel and run it"},
    {"Ctrl+T", "time your kernel on the GPU beside the fast path and CUB (the timings panel)"},
    {"F", "fit the view to the canvas"},
    {"Esc", "clear the selection"},
    {"Ctrl + / Ctrl - / Ctrl 0", "larger / smaller / normal text"},
    {"Mouse wheel", "zoom the canvas"},
    {"Drag", "pan the canvas"},
    {"Click", "select an event: its details and dependency cone"},
    {"F1", "this help"},
};

}  // namespace

void Desktop::help_window(LabState& s) {
    if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_F1, false)) help_open_ = !help_open_;
    if (!help_open_) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(560 * s.font_scale, 0), ImGuiCond_Appearing);
    if (!ImGui::Begin("Help (F1)", &help_open_, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ImGui::Text("Reduction Lab bench %s", rl::version());
    ImGui::TextWrapped("Watch a GPU reduction schedule run step by step, on a CUDA GPU or the CPU emulator. "
                       "Also installed: reduction-lab-qt (the classroom) and rlab (the command line); "
                       "`man reduction-lab` lists every option.");
    ImGui::Text("Backend: %s", s.backend_line().c_str());
    ImGui::Separator();
    ImGui::TextUnformatted("Keyboard and mouse");
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const auto& k : kShortcuts) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k[1]);
        }
        ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Recent (click to open)");
    if (d_.recent.empty()) ImGui::TextDisabled(persist_ ? "nothing opened yet" : "not kept in scripted runs");
    for (const std::string& r : d_.recent) {
        const bool lesson = r.rfind("lesson:", 0) == 0;
        const std::string what = r.substr(r.find(':') + 1);
        if (!ImGui::Selectable(((lesson ? "lesson  " : "trace   ") + what).c_str())) continue;
        if (lesson) {
            s.error = s.lesson.open(what);
            if (s.error.empty()) s.lesson.go(s, 0);
        } else if (s.load_trace(what)) {
            s.finish_analysis();
        }
        if (s.error.empty()) {
            remember_recent(d_, r);
            break;  // the list changed under the loop
        }
    }
    ImGui::End();
}

}  // namespace rl::lab
