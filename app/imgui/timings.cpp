// app/imgui/timings.cpp — parses bench JSON ({"device", "date", "results": [{variant, dtype, n, median_us}]}).
#include "app/imgui/timings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace rl::lab {
namespace {

bool read_set(const std::string& path, TimingSet& out) {
    std::ifstream in(path);
    if (!in) return false;
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("results") || !j["results"].is_array()) return false;
    out.file = path;
    out.device = j.value("device", std::string("unknown device"));
    out.date = j.value("date", std::string("unknown date"));
    std::map<std::pair<std::string, std::string>, TimingSeries> by;
    for (const auto& r : j["results"]) {
        if (!r.is_object() || !r.contains("n") || !r.contains("median_us")) continue;
        const std::string v = r.value("variant", std::string("?")), d = r.value("dtype", std::string("f32"));
        TimingSeries& s = by[{v, d}];
        s.variant = v;
        s.dtype = d;
        s.points.push_back({r["n"].get<double>(), r["median_us"].get<double>()});
    }
    for (auto& [k, s] : by) {
        std::sort(s.points.begin(), s.points.end(), [](auto& a, auto& b) { return a.n < b.n; });
        out.series.push_back(std::move(s));
    }
    return !out.series.empty();
}

}  // namespace

Timings load_timings(const std::vector<std::string>& files) {
    Timings t;
    std::vector<std::string> paths = files;
    if (paths.empty()) {
        namespace fs = std::filesystem;
        for (std::string root : {std::string("."), std::string(RLAB_SOURCE_DIR)})
            for (const char* sub : {"docs/measurements", "docs/bench"}) {
                fs::path dir = fs::path(root) / sub;
                t.searched.push_back(dir.lexically_normal().string());
                std::error_code ec;
                for (const auto& e : fs::directory_iterator(dir, ec))
                    if (e.path().extension() == ".json") paths.push_back(fs::weakly_canonical(e.path(), ec).string());
            }
        std::sort(paths.begin(), paths.end());
        paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    }
    for (const std::string& p : paths) {
        TimingSet s;
        if (read_set(p, s)) t.sets.push_back(std::move(s));
    }
    return t;
}

}  // namespace rl::lab
