// app/cli/run_time.h — `rlab run FILE.cu --backend cuda --time`: the kernel (or --launch plan) of a plain CUDA file timed
// uninstrumented on the GPU beside the fast path and CUB on the same input, as rows like rlab bench's, or as JSON.
#pragma once
#include "app/cli/run_command.h"
#include "core/kernel_timing.h"

namespace rl::cli {

// The request for the GPU timer from rlab run's flags: the file's text, the plan (--launch, else the contract's one
// launch of --kernel or the file's only kernel), n, input and operator. Throws rl::Error (one line) for bad input.
KernelTimingRequest timing_request(const lab::KernelSettings& k);

// 0: every timed repetition of the three rows returned the reference; 1: a wrong result, or the kernel failed or hung
// on the GPU; 2: bad input, a compile error, or no GPU to time on (one line naming what --time needs).
int run_timed(const KernelRunArgs& args);

}  // namespace rl::cli
