// app/cli/trace_command.h — `rlab trace`: run a schedule and print its board or export its trace.
#pragma once
#include <string>
#include "app/cli/schedule_run.h"

namespace rl::cli {

struct TraceArgs {
    RunArgs run;
    std::string format = "text";  // text | json | chrome
    std::string output;           // -o FILE; empty: standard output
};

CLI::App* add_trace_command(CLI::App& app, TraceArgs& args);
int run_trace(const TraceArgs& args);  // 0, or 2 on bad input (thrown as rl::Error)

}  // namespace rl::cli
