// app/imgui/window.cpp — GLFW and Dear ImGui set up and torn down, the style from the lab state, the panel layout.
#include "app/imgui/window.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/imgui/panels.h"
#include "app/render/glyph_atlas.h"

namespace rl::lab {

GLFWwindow* open_window(int width, int height, bool vsync, std::string& error) {
    if (!glfwInit()) {
        error = "no display (GLFW could not initialise); under CI run it with xvfb-run";
        return nullptr;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);                  // high DPI: the size is in screen units
    glfwWindowHintString(GLFW_X11_CLASS_NAME, "reduction-lab");         // the .desktop entry's StartupWMClass
    glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "reduction-lab");
    GLFWwindow* window = glfwCreateWindow(width, height, "Reduction Lab — lab bench", nullptr, nullptr);
    if (!window) {
        error = "cannot create an OpenGL 3.3 core window";
        glfwTerminate();
        return nullptr;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(vsync ? 1 : 0);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    return window;
}

const ImWchar* text_glyph_ranges() {
    // Latin-1, general punctuation (dashes, quotes, ellipsis), arrows and mathematical operators: what a student's
    // comments and the lessons' prose use besides ASCII (ImGui's default is Latin-1 alone, the rest drawn as '?').
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
    return ranges;
}

void restyle(LabState& s) {
    static bool styled = false, styled_dark = true;
    if (styled && !s.font_dirty && styled_dark == s.dark) return;
    styled = true;
    styled_dark = s.dark;
    s.font_dirty = false;
    static const std::string font = render::default_font_path();
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (!font.empty())
        io.Fonts->AddFontFromFileTTF(font.c_str(), std::round(16.0f * s.font_scale), nullptr, text_glyph_ranges());
    else
        io.Fonts->AddFontDefault();
    source_font() = add_source_font(s.font_scale);
    io.Fonts->Build();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    ImGuiStyle st;
    if (s.dark)
        ImGui::StyleColorsDark(&st);
    else
        ImGui::StyleColorsLight(&st);
    st.WindowRounding = 0.0f;
    st.FrameRounding = 3.0f;
    st.WindowBorderSize = 1.0f;
    st.ScaleAllSizes(s.font_scale);
    ImGui::GetStyle() = st;
}

void close_window(GLFWwindow* window) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
}

void place_panels(LabState& s, float ww, float wh) {
    const float fs = s.font_scale;
    const float L = std::min(320.0f * fs, ww * 0.3f), R = std::min(370.0f * fs, ww * 0.3f);
    const float B = ImGui::GetFrameHeightWithSpacing() * 2.0f + ImGui::GetStyle().WindowPadding.y * 2.0f;
    if (s.presenter) {  // F5: the room's view — the canvas (app/render/presenter.h), the lesson and the code beside it
        const bool lesson = s.lesson.active(), code = s.source_open;
        const float side = code ? std::max(R, ww * 0.38f) : lesson ? R : 0.0f;
        s.canvas = {0, 0, std::max(50.0f, ww - side), std::max(50.0f, wh - B)};
        handle_shortcuts(s);
        canvas_panel(s, s.canvas);
        const float lesson_h = lesson ? (code ? wh * 0.45f : wh) : 0.0f;
        if (lesson) lesson_panel(s, {ww - side, 0, side, lesson_h});
        if (code) source_panel(s, {ww - side, lesson_h, side, wh - lesson_h});
        transport_panel(s, {0, wh - B, s.canvas.w, B});
        return;
    }
    // The source panel takes the lower part of the middle column (full code lines; the canvas keeps its width).
    const float S = s.source_open ? std::round((wh - B) * 0.38f) : 0.0f;
    s.canvas = {L, 0, std::max(50.0f, ww - L - R), std::max(50.0f, wh - B - S)};
    handle_shortcuts(s);
    canvas_panel(s, s.canvas);
    if (s.kernel->active())
        kernel_panel(s, {0, 0, L, wh * 0.62f});
    else
        config_panel(s, {0, 0, L, wh * 0.62f});
    details_panel(s, {0, wh * 0.62f, L, wh * 0.38f});
    depth_panel(s, {ww - R, 0, R, wh * 0.46f});
    if (s.lesson.active()) lesson_panel(s, {ww - R, wh * 0.46f, R, wh * 0.54f});
    if (!s.lesson.active() || s.timings_large)  // enlarged, it covers the canvas, not the lesson
        timings_panel(s, {ww - R, wh * 0.46f, R, wh * 0.54f});
    if (s.numerics_open) numerics_panel(s, s.canvas);
    if (S > 0) source_panel(s, {L, s.canvas.h, s.canvas.w, S});
    transport_panel(s, {L, wh - B, s.canvas.w, B});
}

}  // namespace rl::lab
