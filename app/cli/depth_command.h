// app/cli/depth_command.h — `rlab depth`: serial chain vs ideal tree vs this schedule's span, per scope.
#pragma once
#include "app/cli/schedule_run.h"

namespace rl::cli {

CLI::App* add_depth_command(CLI::App& app, RunArgs& args);
int run_depth(const RunArgs& args);  // 0, or 2 on bad input (thrown as rl::Error)

}  // namespace rl::cli
