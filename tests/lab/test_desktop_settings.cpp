// tests/lab/test_desktop_settings.cpp — the lab bench's settings file: XDG folder, round trip, damaged files give
// defaults, the recent list (newest first, once, at most 8).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "app/lab/desktop_settings.h"

namespace fs = std::filesystem;
using namespace rl::lab;

TEST_CASE("desktop settings: the XDG config folder, else ~/.config") {
    const char* home = std::getenv("HOME");
    const std::string saved_home = home ? home : "";
    ::setenv("XDG_CONFIG_HOME", "/x/config", 1);
    CHECK(config_dir() == "/x/config/reduction-lab");
    ::setenv("XDG_CONFIG_HOME", "relative/not/allowed", 1);  // the XDG spec: relative paths are ignored
    ::setenv("HOME", "/home/student", 1);
    CHECK(config_dir() == "/home/student/.config/reduction-lab");
    ::unsetenv("XDG_CONFIG_HOME");
    CHECK(config_dir() == "/home/student/.config/reduction-lab");
    if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

TEST_CASE("desktop settings: saved and read back; missing or damaged files give the defaults") {
    const fs::path dir = fs::temp_directory_path() / ("rlab-desktop-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const std::string file = (dir / "sub" / "lab-bench.json").string();  // folders are made as needed
    CHECK(load_desktop_settings(file).width == 0);
    DesktopSettings d;
    d.x = 40, d.y = 30, d.width = 1280, d.height = 720, d.maximized = true;
    d.theme = "light", d.font_scale = 1.5f, d.lesson = "warp-shuffle";
    d.recent = {"lesson:warp-shuffle", "trace:/tmp/t.json"};
    REQUIRE(save_desktop_settings(file, d).empty());
    const DesktopSettings r = load_desktop_settings(file);
    CHECK(r.x == 40);
    CHECK(r.y == 30);
    CHECK(r.width == 1280);
    CHECK(r.height == 720);
    CHECK(r.maximized);
    CHECK(r.theme == "light");
    CHECK(r.font_scale == doctest::Approx(1.5));
    CHECK(r.lesson == "warp-shuffle");
    CHECK(r.recent == d.recent);
    std::ofstream(file) << "{ not json";
    CHECK(load_desktop_settings(file).lesson.empty());
    std::ofstream(file) << R"({"theme": "purple", "width": -5})";
    const DesktopSettings bad = load_desktop_settings(file);
    CHECK(bad.theme.empty());
    CHECK(bad.width == 0);
    fs::remove_all(dir);
}

TEST_CASE("desktop settings: recent files newest first, each once, at most 8") {
    DesktopSettings d;
    for (int k = 0; k < 10; ++k) remember_recent(d, "lesson:l" + std::to_string(k));
    REQUIRE(d.recent.size() == 8);
    CHECK(d.recent.front() == "lesson:l9");
    CHECK(d.recent.back() == "lesson:l2");
    remember_recent(d, "lesson:l5");
    CHECK(d.recent.front() == "lesson:l5");
    CHECK(std::count(d.recent.begin(), d.recent.end(), "lesson:l5") == 1);
    CHECK(d.recent.size() == 8);
}
