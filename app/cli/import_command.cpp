// app/cli/import_command.cpp — `rlab import`: reads a saved trace, checks it parses, prints its summary.
#include "app/cli/import_command.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "app/cli/board_view.h"
#include "app/cli/schedule_run.h"
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/trace_io.h"

namespace rl::cli {

CLI::App* add_import_command(CLI::App& app, std::string& file) {
    auto* c = app.add_subcommand("import", "validate a trace JSON file and print its summary");
    c->add_option("FILE", file, "trace JSON written by rlab trace --format json")->required();
    return c;
}

int run_import(const std::string& file) {
    Trace t = read_trace_file(file);
    Analysis an = analyze(t);
    std::cout << file << ": valid trace, version " << kTraceJsonVersion << ", " << t.events.size() << " events, "
              << t.hazards.size() << " hazard(s)" << (t.notes.empty() ? "" : ", " + std::to_string(t.notes.size()) + " note(s)")
              << (t.times.empty() ? "" : ", with GPU timestamps") << "\n";
    print_header(std::cout, t);
    print_result(std::cout, t, an);
    print_depth_table(std::cout, t, an);
    return 0;
}

}  // namespace rl::cli
