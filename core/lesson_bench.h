// core/lesson_bench.h — lesson quantities read from recorded benchmark results (the bench_* names),
// so that a lesson states measured timings without a typed number.
#pragma once
#include <string>
#include <vector>
#include "core/bench_report.h"
#include "core/lesson.h"

namespace rl {

// The bench_* names a placeholder or expectation may use (listed in lessons/README.md).
const std::vector<std::string>& bench_quantity_names();

// Every bench_* quantity the report has data for (f32 sums and the bf16 worked example, warm cache).
Quantities bench_quantities(const BenchReport& r);

// The bench_* quantities of the recorded results nearest a lesson file (docs/bench/*.json above it,
// or $RLAB_BENCH_FILE), loaded and computed once per folder; null when there are none or they do not load.
const Quantities* recorded_bench_quantities(const std::string& lesson_file);

}  // namespace rl
