// student/program_run.h — what rlab-kernel-runner does with a plain CUDA program with main(): both sides compiled,
// main() run against the lab's CUDA runtime with every launch on the SIMT emulator (student/plain_session.h), and
// the runner's exit code, line and trace that follow. docs/plain-cuda.md, "Programs with main()".
#pragma once
#include <functional>
#include <optional>
#include <string>
#include "core/schedule.h"
#include "core/trace.h"

namespace rl::student {

struct ProgramRun {
    // rlab-kernel-runner's exit code: 0 the trace is ready; 6 the trace is ready and the program failed (main()
    // returned non-zero: `message`); 2 bad input (never launched, outside the subset); 3 a compile error; 4 the
    // program failed before it made a trace (a kernel failed, main() failed before its first launch); 5 the records
    // made no trace.
    int exit_code = 0;
    std::string message;        // one line, or clang's whole log when `compiler_log`
    bool compiler_log = false;  // `message` is clang's output (FILE:LINE:COL: error: ...), printed as it is
    std::optional<Trace> trace;
};

// `op` is used when `op_given` (--op); otherwise the operator the first launched kernel combines with. The program
// prints into `output_path`.
// `before_main` runs just before main() (the runner's time limit starts there, after both compiles).
ProgramRun run_program(const std::string& file, const std::string& source, Op op, bool op_given,
                       const std::string& output_path, const std::function<void()>& before_main = {});

}  // namespace rl::student
