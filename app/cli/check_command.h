// app/cli/check_command.h — `rlab check`: hazards in plain language (or JSON); exit 1 when there are any.
#pragma once
#include <cstdint>
#include <string>
#include "app/cli/schedule_run.h"
#include "app/lab/kernel_request.h"

namespace rl::cli {

struct CheckArgs {
    RunArgs run;
    uint32_t runs = 1;  // run this many times and count wrong results
    std::string trace_file;       // --trace FILE.json: check a saved trace by the rules alone
    std::string format = "text";  // text | json
    lab::KernelSettings kernel;   // FILE.cu: a student's kernel (its file, --time-limit; sizes from `run`)
};

CLI::App* add_check_command(CLI::App& app, CheckArgs& args);
int run_check(const CheckArgs& args);  // 0 clean, 1 hazards or a wrong result, 2 bad input

}  // namespace rl::cli
