// app/imgui/window.h — the GLFW window with Dear ImGui on it: open, restyle, close (the backends' Init/Shutdown shape).
#pragma once
#include <string>
#include "app/lab/lab_state.h"

struct GLFWwindow;

namespace rl::lab {

// An OpenGL 3.3 core window with ImGui's GLFW and OpenGL3 backends; nullptr and `error` (one line) when there is
// no display or no such context. `vsync` off for --bench-frames.
GLFWwindow* open_window(int width, int height, bool vsync, std::string& error);
// ImGui's fonts and colours for the state's theme and font scale, when they changed (font_dirty or the theme).
void restyle(LabState& s);
void close_window(GLFWwindow* window);

// Where the panels go in a window of ww x wh: left config and details, the canvas in the middle, depth and lesson
// or timings on the right, transport below the canvas. Sets s.canvas and draws every panel.
void place_panels(LabState& s, float ww, float wh);

}  // namespace rl::lab
