// app/cli/run_command.cpp — `rlab run FILE.cu`: the board (as rlab trace draws it), the result against the exact
// reference, the depth comparison and the checker's hazards; or the trace as JSON or Chrome tracing.
#include "app/cli/run_command.h"

#include <iostream>
#include <CLI/CLI.hpp>

#include "app/cli/board_view.h"
#include "app/cli/kernel_file_run.h"
#include "app/cli/run_time.h"
#include "core/analysis.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/trace_io.h"

namespace rl::cli {

CLI::App* add_run_command(CLI::App& app, KernelRunArgs& a) {
    auto* c = app.add_subcommand("run", "run a student's kernel (a .cu file with one RL_KERNEL, or plain CUDA, where --kernel NAME picks one of several kernels; a plain file with main() and no --kernel runs as a whole program, its output passed through): its trace, result, depth and hazards; "
                                        "exit 1 on hazards or a wrong result (notes about cost never), 2 on bad input or a compile error");
    c->add_option("file", a.kernel.file, "the kernel file (#include <rlab/kernel.h> and one RL_KERNEL function, or plain CUDA as nvcc takes it)")->required();
    lab::add_size_options(*c, a.kernel.sizes);
    c->add_option("--backend", a.kernel.backend, "auto|cpu|cuda (auto: the GPU when one is usable)")->capture_default_str();
    c->add_option("--format", a.format, "board (the trace level by level, result, depth, hazards), json, or chrome")
        ->capture_default_str();
    c->add_option("-o,--output", a.output, "write to FILE instead of standard output");
    add_kernel_name_option(*c, a.kernel);
    add_time_limit_option(*c, a.kernel);
    c->add_flag("--time", a.time,
                "with --backend cuda: the kernel (or --launch plan) uninstrumented on the GPU, timed warm with every "
                "repetition's out[0] checked, in us, GB/s and % of the GPU's bandwidth beside the fast path and CUB on "
                "the same input (--format board or json)");
    return c;
}

int run_run(const KernelRunArgs& a) {
    if (a.time) return run_timed(a);
    if (a.format != "board" && a.format != "json" && a.format != "chrome")
        throw Error("--format " + one_line(a.format) + ": expected board, json or chrome");
    int rc = 0;
    ProgramRun program;
    const std::optional<Trace> trace = run_kernel_file(a.kernel, rc, &program);
    if (!trace) return rc;
    // A program's own output first, as it printed it: on stdout unless the trace itself goes there as JSON.
    if (!program.output.empty()) {
        std::ostream& out = a.format == "board" || !a.output.empty() ? std::cout : std::cerr;
        out << program.output << (program.output.back() == '\n' ? "" : "\n");
        out.flush();
    }
    const Trace& t = *trace;
    const Analysis an = analyze(t);
    auto write = [&](std::ostream& out) {
        if (a.format == "json") {
            write_trace_json(out, t);
        } else if (a.format == "chrome") {
            write_chrome_trace(out, t);
        } else {
            print_kernel_header(out, t, a.kernel.kernel);
            // A run summarised by level of detail says what it shows in full and what as counts (core/level_of_detail.h).
            if (t.detail.active()) out << level_of_detail_line(t) << "\n";
            print_board(out, t);
            print_result(out, t, an);
            print_depth_table(out, t, an);
            print_hazards(out, t);
        }
    };
    if (t.detail.active() && a.format != "board") std::cerr << "rlab: " << level_of_detail_line(t) << "\n";
    if (a.output.empty()) {
        write(std::cout);
        flush_stdout_checked();
    } else {
        write_file_atomically(a.output, write);  // a failed write leaves no truncated file
        std::cerr << "rlab: wrote " << t.events.size() << " events to " << a.output << "\n";
    }
    if (!program.failure.empty()) std::cerr << "rlab: " << a.kernel.file << ": " << one_line(program.failure) << "\n";
    return t.hazards.empty() && !wrong_result(an) && program.failure.empty() ? 0 : 1;
}

}  // namespace rl::cli
