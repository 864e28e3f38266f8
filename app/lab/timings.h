// app/lab/timings.h — which bench results the timings views show: a recorded file or a fresh measurement.
// Parsing and analysis are core/bench_report's.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/bench_report.h"
#include "core/kernel_timing.h"

namespace rl::lab {

struct Timings {
    BenchReport report;
    bool loaded = false;
    bool fresh = false;                 // measured in this session (not read from a file)
    std::string file;                   // the file read; empty for a fresh measurement
    std::string error;                  // one line: a file was found but could not be read
    std::vector<std::string> searched;  // where recorded results were looked for (the empty state names them)
    std::string cache = "warm";         // the cache mode shown: warm, or cold when the report has it
    std::optional<KernelTiming> kernel; // a student's kernel timed beside the fast path and CUB (--kernel-timing FILE)
    std::string kernel_file;            // the file it was read from
};

// Reads a saved `rlab run --time --format json` into t.kernel; "" or the one-line reason it could not.
std::string load_kernel_timing(Timings& t, const std::string& path);
// The line over the three rows: "Your kernel on NVIDIA H200 · 2026-12-03 18:00 UTC · i32 sum, n 16,777,216 · FILE".
std::string kernel_timing_heading(const KernelTiming& k);

// The file given (--bench-file), else core/data_paths search_recorded_bench: $RLAB_BENCH_FILE, else the newest
// docs/bench/*.json installed next to the binary, else in the source tree. Never fabricates: no file, no numbers.
Timings load_timings(const std::string& given_file = "");
// Results just measured by run_gpu_bench.
Timings measured_timings(BenchReport r);

// One line over the plot: "recorded results · NVIDIA H200 · 2026-11-29 20:10 UTC · docs/bench/h200-….json" or
// "measured now on NVIDIA H200 · …".
std::string timings_heading(const Timings& t);
// The empty state: what is missing and where it was looked for (several lines).
std::vector<std::string> timings_empty_lines(const Timings& t);

}  // namespace rl::lab
