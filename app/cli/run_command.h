// app/cli/run_command.h — `rlab run FILE.cu`: a student's kernel run, recorded and checked.
#pragma once
#include <string>
#include "app/lab/kernel_request.h"

namespace rl::cli {

struct KernelRunArgs {
    lab::KernelSettings kernel;
    std::string format = "board";  // board | json | chrome
    std::string output;            // -o FILE; empty: standard output
    bool time = false;             // --time: the kernel timed on the GPU beside the fast path and CUB (app/cli/run_time.h)
};

CLI::App* add_run_command(CLI::App& app, KernelRunArgs& args);
// 0: the exact result and no hazard; 1: hazards, a wrong result, or a kernel that hung or ran out of time;
// 2: bad input or a compile error (diagnostics on stderr).
int run_run(const KernelRunArgs& args);

}  // namespace rl::cli
