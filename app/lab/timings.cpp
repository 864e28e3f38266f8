// app/lab/timings.cpp — finds and loads recorded bench results (core/bench_report), labels them for the views.
#include "app/lab/timings.h"

#include <cstdlib>
#include <filesystem>
#include "app/render/timings_plot.h"
#include "core/emulator.h"  // rl::Error

namespace rl::lab {
namespace {

// The expected recorded file's name, for the empty state (the GPU run of 2026-11-29 writes it).
constexpr const char* kExpected = "docs/bench/h200-2026-11-29.json";

}  // namespace

Timings load_timings(const std::string& given_file) {
    Timings t;
    std::string path = given_file;
    if (path.empty()) {
        const DataSearch found = search_recorded_bench();
        t.searched = found.searched;
        path = found.found;
    } else {
        t.searched.push_back("--bench-file " + given_file);
    }
    if (path.empty()) return t;
    t.file = path;
    try {
        t.report = load_bench_file(path);
        t.loaded = true;
    } catch (const Error& e) {
        t.error = e.what();
    }
    return t;
}

Timings measured_timings(BenchReport r) {
    Timings t;
    t.report = std::move(r);
    t.loaded = true;
    t.fresh = true;
    return t;
}

std::string timings_heading(const Timings& t) {
    const BenchReport& r = t.report;
    std::string h = t.fresh ? "measured now on " + r.device : "recorded results · " + r.device;
    h += " · " + render::date_text(r.date);
    if (!r.driver.empty()) h += " · driver " + r.driver;
    if (!t.fresh && !t.file.empty()) h += " · " + std::filesystem::path(t.file).filename().string();
    return h;
}

std::vector<std::string> timings_empty_lines(const Timings& t) {
    std::vector<std::string> lines;
    if (!t.error.empty()) {
        lines.push_back("Could not read the recorded results in " + t.file + ":");
        lines.push_back(t.error);
        return lines;
    }
    lines.push_back("No recorded results yet: nothing is plotted until a GPU has measured it.");
    lines.push_back(std::string("Expected: ") + kExpected + " (written by `rlab bench --json` on the GPU machine).");
    lines.push_back("Looked in:");
    for (const std::string& s : t.searched) lines.push_back("  " + s);
    lines.push_back("Or open a file with --bench-file FILE (or RLAB_BENCH_FILE=FILE).");
    return lines;
}

std::string load_kernel_timing(Timings& t, const std::string& path) {
    try {
        t.kernel = load_kernel_timing_file(path);
        t.kernel_file = path;
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

std::string kernel_timing_heading(const KernelTiming& k) {
    std::string h = "Your kernel timed on " + k.device + " · " + render::date_text(k.date) + " · " + k.op + " over " +
                    k.dtype + ", n " + render::size_text(k.n);
    if (!k.file.empty()) h += " · " + std::filesystem::path(k.file).filename().string();
    return h;
}

}  // namespace rl::lab
