// student/runner_main.cpp — rlab-kernel-runner: compiles and runs one student kernel in a process of its own and
// writes the finished trace, so that whatever the kernel does (crash, endless loop, GPU hang) its caller survives.
//
//   rlab-kernel-runner FILE --out TRACE.json [--n N] [--block B] [--grid G] [--input KIND|v,v,...] [--seed S]
//                      [--op sum|max|min|prod] [--backend cpu|cuda] [--time-limit S] [--kernel NAME]
//                      [--format json|binary] [--program-output FILE] [--launch PLAN]
//
// --format binary writes the trace as core/trace_binary.h's file, how rlab and the front ends take it (student/
// kernel_run.cpp): a tenth of JSON's size and no parsing; JSON (the default) is the format for people and tools.
// --kernel NAME picks the __global__ of a plain CUDA file (NAME, or a template's instance NAME<ARGS>, which the front
// end makes exist when the file never launches it); a dialect file holds one kernel and takes no --kernel.
// --launch PLAN runs a plain CUDA file's launches as CUDA writes them, 'k<<<G, B, S>>>(in, tmp, n); k<<<1, B>>>(tmp, out, G)'
// (student/plan_run.h); without it a plain CUDA kernel runs once, K<<<grid, block, block * sizeof(T)>>>(in, out, n).
//
// Exit codes (student/kernel_run.cpp reads them):
//   0  the trace was written to --out
//   2  bad arguments or an unreadable file: one line on stderr
//   3  the kernel did not compile: the compiler's messages on stderr (FILE:LINE:COL: error: ...), or one line
//   4  the kernel failed while it ran (it hangs, an index out of range, the step budget, the GPU's time limit):
//      one line on stderr
//   5  the records could not be made into a trace or written: one line on stderr
//   6  a program with main() (a plain CUDA file with main(), run without --kernel): the trace was written, but
//      main() returned non-zero or called exit() with it: one line on stderr (docs/plain-cuda.md)
//   killed by a signal: the kernel crashed the runner (a raw pointer, a stack overflow); the caller says so.
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include "core/error.h"
#include "core/file_io.h"
#include "core/trace_binary.h"
#include "core/trace_io.h"
#include "student/cuda_compile.h"
#include "student/host_compile.h"
#include "student/host_runtime.h"
#include "student/launch_plan.h"
#include "student/launch_syntax.h"
#ifdef RLAB_HAVE_SIMT
#include "simt/program.h"
#include "student/ir_backend.h"
#include "student/plan_run.h"
#include "student/detail_run.h"
#include "student/program_run.h"
#endif
#ifdef RLAB_HAVE_CUDA
#include "student/cuda_backend.h"
#endif

// Under AddressSanitizer (the asan preset) a kernel's wild pointer must still end the runner with the signal,
// which the caller reports, rather than with ASan's report and exit 1.
extern "C" const char* __asan_default_options() { return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0"; }

namespace {

constexpr uint64_t kKernelFileBytes = 1 << 20;  // a kernel's source: 1 MiB is far beyond any reduction

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "%s\n", rl::one_line(message, 400).c_str());
    return code;
}

// The emulator's own time limit (the parent's kill is the backstop): a loop that records nothing never returns
// to the scheduler, so a timer ends the process with one line.
char g_time_limit_message[256];
// The runner's own stderr, taken before a program's run points descriptor 2 at the program's output file: the line
// must reach the caller as the runner's last line.
int g_message_fd = 2;
void on_time_limit(int) {
    ssize_t ignored = write(g_message_fd, g_time_limit_message, std::strlen(g_time_limit_message));
    (void)ignored;
    _exit(4);
}
void arm_time_limit(double seconds, const char* what = "the kernel") {
    if (g_message_fd == 2) {
        const int fd = dup(2);
        if (fd >= 0) g_message_fd = fd;
    }
    std::snprintf(g_time_limit_message, sizeof g_time_limit_message,
                  "%s did not finish within %g s (an endless loop that records nothing? a large run needs more: --time-limit S, up to 3600): it was stopped\n", what, seconds);
    struct sigaction sa {};
    sa.sa_handler = &on_time_limit;
    sigaction(SIGALRM, &sa, nullptr);
    itimerval t{};
    t.it_value.tv_sec = time_t(seconds);
    t.it_value.tv_usec = suseconds_t((seconds - double(time_t(seconds))) * 1e6);
    setitimer(ITIMER_REAL, &t, nullptr);
}

