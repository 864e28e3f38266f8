// app/cli/kernel_command.h — `rlab kernel`: the CUDA source of exactly one schedule.
#pragma once
#include <string>

#include "app/lab/schedule_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace rl::cli {

struct KernelArgs {
    lab::ScheduleArgs schedule;
    std::string output;    // -o FILE.cu; empty: standard output
    bool harness = false;  // add a main() that runs it
};

CLI::App* add_kernel_command(CLI::App& app, KernelArgs& args);
int run_kernel(const KernelArgs& args);  // 0, or 2 on bad input (thrown as rl::Error)

}  // namespace rl::cli
