// app/cli/depth_command.cpp — `rlab depth`: the depth table of one schedule's trace.
#include "app/cli/depth_command.h"

#include <iostream>
#include <CLI/CLI.hpp>

#include "app/cli/board_view.h"
#include "core/analysis.h"

namespace rl::cli {

CLI::App* add_depth_command(CLI::App& app, RunArgs& a) {
    auto* c = app.add_subcommand("depth", "serial chain vs ideal tree vs this schedule's span, per scope");
    add_run_options(*c, a, false);
    return c;
}

int run_depth(const RunArgs& a) {
    BackendRun run = run_schedule(a);
    Analysis an = analyze(run.trace);
    print_header(std::cout, run.trace);
    print_depth_table(std::cout, run.trace, an);
    return 0;
}

}  // namespace rl::cli