void disarm_time_limit() {
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
}

struct Args {
    std::string file, out, backend = "cpu";
    bool binary = false;  // --format binary
    std::string kernel;  // --kernel NAME: a plain CUDA file's kernel (empty: its only one)
    std::string launch;  // --launch PLAN: a plain CUDA file's launches (student/launch_syntax.h)
    std::string program_output;  // --program-output FILE: where a program with main() prints (student/host_program.h)
    rl::Schedule schedule;
    bool op_given = false;
    double time_limit_s = 10.0;
    uint32_t detail_blocks = 0;  // --detail-blocks N (0: default_detail_blocks decides)
};

// Throws rl::Error naming the flag and what it allows.
Args parse(int argc, char** argv) {
    Args a;
    a.schedule.grid = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0) {
            if (!a.file.empty()) throw rl::Error("one kernel file only (got " + a.file + " and " + arg + ")");
            a.file = arg;
            continue;
        }
        if (i + 1 >= argc) throw rl::Error(arg + " needs a value");
        const std::string v = argv[++i];
        const std::string name = arg.substr(2);
        if (name == "out") {
            a.out = v;
        } else if (name == "format") {
            if (v != "json" && v != "binary") throw rl::Error("--format " + v + ": expected json or binary");
            a.binary = v == "binary";
        } else if (name == "program-output") {
            a.program_output = v;
        } else if (name == "launch") {
            a.launch = v;
        } else if (name == "kernel") {
            if (std::string why = rl::student::kernel_name_problem(v); !why.empty()) throw rl::Error("--kernel " + v + ": " + why);
            a.kernel = v;
        } else if (name == "backend") {
            if (v != "cpu" && v != "cuda") throw rl::Error("--backend " + v + ": expected cpu or cuda");
            a.backend = v;
        } else if (name == "time-limit") {
            char* end = nullptr;
            a.time_limit_s = std::strtod(v.c_str(), &end);
            if (!end || *end || !(a.time_limit_s > 0 && a.time_limit_s <= 3600))
                throw rl::Error("--time-limit " + v + ": expected seconds, more than 0 and at most 3600");
        } else if (name == "detail-blocks") {
            char* end = nullptr;
            const unsigned long v_n = std::strtoul(v.c_str(), &end, 10);
            if (!end || *end || v.empty() || v[0] == '-' || v_n < 1 || v_n > (1ul << 24))
                throw rl::Error("--detail-blocks " + v + ": expected the blocks of each launch kept in full, 1 to 16777216");
            a.detail_blocks = uint32_t(v_n);
        } else if (name == "n" || name == "block" || name == "grid" || name == "input" || name == "seed" || name == "op") {
            if (std::string why = rl::set_field(a.schedule, name, v); !why.empty()) throw rl::Error(why);
            a.op_given |= name == "op";
        } else {
            throw rl::Error(arg + ": unknown flag (allowed: --n --block --grid --input --seed --op --backend --out --format --time-limit --kernel --launch --program-output --detail-blocks)");
        }
    }
    if (a.file.empty()) throw rl::Error("no kernel file given (rlab-kernel-runner FILE.cu --out TRACE.json ...)");
    if (a.out.empty()) throw rl::Error("--out TRACE.json is required");
    return a;
}

#ifdef RLAB_HAVE_SIMT
// A plain CUDA file with main() and neither --kernel nor --launch runs as a program (student/program_run.h): exit 0
// with the trace written, or 6 with the trace written and the line that says how the program failed.
int run_program_file(const Args& a, const std::string& source) {
    rl::student::ProgramRun r = rl::student::run_program(a.file, source, a.schedule.op, a.op_given, a.program_output,
                                                         [&] { arm_time_limit(a.time_limit_s, "the program"); });
    disarm_time_limit();
    if (!r.trace) {
        if (!r.compiler_log) return fail(r.exit_code, r.message);
        std::fputs(r.message.c_str(), stderr);
        return r.exit_code;
    }
    try {
        if (a.binary)
            rl::write_trace_binary_file(a.out, *r.trace);
        else
            rl::write_file_atomically(a.out, [&](std::ostream& o) { rl::write_trace_json(o, *r.trace); });
    } catch (const std::exception& e) {
        return fail(5, e.what());
    }
    return r.exit_code == 6 ? fail(6, r.message) : 0;
}
#endif

