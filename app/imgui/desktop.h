// app/imgui/desktop.h — the lab bench as a desktop app: settings and ImGui's ini file in the XDG config folder,
// the window and last lesson restored when started from the menu, recent files, high-DPI scaling, the F1 window.
#pragma once
#include <string>
#include "app/lab/lab_state.h"
#include "app/lab/desktop_settings.h"
#include "app/lab/options.h"

struct GLFWwindow;

namespace rl::lab {

// The session as a desktop app. Started from the menu (no arguments) it reopens where the last one ended;
// scripted runs (--frames, --quit, --screenshot, --bench-frames) neither read nor write any settings.
class Desktop {
public:
    Desktop(int argc, const Options& o);
    // Before start_lab_bench: the remembered lesson, theme, font scale and size when started from the menu.
    void apply_to(Options& o) const;
    // After the window opened: its remembered place, ImGui's ini file, high-DPI font scale.
    void on_window(GLFWwindow* window, LabState& s);
    // At exit: the window's place, theme, font scale, lesson and recent files are saved.
    void on_exit(GLFWwindow* window, const LabState& s);
    // Help (F1): the keyboard shortcuts, recent files (click to open), About with the version.
    void help_window(LabState& s);

private:
    bool restore_ = false, persist_ = false, help_open_ = false;
    std::string dir_, ini_;
    DesktopSettings d_;
};

}  // namespace rl::lab
