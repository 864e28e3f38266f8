// app/backend/bench_runner.h — measures the bench matrix on the GPU when one is usable.
// Front ends and rlab call this; only core types cross it, so callers need no CUDA headers.
#pragma once
#include <string>
#include "core/bench_report.h"  // BenchOptions, BenchReport

namespace rl {

// Whether run_gpu_bench can run here; `reason` says why not in one line.
bool gpu_bench_available(std::string* reason = nullptr);

// Checks every variant's result against a higher-precision reference, then times it. Throws
// rl::Error (one line) on bad options, a failed check or a CUDA failure; without a GPU, throws
// the reason from gpu_bench_available.
BenchReport run_gpu_bench(const BenchOptions& options);

}  // namespace rl