int write_trace(const Args& a, const rl::Trace& trace) {
    try {
        if (a.binary)
            rl::write_trace_binary_file(a.out, trace);  // the caller's own folder: no rename, no fsync
        else
            rl::write_file_atomically(a.out, [&](std::ostream& o) { rl::write_trace_json(o, trace); });
    } catch (const std::exception& e) {
        return fail(5, e.what());
    }
    return 0;
}

#ifdef RLAB_HAVE_SIMT
// A plain CUDA file's launches: the --launch plan, or the one contract launch of the kernel --kernel names (or the
// file's only one). Every launch that runs is one the user wrote or asked for: the lab adds none.
int run_plain_file(const Args& a, const std::string& source, const std::vector<rl::student::PlannedLaunch>& plan) {
    const std::vector<rl::student::CudaKernelDecl> declared = rl::student::cuda_kernel_declarations(source);
    std::vector<std::string> names;
    for (const rl::student::PlannedLaunch& l : plan) names.push_back(l.kernel);
    if (plan.empty() && !a.kernel.empty()) names.push_back(a.kernel);
    rl::student::CudaCompile c = rl::student::compile_cuda_device(a.file, source, names);
    if (!c.ok && c.kernel_not_instantiated) {
        const std::string problem = rl::student::kernel_instance_problem(c.failed_instance, declared, a.schedule.block);
        if (plan.empty()) return fail(2, problem);
        // kernel_instance_problem words it for --kernel NAME: the plan names the same kernel in a launch.
        return fail(2, "--launch: " + problem.substr(problem.find(": ") + 2));
    }
    if (!c.ok) {
        if (!c.diagnostics.empty())
            std::fputs(c.log.c_str(), stderr);
        else
            std::fprintf(stderr, "%s\n", rl::one_line(c.error, 400).c_str());
        return 3;
    }
    std::vector<rl::student::BoundLaunch> launches;
    std::unique_ptr<rl::simt::Module> module;
    try {
        module = std::make_unique<rl::simt::Module>(rl::simt::decode(c.bitcode, a.file));
    } catch (const rl::Error& e) {
        return fail(3, e.what());  // a plain CUDA construct the emulator does not take
    }
    try {
        if (!plan.empty()) {
            launches = rl::student::bind_plan(*module, plan);
        } else {
            const rl::simt::Kernel& kernel = rl::student::choose_kernel(*module, a.kernel, declared, a.schedule.block);
            launches = rl::student::contract_launch(kernel, a.schedule, a.file);
        }
    } catch (const rl::Error& e) {
        return fail(2, (plan.empty() ? "" : "--launch: ") + std::string(e.what()));  // a kernel the file lacks, an argument that does not fit
    }
    rl::student::PlanOutcome run;
    arm_time_limit(a.time_limit_s);
    // A plan too large for every event (or one given --detail-blocks) is summarised by level of detail: its launches
    // and their assembly go part by part, so the time limit covers both.
    // (--op argmax and witness are not summarised: they keep every event, within the trace limit.)
    const rl::Op op = a.schedule.op;
    const bool summarisable = !a.op_given || op == rl::Op::Sum || op == rl::Op::Max || op == rl::Op::Min || op == rl::Op::Prod;
    const uint32_t detail = a.detail_blocks ? a.detail_blocks : summarisable ? rl::student::default_detail_blocks(launches) : 0;
    try {
        if (detail) {
            rl::student::DetailOptions options;
            options.detail_blocks = detail;
            run = rl::student::run_plan_summarised(*module, launches, a.schedule, a.op_given, a.file, options);
            disarm_time_limit();
        } else {
            run = rl::student::run_plan(*module, launches, a.schedule, a.op_given, a.file, [] { disarm_time_limit(); });
        }
    } catch (const rl::Error& e) {
        return fail(2, e.what());  // the schedule (n, op) is outside what the lab allows
    }
    // A plan that passed the trace limit with every event runs again summarised (the limit bounds what a trace keeps,
    // not what a run may do): its result and verdict are exact all the same.
    if (!run.ok && !detail && summarisable && !run.assembly_failed && run.error.find("(the trace limit") != std::string::npos) {
        arm_time_limit(a.time_limit_s);
        try {
            rl::student::DetailOptions options;
            run = rl::student::run_plan_summarised(*module, launches, a.schedule, a.op_given, a.file, options);
            disarm_time_limit();
        } catch (const rl::Error& e) {
            return fail(2, e.what());
        }
    }
    if (!run.ok) return fail(run.assembly_failed ? 5 : 4, run.error);
    return write_trace(a, run.trace);
}
#endif

}  // namespace

