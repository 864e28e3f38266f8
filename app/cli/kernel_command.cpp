// app/cli/kernel_command.cpp — `rlab kernel`: writes the readable CUDA source of a schedule (codegen/).
#include "app/cli/kernel_command.h"

#include <fstream>
#include <iostream>
#include <CLI/CLI.hpp>

#include "codegen/kernel_source.h"
#include "core/file_io.h"
#include "core/error.h"

namespace rl::cli {

CLI::App* add_kernel_command(CLI::App& app, KernelArgs& a) {
    auto* c = app.add_subcommand("kernel",
                                 "the CUDA source of exactly that schedule: thread loop, warp, block and grid stage, "
                                 "operator and type, each bug marked where it changes the code");
    lab::add_schedule_options(*c, a.schedule);
    c->add_option("-o,--output", a.output, "write to FILE.cu instead of standard output");
    c->add_flag("--harness", a.harness,
                "add a main() that makes the schedule's input, runs the kernel(s) and prints the result and its bits");
    return c;
}

int run_kernel(const KernelArgs& a) {
    const Schedule s = a.schedule.build();
    const std::string text = kernel_source(s, a.harness).text();
    if (a.output.empty()) {
        std::cout << text;  // main flushes and checks standard output before exit 0
        return 0;
    }
    write_file_atomically(a.output, text);  // a full disk leaves no truncated .cu behind
    std::cerr << "rlab: wrote the CUDA source of " << describe(s) << " to " << a.output << "\n";
    return 0;
}

}  // namespace rl::cli
