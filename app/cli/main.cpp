// app/cli/main.cpp — rlab: the headless command line. Exit codes: 0 ok, 1 hazards (check), 2 bad input.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <vector>

#include "app/cli/bench_command.h"
#include "app/cli/check_command.h"
#include "app/cli/depth_command.h"
#include "app/cli/eight_threads.h"
#include "app/cli/import_command.h"
#include "app/cli/kernel_command.h"
#include "app/cli/lessons_command.h"
#include "app/cli/numerics_command.h"
#include "app/cli/run_command.h"
#include "app/cli/schedule_run.h"
#include "app/cli/trace_command.h"
#ifdef RLAB_HAVE_RENDER
#include "app/cli/render_command.h"
#endif
#include "codegen/lesson_lines.h"
#include "core/emulator.h"
#include "core/file_io.h"
#include "core/version.h"

namespace {

// A subcommand as parsed, and how it runs.
struct Command {
    CLI::App* parsed;
    std::function<int()> run;
};

template <class Args, class Add, class Run>
Command command(CLI::App& app, Args& args, Add add, Run run) {
    return {add(app, args), [&args, run] { return run(args); }};
}

}  // namespace

int main(int argc, char** argv) {
    using namespace rl::cli;
    rl::guard_closed_stdout();
    CLI::App app{"rlab — Reduction Lab on the command line: trace, analyse and check GPU reduction schedules.\n"
                 "With no command it shows the eight-thread example."};
    app.set_help_all_flag("--help-all", "help for every command");
    app.set_version_flag("--version", rl::version_line("rlab"));

    TraceArgs trace;
    RunArgs depth;
    CheckArgs check;
    std::string import;
    BenchArgs bench;
    LessonsArgs lessons;
    NumericsArgs numerics;
    KernelArgs kernel;
    KernelRunArgs run;
    std::vector<Command> commands{command(app, trace, add_trace_command, run_trace),
                                  command(app, depth, add_depth_command, run_depth),
                                  command(app, check, add_check_command, run_check),
                                  command(app, import, add_import_command, run_import),
                                  command(app, bench, add_bench_command, run_bench),
                                  command(app, lessons, add_lessons_command, run_lessons),
                                  command(app, numerics, add_numerics_command, run_numerics),
                                  command(app, kernel, add_kernel_command, run_kernel),
                                  command(app, run, add_run_command, run_run)};
#ifdef RLAB_HAVE_RENDER
    RenderArgs render;
    commands.push_back(command(app, render, add_render_command, run_render));
#endif

    rl::install_lesson_lines();  // lessons' {line:SITE} placeholders (core knows no generator)
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "rlab: " << rl::one_line(e.what()) << " (see rlab --help)\n";
        return 2;
    }
    try {
        int rc = -1;
        for (const Command& c : commands)
            if (rc < 0 && *c.parsed) rc = c.run();
        if (rc < 0) rc = run_eight_threads();
        rl::flush_stdout_checked();  // a full or closed standard output is an error, not a silent exit 0
        if (!deferred_note().empty()) std::cerr << "rlab: " << deferred_note() << "\n";
        return rc;
    } catch (const rl::DeviceHung& e) {
        // The hung kernel holds the GPU: a normal exit would wait for it forever.
        std::cerr << "rlab: " << e.what() << "\n" << std::flush;
        std::_Exit(2);
    } catch (const rl::Error& e) {
        std::cerr << "rlab: " << rl::one_line(e.what()) << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "rlab: out of memory; use a smaller --n\n";
        return 2;
    } catch (const std::exception& e) {  // anything else still ends as one line and exit 2, never an abort
        std::cerr << "rlab: " << rl::one_line(e.what()) << "\n";
        return 2;
    }
}
