// app/imgui/desktop.h — the lab bench as a desktop app: settings and ImGui's ini file in the XDG config folder,
// the window and last lesson restored when started from the menu, recent files, high-DPI scaling, the F1 window.
#pragma once
#include <string>
#include <vector>
#include "app/lab/lab_state.h"
#include "app/lab/options.h"

struct GLFWwindow;

namespace rl::lab {

// What the lab bench remembers between sessions ($XDG_CONFIG_HOME/reduction-lab/lab-bench.json).
struct DesktopSettings {
    int x = 0, y = 0, width = 0, height = 0;  // width 0: never saved
    bool maximized = false;
    std::string theme;                        // dark | light
    float font_scale = 0;                     // 0: never saved (then the monitor's content scale decides)
    std::string lesson;                       // the lesson open at the end of the last session
    std::vector<std::string> recent;          // "lesson:NAME" or "trace:FILE", newest first, at most 8
};

// $XDG_CONFIG_HOME/reduction-lab, else ~/.config/reduction-lab; empty when neither can be named.
std::string config_dir();
DesktopSettings load_desktop_settings(const std::string& file);  // defaults when missing or unreadable
std::string save_desktop_settings(const std::string& file, const DesktopSettings& d);  // an error line, or empty
// Puts `item` first in the recent list (once), keeping at most 8.
void remember_recent(DesktopSettings& d, const std::string& item);

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
