// app/cli/kernel_file_run.cpp — a student's kernel file run through student::run_kernel for rlab run and check.
#include "app/cli/kernel_file_run.h"

#include <iostream>
#include <CLI/CLI.hpp>

#include "app/cli/schedule_run.h"
#include "core/analysis.h"
#include "core/file_io.h"

namespace rl::cli {

// A runner's sentence is printed whole (a student acts on all of it); the bound only stops a flood of garbage.
constexpr size_t kWholeMessage = 4000;

void add_time_limit_option(CLI::App& cmd, lab::KernelSettings& k) {
    cmd.add_option("--time-limit", k.time_limit_s, "with a kernel file: stop the kernel after S seconds (an endless loop, a hang)")
        ->capture_default_str();
}

void add_kernel_name_option(CLI::App& cmd, lab::KernelSettings& k) {
    cmd.add_option("--kernel", k.kernel,
                   "with a plain CUDA file of several __global__ kernels: the one to run, NAME, or a template's instance "
                   "with its arguments, NAME<ARGS> (e.g. reduce6<256>)")
        ->type_name("NAME");
    cmd.add_option("--launch", k.launch,
                   "a plain CUDA file's launches as CUDA writes them, e.g. 'k<<<64, 256, 1024>>>(in, tmp, n); "
                   "k<<<1, 256, 1024>>>(tmp, out, 64)': arguments in (the input), out (out[0] is the result), tmp (scratch, "
                   "as many elements as the largest grid), n, or integers; without it the kernel runs once as "
                   "K<<<grid, block, block * sizeof(T)>>>(in, out, n)")
        ->type_name("PLAN");
    cmd.add_option("--detail-blocks", k.detail_blocks,
                   "a plain CUDA plan summarised by level of detail: every block runs and is checked, the trace keeps the "
                   "first N blocks and the last of each launch (and every block with a hazard) in full and the others as "
                   "counts (default: every event, or 64 when the plan is too large for the trace limit)")
        ->type_name("N")
        ->check(CLI::Range(1u, 1u << 24));
}

std::optional<Trace> run_kernel_file(const lab::KernelSettings& k, int& rc, ProgramRun* program) {
    std::string note;
    const student::KernelRequest request = lab::kernel_request(k, &note);
    student::KernelOutcome o = student::run_kernel(request);
    if (program) *program = {o.program, o.program_output, o.program_failure};
    // A program that stopped early still shows what it printed, before the line that says why it stopped.
    if ((!program || !o.ok) && !o.program_output.empty()) {
        (o.ok ? std::cerr : std::cout) << o.program_output << (o.program_output.back() == '\n' ? "" : "\n");
        std::cout.flush();
    }
    if (o.ok) {
        if (!note.empty()) deferred_note() = note;
        if (!program && !o.program_failure.empty()) {
            std::cerr << "rlab: " << k.file << ": " << one_line(o.program_failure, kWholeMessage) << "\n";
            rc = 1;
        }
        return std::move(o.trace);
    }
    for (const student::Diagnostic& d : o.diagnostics)
        std::cerr << (d.file.empty() ? k.file : d.file) << ":" << d.line << ":" << d.column << ": " << d.message << "\n";
    // A kernel that fails as a program (a hang, its time or step budget, an index out of range) is a wrong kernel,
    // like a wrong result (1); a compile error or an unusable request is bad input (2).
    rc = o.failure == student::KernelFailure::Program ? 1 : 2;
    std::cerr << "rlab: " << k.file << ": " << one_line(o.error.empty() ? "the kernel did not run" : o.error, kWholeMessage) << "\n";
    return std::nullopt;
}

void print_kernel_header(std::ostream& out, const Trace& t, const std::string& kernel) {
    const Schedule& s = t.schedule;
    out << "Reduction Lab — " << (t.kernel_file.empty() ? std::string("student kernel") : t.kernel_file)
        << (kernel.empty() ? std::string() : " (kernel " + kernel + ")") << ": n " << s.n
        << ", block " << s.block << ", grid " << t.grid << ", " << to_string(s.op) << " over " << to_string(s.type) << "\n";
    out << "backend: " << (t.backend == Backend::Cuda ? "CUDA on " : "") << t.device << "\n";
}

bool wrong_result(const Analysis& a) {
    const Verdict v = a.verdict;
    return v == Verdict::Wrong || v == Verdict::Undefined || v == Verdict::OrderViolated;
}

}  // namespace rl::cli