int main(int argc, char** argv) {
    Args a;
    std::string source;
    try {
        a = parse(argc, argv);
        source = rl::read_text_file(a.file, "kernel file", kKernelFileBytes);
    } catch (const rl::Error& e) {
        return fail(2, e.what());
    }
    std::unique_ptr<rl::student::KernelBackend> backend;
    const bool plain = rl::student::is_plain_cuda(source);
    if (plain && a.backend == "cuda") return fail(2, "plain CUDA runs on the emulator (--backend cpu) for now");
    std::vector<rl::student::PlannedLaunch> plan;
    if (!a.launch.empty()) {
        if (!plain)
            return fail(2, "--launch: the file is in the lab's dialect (RL_KERNEL), whose kernel the lab launches itself: leave --launch "
                           "out (a launch plan runs the kernels of a plain CUDA file)");
        if (!a.kernel.empty())
            return fail(2, "--launch and --kernel " + a.kernel + " together: a launch plan names its kernels itself; give one or the other");
        try {
            plan = rl::student::parse_launch_plan(a.launch);
        } catch (const rl::Error& e) {
            return fail(2, "--launch: " + std::string(e.what()));
        }
#ifdef RLAB_HAVE_SIMT
        return run_plain_file(a, source, plan);
#else
        return fail(3, "plain CUDA (a file without RL_KERNEL) needs the lab built with LLVM 14 (llvm-14-dev)");
#endif
    }
    if (plain && a.kernel.empty() && a.launch.empty() && rl::student::main_function_line(source) > 0) {
#ifdef RLAB_HAVE_SIMT
        try {
            return run_program_file(a, source);
        } catch (const rl::Error& e) {
            return fail(3, e.what());  // the lab's CUDA headers are not installed
        }
#else
        return fail(3, "plain CUDA (a file without RL_KERNEL) needs the lab built with LLVM 14 (llvm-14-dev)");
#endif
    }
    if (!plain && !a.kernel.empty())
        return fail(2, "--kernel " + a.kernel + ": the file is in the lab's dialect (RL_KERNEL), one kernel per file: leave "
                       "--kernel out (it names a kernel of a plain CUDA file)");
    try {
        if (plain) {
#ifdef RLAB_HAVE_SIMT
            return run_plain_file(a, source, plan);
#else
            return fail(3, "plain CUDA (a file without RL_KERNEL) needs the lab built with LLVM 14 (llvm-14-dev)");
#endif
        } else if (a.backend == "cuda") {
#ifdef RLAB_HAVE_CUDA
            rl::student::CudaKernel k = rl::student::make_cuda_backend(a.file, source, a.time_limit_s);
            if (k.compile_failed) {
                std::fputs(k.log.c_str(), stderr);
                return 3;
            }
            if (!k.backend) return fail(4, k.error);
            backend = std::move(k.backend);
#else
            return fail(2, "this build has no CUDA backend (--backend cuda): use --backend cpu");
#endif
        } else {
            rl::student::HostCompile c = rl::student::compile_host_kernel(a.file, source);
            if (!c.ok) {
                if (!c.diagnostics.empty())
                    std::fputs(c.log.c_str(), stderr);
                else
                    std::fprintf(stderr, "%s\n", rl::one_line(c.error, 400).c_str());
                return 3;
            }
            backend = rl::student::make_cpu_backend(c.plugin);
        }
    } catch (const rl::Error& e) {
        // no RL_KERNEL, two of them, a plugin of another ABI; a plain CUDA construct the emulator does not take
        return fail(3, e.what());
    }
    rl::student::PlanOutcome run;
    if (a.backend == "cpu") arm_time_limit(a.time_limit_s);
    try {
        run = rl::student::run_launches(*backend, a.schedule, a.op_given,
                                        a.backend == "cuda" ? rl::Backend::Cuda : rl::Backend::Cpu, a.file,
                                        [] { disarm_time_limit(); });
    } catch (const rl::Error& e) {
        return fail(2, e.what());  // the schedule (n, block, grid, op) is outside what the lab allows
    }
    if (!run.ok) return fail(run.assembly_failed ? 5 : 4, run.error);
    return write_trace(a, run.trace);
}
