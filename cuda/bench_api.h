// cuda/bench_api.h — host API of the GPU benchmark behind `rlab bench` (core types only).
#pragma once
#include <string>
#include "core/bench_report.h"

namespace rl::cuda {

// Measures the variants, sizes and cache modes `options` names. Each cell's result is checked
// against the exact answer before it is timed; a failed check is listed in BenchReport::failures
// and that cell is not timed. Throws rl::Error on bad options or a CUDA failure.
BenchReport run_bench(const BenchOptions& options);

// The fast path's launch shapes side by side (threads x loads in flight x blocks per SM) on the sums
// f32 at 2^log2_f32, the 67M bf16 worked example, f64 and i32 at 2^24 and f32 2^12 with a cold L2, each
// against CUB: how default_fast_config was chosen. A table.
std::string tune_fast_path(int log2_f32, int reps);

}  // namespace rl::cuda
