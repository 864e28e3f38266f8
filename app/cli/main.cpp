// app/cli/main.cpp — rlab: the headless command line. Exit codes: 0 ok, 1 hazards (check), 2 bad input.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "app/cli/bench_command.h"
#include "app/cli/check_command.h"
#include "app/cli/depth_command.h"
#include "app/cli/eight_threads.h"
#include "app/cli/import_command.h"
#include "app/cli/lessons_command.h"
#include "app/cli/numerics_command.h"
#include "app/cli/trace_command.h"
#ifdef RLAB_HAVE_RENDER
#include "app/cli/render_command.h"
#endif
#include "core/emulator.h"
#include "core/version.h"

int main(int argc, char** argv) {
    using namespace rl::cli;
    CLI::App app{"rlab — Reduction Lab on the command line: trace, analyse and check GPU reduction schedules.\n"
                 "With no command it shows the eight-thread example."};
    app.set_help_all_flag("--help-all", "help for every command");
    app.set_version_flag("--version", rl::version_line("rlab"));

    TraceArgs trace_args;
    auto* trace = add_trace_command(app, trace_args);
    RunArgs depth_args;
    auto* depth = add_depth_command(app, depth_args);
    CheckArgs check_args;
    auto* check = add_check_command(app, check_args);
    std::string import_file;
    auto* import = add_import_command(app, import_file);

    BenchArgs bench_args;
    auto* bench = add_bench_command(app, bench_args);

    LessonsArgs lessons_args;
    auto* lessons = add_lessons_command(app, lessons_args);

    NumericsArgs numerics_args;
    auto* numerics = add_numerics_command(app, numerics_args);

#ifdef RLAB_HAVE_RENDER
    RenderArgs render_args;
    auto* render = add_render_command(app, render_args);
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "rlab: " << e.what() << " (see rlab --help)\n";
        return 2;
    }
    try {
        if (*trace) return run_trace(trace_args);
        if (*depth) return run_depth(depth_args);
        if (*check) return run_check(check_args);
        if (*import) return run_import(import_file);
        if (*lessons) return run_lessons(lessons_args);
        if (*bench) return run_bench(bench_args);
        if (*numerics) return run_numerics(numerics_args);
#ifdef RLAB_HAVE_RENDER
        if (*render) return run_render(render_args);
#endif
        return run_eight_threads();
    } catch (const rl::DeviceHung& e) {
        // The hung kernel holds the GPU: a normal exit would wait for it forever.
        std::cerr << "rlab: " << e.what() << "\n" << std::flush;
        std::_Exit(2);
    } catch (const rl::Error& e) {
        std::cerr << "rlab: " << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "rlab: out of memory; use a smaller --n\n";
        return 2;
    }
}
