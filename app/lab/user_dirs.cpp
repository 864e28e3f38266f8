// app/lab/user_dirs.cpp — the XDG base directories the front ends write to (relative values are ignored, as the
// XDG spec says).
#include "app/lab/user_dirs.h"

#include <cstdlib>

namespace rl::lab {
namespace {

std::string xdg_dir(const char* variable, const char* home_relative) {
    if (const char* x = std::getenv(variable); x && *x == '/') return std::string(x) + "/reduction-lab";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + home_relative + "/reduction-lab";
    return {};
}

}  // namespace

std::string config_dir() { return xdg_dir("XDG_CONFIG_HOME", "/.config"); }
std::string data_dir() { return xdg_dir("XDG_DATA_HOME", "/.local/share"); }

}  // namespace rl::lab
