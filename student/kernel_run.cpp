// student/kernel_run.cpp — runs a student's kernel in rlab-kernel-runner (student/runner_main.cpp): finds the
// runner, spawns it, kills it at the time limit, reads its trace, and turns its exit into the outcome.
#include "student/kernel_run.h"
#include <signal.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include "core/error.h"
#include "core/file_io.h"
#include "core/text_format.h"
#include "core/trace_binary.h"
#include "student/diagnostics.h"
#include "student/process.h"

namespace rl::student {

namespace fs = std::filesystem;

namespace {

// Where the runner's trace is handed over: memory (/dev/shm) when it has room for the largest trace (2^24 events,
// about 600 MB), else /tmp. A file of a few hundred MB written to /tmp on this lab's development VM took 0.45 s
// where /dev/shm took 0.07 (the disk's dirty-page throttling); the parent removes it as soon as it is read.
std::string handoff_folder() {
    struct statvfs fs_info {};
    if (access("/dev/shm", W_OK | X_OK) == 0 && statvfs("/dev/shm", &fs_info) == 0 &&
        uint64_t(fs_info.f_bavail) * fs_info.f_frsize >= (1ull << 30))
        return "/dev/shm";
    return "/tmp";
}

constexpr uint64_t kKernelFileBytes = 1 << 20;  // as the runner's limit
constexpr double kCompileAllowanceS = 120.0;    // the runner compiles before the kernel's own time limit starts
constexpr const char* kRunner = "rlab-kernel-runner";

bool executable(const fs::path& p) { return !p.empty() && access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

// Next to the calling program (the build tree's programs and an installed bin/ alike), then the build tree's
// runner for programs of this build tree, then the installed libexec folder.
std::string find_runner() {
    if (const char* env = std::getenv("RLAB_KERNEL_RUNNER"); env && executable(env)) return env;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && executable(exe.parent_path() / kRunner)) return (exe.parent_path() / kRunner).string();
#ifdef RLAB_BUILD_RUNNER
    if (!ec && exe.string().rfind(RLAB_BUILD_DIR "/", 0) == 0 && executable(RLAB_BUILD_RUNNER)) return RLAB_BUILD_RUNNER;
#endif
#ifdef RLAB_INSTALL_RUNNER
    if (executable(RLAB_INSTALL_RUNNER)) return RLAB_INSTALL_RUNNER;
#endif
    if (!ec) {  // an installed tree moved elsewhere: PREFIX/bin/rlab -> PREFIX/libexec/reduction-lab/
        const fs::path moved = exe.parent_path().parent_path() / "libexec" / "reduction-lab" / kRunner;
        if (executable(moved)) return moved.string();
    }
    return {};
}

std::string last_line(const std::string& text) {
    size_t end = text.find_last_not_of(" \n\r\t");
    if (end == std::string::npos) return {};
    size_t start = text.rfind('\n', end);
    return one_line(text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1)), 400);
}

// The last `max_bytes` of a file (a program that prints in a loop until its time limit can write gigabytes).
std::string tail_of_file(const std::string& path, size_t max_bytes) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) return {};
    const std::streamoff size = f.tellg();
    const std::streamoff from = size > std::streamoff(max_bytes) ? size - std::streamoff(max_bytes) : 0;
    f.seekg(from);
    std::string text(size_t(size - from), '\0');
    f.read(text.data(), std::streamsize(text.size()));
    text.resize(size_t(f.gcount()));
    return from > 0 ? "[... the program's earlier output left out]\n" + text : text;
}

std::string describe_signal(int sig) {
    const char* name = sigabbrev_np(sig);
    std::string what = std::string("SIG") + (name ? name : std::to_string(sig).c_str());
    if (sig == SIGSEGV || sig == SIGBUS) what += ": it touched memory outside any array (a raw pointer, or a stack overflow)";
    if (sig == SIGFPE) what += ": an arithmetic fault (an integer division by zero?)";
    if (sig == SIGABRT) what += ": it aborted";
    return what;
}

}  // namespace

std::string kernel_name(std::string_view source) {
    static const std::regex marker(R"(RL_KERNEL\s+void\s+([A-Za-z_]\w*)\s*\()");
    std::string text(source);
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), marker); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1].str());
    if (names.empty())
        throw Error("no kernel in the file: mark one function `RL_KERNEL void NAME(rl::In<T> in, rl::Out<T> out, int n)`");
    if (names.size() > 1)
        throw Error("the file has " + std::to_string(names.size()) + " RL_KERNEL functions (" + names[0] + ", " + names[1] +
                    "): exactly one is allowed");
    return names[0];
}

std::string time_limit_problem(double seconds) {
    if (std::isfinite(seconds) && seconds > 0 && seconds <= kMaxKernelTimeLimit) return {};
    return "--time-limit " + format_number("%g", seconds) + ": expected seconds above 0, at most " +
           format_number("%g", kMaxKernelTimeLimit);
}

