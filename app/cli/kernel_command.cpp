// app/cli/kernel_command.cpp — `rlab kernel`: writes the readable CUDA source of a schedule (codegen/).
#include "app/cli/kernel_command.h"

#include <fstream>
#include <iostream>

#include "codegen/kernel_source.h"
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
        std::cout << text;
        std::cout.flush();
        if (!std::cout) throw Error("writing standard output failed");
        return 0;
    }
    std::ofstream file(a.output, std::ios::binary);
    if (!file) throw Error("-o " + a.output + ": cannot open for writing");
    file << text;
    file.close();
    if (!file) throw Error("-o " + a.output + ": writing failed (disk full?)");
    std::cerr << "rlab: wrote the CUDA source of " << describe(s) << " to " << a.output << "\n";
    return 0;
}

}  // namespace rl::cli
