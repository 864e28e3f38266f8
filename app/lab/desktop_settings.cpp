// app/lab/desktop_settings.cpp — the lab bench's settings file: where it lives, reading it (forgiving: a damaged
// file means defaults), writing it, and the recent-files list.
#include "app/lab/desktop_settings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include "core/error.h"
#include "core/file_io.h"
#include "core/limits.h"

namespace rl::lab {
namespace fs = std::filesystem;

DesktopSettings load_desktop_settings(const std::string& file) {
    DesktopSettings d;
    std::string text;
    try {
        text = read_text_file(file, "settings", limits::kSettingsFileBytes);
        check_json_nesting(text, "settings", limits::kJsonDepth);
    } catch (const Error&) {
        return d;  // missing, damaged or hostile: start afresh rather than refuse to open
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) return d;  // a damaged file: start afresh rather than refuse to open
    try {
    d.x = j.value("x", 0);
    d.y = j.value("y", 0);
    d.width = std::clamp(j.value("width", 0), 0, 16384);
    d.height = std::clamp(j.value("height", 0), 0, 16384);
    d.maximized = j.value("maximized", false);
    d.theme = j.value("theme", std::string());
    if (d.theme != "dark" && d.theme != "light") d.theme.clear();
    d.font_scale = j.value("font_scale", 0.0f);
    d.lesson = j.value("lesson", std::string());
    if (j.contains("recent") && j["recent"].is_array())
        for (const auto& r : j["recent"])
            if (r.is_string() && d.recent.size() < 8) d.recent.push_back(r.get<std::string>());
    } catch (const nlohmann::json::exception&) {
        return DesktopSettings{};  // a field of the wrong type: defaults, as for a damaged file
    }
    return d;
}

std::string save_desktop_settings(const std::string& file, const DesktopSettings& d) {
    std::error_code ec;
    fs::create_directories(fs::path(file).parent_path(), ec);
    const nlohmann::json j = {{"x", d.x},           {"y", d.y},         {"width", d.width},
                              {"height", d.height}, {"maximized", d.maximized},
                              {"theme", d.theme},   {"font_scale", d.font_scale},
                              {"lesson", d.lesson}, {"recent", d.recent}};
    try {
        write_file_atomically(file, j.dump(2) + "\n");
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

void remember_recent(DesktopSettings& d, const std::string& item) {
    d.recent.erase(std::remove(d.recent.begin(), d.recent.end(), item), d.recent.end());
    d.recent.insert(d.recent.begin(), item);
    if (d.recent.size() > 8) d.recent.resize(8);
}

}  // namespace rl::lab
