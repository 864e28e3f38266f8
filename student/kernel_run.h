// student/kernel_run.h — runs a student's kernel file (rlab/kernel.h) on the emulator or the GPU, in a child
// process (rlab-kernel-runner) that the caller survives whatever the kernel does, and returns its trace.
// What rlab run, rlab check FILE.cu and both front ends call.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "core/schedule.h"
#include "core/trace.h"

namespace rl::student {

// The longest time limit accepted: a student's kernel that runs longer is stuck, and a GUI waits on it.
inline constexpr double kMaxKernelTimeLimit = 600.0;

// Why `seconds` is not a usable time limit (one line naming the value and the range), or empty.
std::string time_limit_problem(double seconds);

struct KernelRequest {
    std::string file;              // the student's .cu file
    std::string kernel;            // a plain CUDA file's kernel: NAME or a template's NAME<ARGS> (empty: its only one)
    std::string launch;            // a plain CUDA file's launch plan, 'k<<<G, B, S>>>(in, tmp, n); ...' (student/launch_syntax.h);
                                   // empty: the kernel once as K<<<grid, block, block * sizeof(T)>>>(in, out, n)
    Schedule schedule;             // n, block, grid (0: ceil(n / block)), input, seed; op when op_given
    bool op_given = false;         // false: the operator is the one the kernel combines with
    Backend backend = Backend::Cpu;  // resolved by the caller (auto -> app/backend)
    double time_limit_s = 10.0;    // the runner is killed after this long (an endless loop, a hung GPU)
    // A plain CUDA plan's level of detail (student/detail_run.h): the blocks of each launch kept in full; 0: the runner
    // decides (every event, unless the plan is too large for the trace limit: then 64).
    uint32_t detail_blocks = 0;
};

// One compiler message, in the student's file where the compiler says so.
struct Diagnostic {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;           // "error: expected ';' before '}' token"
};

// Why a kernel run gave no trace: the request, the file or the installation (bad input), the compiler, or the kernel as a program
// (it hung, ran past its time or step budget, indexed out of range, crashed): a wrong kernel, like a wrong result.
enum class KernelFailure : uint8_t { None, BadInput, Compile, Program };

struct KernelOutcome {
    bool ok = false;               // a trace was recorded (it may still hold hazards or a wrong result)
    KernelFailure failure = KernelFailure::None;  // when !ok
    Trace trace;                   // when ok
    std::vector<Diagnostic> diagnostics;  // compile errors (and warnings) with file and line
    std::string compiler_log;      // the compiler's whole output, for a details view
    std::string error;             // when !ok: one line (compile failed, the kernel hangs, time limit, ...)
    // A plain CUDA program with main() (docs/plain-cuda.md, "Programs with main()"): what it printed (its stdout and
    // stderr in the order written, at most 1 MiB, the end kept), and when ok, why it failed as a program although
    // its launches were recorded (one line: "the program's main() returned 3"), else empty.
    bool program = false;
    std::string program_output;
    std::string program_failure;
};

// The kernel's function name (the one `RL_KERNEL void NAME(` in the text). Throws rl::Error with a one-line
// reason when there is none or more than one.
std::string kernel_name(std::string_view source);

// Never throws for the student's mistakes (they are in the outcome); throws rl::Error for a bad request
// (no such file, a directory, over the size limit, geometry outside the limits).
KernelOutcome run_kernel(const KernelRequest& request);

}  // namespace rl::student
