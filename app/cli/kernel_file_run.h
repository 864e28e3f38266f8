// app/cli/kernel_file_run.h — what rlab run and rlab check FILE.cu share: the flags a student's kernel takes, running
// it in the runner process, and its compile errors printed as FILE:LINE:COL: error: ... on stderr.
#pragma once
#include <iosfwd>
#include <optional>
#include "app/lab/kernel_request.h"
#include "core/analysis.h"
#include "core/trace.h"

namespace CLI {
class App;
}  // namespace CLI

namespace rl::cli {

// --time-limit S (the sizes and --backend are added by the command, which already has them or not).
void add_time_limit_option(CLI::App& cmd, lab::KernelSettings& k);
// --kernel NAME: which __global__ of a plain CUDA file runs (docs/plain-cuda.md, the launch contract).
void add_kernel_name_option(CLI::App& cmd, lab::KernelSettings& k);

// Runs the kernel. A trace when it ran (hazards and a wrong result are in it); otherwise the diagnostics or the
// one-line reason are on stderr, `rc` is the exit code (2: it did not compile, or the request was bad; 1: it
// compiled and then failed as a program: hung, past the time limit, an index out of range) and nullopt is returned.
// Throws rl::Error for a bad request (main prints it, exit 2).
// A plain CUDA program with main() (docs/plain-cuda.md, "Programs with main()"): what it printed, passed through by
// the caller, and why it failed as a program although it was recorded ("the program's main() returned 3").
struct ProgramRun {
    bool program = false;
    std::string output;
    std::string failure;
};
// Without `program`, a program's output goes to stderr (so that stdout keeps the command's own report) and its failure
// makes rc 1 with the line on stderr; with it, the caller prints both where its format allows.
std::optional<Trace> run_kernel_file(const lab::KernelSettings& k, int& rc, ProgramRun* program = nullptr);

// The two header lines of a student kernel's report: the file (and the kernel --kernel named), its sizes and
// operator, and where it ran.
void print_kernel_header(std::ostream& out, const Trace& t, const std::string& kernel = {});
// True when the result is not the exact reference (or is undefined): a failed grade.
bool wrong_result(const Analysis& a);

}  // namespace rl::cli
