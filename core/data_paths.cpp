// core/data_paths.cpp — finds lessons, recorded bench results and the font next to the binary, in the source
// tree, or where an environment variable says; reports every place it looked.
#include "core/data_paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace rl {
namespace fs = std::filesystem;
namespace {

// The value of an environment variable that is set and not empty.
const char* env_value(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

// The newest (by name: files are named DEVICE-DATE) *.json in `dir`, or empty.
std::string newest_json(const fs::path& dir) {
    std::error_code ec;
    std::vector<std::string> files;
    if (!fs::is_directory(dir, ec)) return {};
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    return files.empty() ? std::string() : *std::max_element(files.begin(), files.end());
}

}  // namespace

std::string DataSearch::not_found(const std::string& what) const {
    std::string s = "no " + what + " found; looked in: ";
    for (size_t k = 0; k < searched.size(); ++k) s += (k ? "; " : "") + searched[k];
    return s;
}

std::string executable_path() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.string();
}

std::vector<std::string> data_roots(const std::string& exe_path) {
    std::error_code ec;
    fs::path exe = exe_path.empty() ? fs::path(executable_path()) : fs::path(exe_path);
    if (exe.empty()) return {};
    exe = fs::absolute(exe, ec).lexically_normal();
    // Installed: PREFIX/bin/rlab -> PREFIX/share/reduction-lab (relative, so any prefix and a moved tree work).
    std::vector<std::string> roots{(exe.parent_path().parent_path() / "share" / "reduction-lab").string()};
    // Not installed: the first folder above the binary that looks like the source tree.
    for (fs::path p = exe.parent_path(); !p.empty(); p = p.parent_path()) {
        if (fs::exists(p / "lessons" / "README.md", ec) && fs::exists(p / "CMakeLists.txt", ec)) {
            roots.push_back(p.string());
            break;
        }
        if (p == p.parent_path()) break;
    }
    return roots;
}

namespace {

// Fills `s` from the environment variable when set, else from ROOT/sub of the first data root where
// `pick(ROOT/sub)` finds something; every place looked goes into s.searched.
template <class Pick>
DataSearch search_roots(const char* env_name, const std::string& exe, const fs::path& sub, const std::string& shown,
                        Pick pick) {
    DataSearch s;
    if (const char* env = env_value(env_name)) {
        s.found = env;
        s.searched.push_back(std::string("$") + env_name + " = " + env);
        return s;
    }
    s.searched.push_back(std::string("$") + env_name + " (not set)");
    const std::vector<std::string> roots = data_roots(exe);
    for (const std::string& root : roots) {
        s.searched.push_back(((fs::path(root) / sub).string() + shown));
        if (std::string f = pick(fs::path(root) / sub); !f.empty()) {
            s.found = f;
            return s;
        }
    }
    if (roots.size() < 2)
        s.searched.push_back("no source tree above " + (exe.empty() ? executable_path() : exe));
    return s;
}

}  // namespace

DataSearch search_lessons_dir(const std::string& exe) {
    return search_roots("RLAB_LESSONS_DIR", exe, "lessons", "/", [](const fs::path& dir) {
        std::error_code ec;
        return fs::is_directory(dir, ec) ? dir.string() : std::string();
    });
}

std::string find_lessons_dir(const std::string& exe) { return search_lessons_dir(exe).found; }

DataSearch search_recorded_bench(const std::string& exe) {
    return search_roots("RLAB_BENCH_FILE", exe, fs::path("docs") / "bench", "/*.json", newest_json);
}

std::string find_recorded_bench(const std::string& start_dir) {
    if (const char* env = env_value("RLAB_BENCH_FILE")) return env;
    std::error_code ec;
    fs::path dir = fs::absolute(start_dir, ec);
    for (int depth = 0; depth < 8 && !dir.empty(); ++depth) {
        if (std::string f = newest_json(dir / "docs" / "bench"); !f.empty()) return f;
        if (dir == dir.parent_path()) break;
        dir = dir.parent_path();
    }
    return "";
}

DataSearch search_font() {
    DataSearch s;
    if (const char* env = env_value("RLAB_FONT")) {
        s.found = env;
        s.searched.push_back(std::string("$RLAB_FONT = ") + env);
        return s;
    }
    s.searched.push_back("$RLAB_FONT (not set)");
    std::error_code ec;
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                          "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
        s.searched.push_back(p);
        if (fs::is_regular_file(p, ec)) {
            s.found = p;
            return s;
        }
    }
    return s;
}

}  // namespace rl
