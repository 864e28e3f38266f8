// app/cli/trace_command.cpp — `rlab trace`: the board in the terminal, or the trace as JSON or Chrome tracing.
#include "app/cli/trace_command.h"

#include <fstream>
#include <iostream>
#include <CLI/CLI.hpp>

#include "app/cli/board_view.h"
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/file_io.h"
#include "core/trace_io.h"

namespace rl::cli {

CLI::App* add_trace_command(CLI::App& app, TraceArgs& a) {
    auto* c = app.add_subcommand("trace", "run a schedule and print or export its trace");
    add_run_options(*c, a.run, true);
    c->add_option("--format", a.format, "text (the board), json, or chrome (Perfetto / chrome://tracing)")->capture_default_str();
    c->add_option("-o,--output", a.output, "write to FILE instead of standard output");
    return c;
}

int run_trace(const TraceArgs& a) {
    if (a.format != "text" && a.format != "json" && a.format != "chrome")
        throw Error("--format " + a.format + ": expected text, json or chrome");
    BackendRun run = run_schedule(a.run);
    auto write = [&](std::ostream& out) {
    if (a.format == "json") {
        write_trace_json(out, run.trace);
    } else if (a.format == "chrome") {
        write_chrome_trace(out, run.trace);
    } else {
        Analysis an = analyze(run.trace);
        print_header(out, run.trace);
        print_board(out, run.trace);
        print_result(out, run.trace, an);
        print_depth_table(out, run.trace, an);
        print_hazards(out, run.trace);
    }
    };
    if (a.output.empty()) {
        write(std::cout);
        flush_stdout_checked();
    } else {
        write_file_atomically(a.output, write);  // a failed write leaves no truncated file
    }
    if (!a.output.empty()) std::cerr << "rlab: wrote " << run.trace.events.size() << " events to " << a.output << "\n";
    return 0;
}

}  // namespace rl::cli
