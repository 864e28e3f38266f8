// app/lab/desktop_settings.h — what the lab bench remembers between sessions, as a small JSON file in the XDG
// config folder (no toolkit here: app/imgui/desktop.cpp applies it to the GLFW window).
#pragma once
#include <string>
#include <vector>
#include "app/lab/user_dirs.h"

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

// The file lives in config_dir() (app/lab/user_dirs.h).
DesktopSettings load_desktop_settings(const std::string& file);  // defaults when missing or unreadable
std::string save_desktop_settings(const std::string& file, const DesktopSettings& d);  // an error line, or empty
// Puts `item` first in the recent list (once), keeping at most 8.
void remember_recent(DesktopSettings& d, const std::string& item);

}  // namespace rl::lab