KernelOutcome run_kernel(const KernelRequest& request) {
    check_readable_file(request.file, "kernel file", kKernelFileBytes);
    {
        Schedule s = request.schedule;
        s.items = 1;
        if (std::string why = validate(s); !why.empty()) throw Error(why);
    }
    if (std::string why = time_limit_problem(request.time_limit_s); !why.empty()) throw Error(why);

    KernelOutcome outcome;
    const std::string runner = find_runner();
    if (runner.empty()) {
        outcome.error = std::string(kRunner) + " was not found next to this program or in its libexec folder: the installation is incomplete";
        outcome.failure = KernelFailure::BadInput;
        return outcome;
    }
    std::string dir_name = handoff_folder() + "/rlab-kernel-XXXXXX";
    char* dir_template = dir_name.data();
    if (!mkdtemp(dir_template)) {
        outcome.error = std::string("cannot create a temporary folder: ") + std::strerror(errno);
        outcome.failure = KernelFailure::BadInput;
        return outcome;
    }
    const fs::path dir = dir_template;
    // The runner hands its trace over as a binary file (core/trace_binary.h): about 34 bytes an event, read with no
    // parsing, where JSON took 200 and most of the time of a large run.
    const std::string trace_path = (dir / "trace.rltrace").string();
    const Schedule& s = request.schedule;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", request.time_limit_s);
    std::vector<std::string> argv{runner, request.file, "--out", trace_path, "--format", "binary", "--n", std::to_string(s.n), "--block",
                                  std::to_string(s.block), "--backend", request.backend == Backend::Cuda ? "cuda" : "cpu",
                                  "--time-limit", limit};
    // A plain CUDA file with main() runs as a program; what it prints comes back in a file of its own, apart from the
    // runner's one-line messages.
    const std::string program_output = (dir / "program.out").string();
    argv.insert(argv.end(), {"--program-output", program_output});
    if (request.detail_blocks) argv.insert(argv.end(), {"--detail-blocks", std::to_string(request.detail_blocks)});
    if (s.grid) argv.insert(argv.end(), {"--grid", std::to_string(s.grid)});
    if (!request.kernel.empty()) argv.insert(argv.end(), {"--kernel", request.kernel});
    if (!request.launch.empty()) argv.insert(argv.end(), {"--launch", request.launch});
    for (const auto& [name, value] : schedule_fields(s))
        if (name == "input" || name == "seed" || (name == "op" && request.op_given)) argv.insert(argv.end(), {"--" + name, value});

    const ProcessResult r = run_process(argv, request.time_limit_s + kCompileAllowanceS, true);
    std::error_code ec;
    if (!r.started) {
        fs::remove_all(dir, ec);
        outcome.error = r.start_error;
        outcome.failure = KernelFailure::BadInput;
        return outcome;
    }
    // rlab-kernel-runner's exit codes (student/runner_main.cpp): 2 bad arguments, 3 compile error, 4 the kernel
    // failed while it ran, 5 its records made no trace, 6 a program's trace was written but its main() failed; a
    // signal is a crash of the kernel.
    if (std::error_code ignored; fs::exists(program_output, ignored)) {
        outcome.program = true;
        outcome.program_output = tail_of_file(program_output, 1 << 20);
    }
    const bool traced = r.exit_code == 0 || r.exit_code == 6;
    outcome.failure = r.timed_out || r.signal || r.exit_code == 4 || r.exit_code == 5 ? KernelFailure::Program
                      : r.exit_code == 3                                             ? KernelFailure::Compile
                      : traced                                                       ? KernelFailure::None
                                                                                     : KernelFailure::BadInput;
    if (r.timed_out) {
        outcome.error = "the kernel did not finish within " + std::string(limit) + " s (an endless loop?): it was stopped";
    } else if (r.signal) {
        outcome.error = "the kernel crashed the emulator's process with " + describe_signal(r.signal);
    } else if (traced) {
        try {
            outcome.trace = read_trace_binary_file(trace_path);
            outcome.ok = true;
            if (r.exit_code == 6) outcome.program_failure = last_line(r.output);
        } catch (const Error& e) {
            outcome.error = std::string("the runner's trace cannot be read: ") + e.what();
            outcome.failure = KernelFailure::BadInput;
        }
    } else if (r.exit_code == 3) {
        outcome.compiler_log = r.output;
        outcome.diagnostics = parse_diagnostics(r.output);
        const std::string first = first_error_line(outcome.diagnostics);
        outcome.error = first.empty() ? last_line(r.output) : "compile error: " + first;
    } else {
        outcome.error = last_line(r.output);
        if (outcome.error.empty()) outcome.error = std::string(kRunner) + " failed (exit " + std::to_string(r.exit_code) + ")";
    }
    fs::remove_all(dir, ec);
    return outcome;
}

}  // namespace rl::student
