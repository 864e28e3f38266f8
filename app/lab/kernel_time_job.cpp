// app/lab/kernel_time_job.cpp — rlab run --time as a child (student/process.h) on a worker thread: the command line,
// the JSON it writes read back with core/kernel_timing's parser, its last line kept as the reason when it fails.
#include "app/lab/kernel_time_job.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include "core/error.h"
#include "core/file_io.h"
#include "student/cuda_source.h"
#include "student/process.h"

namespace rl::lab {
namespace fs = std::filesystem;
namespace {

bool executable(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// The child's reason: its last non-empty line, without the "rlab: " every rlab message starts with.
std::string reason_of(const std::string& output) {
    const size_t end = output.find_last_not_of(" \n\r\t");
    if (end == std::string::npos) return {};
    const size_t nl = output.rfind('\n', end);
    std::string line = output.substr(nl == std::string::npos ? 0 : nl + 1, end + 1 - (nl == std::string::npos ? 0 : nl + 1));
    if (line.rfind("rlab: ", 0) == 0) line.erase(0, 6);
    return one_line(line, 4000);  // whole: a student acts on all of it; the bound only stops a flood
}

std::string seconds_text(double s) {
    char b[32];
    std::snprintf(b, sizeof b, s < 10 ? "%.1f s" : "%.0f s", s);
    return b;
}

}  // namespace

std::string find_rlab() {
    if (const char* env = std::getenv("RLAB_CLI"); env && *env) return executable(env) ? env : std::string();
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && executable(exe.parent_path() / "rlab")) return (exe.parent_path() / "rlab").string();
#ifdef RLAB_BUILD_CLI
    // A front end run from the build tree (app/imgui/reduction-lab): this tree's rlab, not an installed older one.
    if (!ec && exe.string().rfind(RLAB_BUILD_DIR "/", 0) == 0 && executable(RLAB_BUILD_CLI)) return RLAB_BUILD_CLI;
#endif
#ifdef RLAB_INSTALL_CLI
    if (executable(RLAB_INSTALL_CLI)) return RLAB_INSTALL_CLI;
#endif
    return student::find_on_path("rlab");
}

std::vector<std::string> kernel_time_command(const std::string& program, const student::KernelRequest& request,
                                             const std::string& json_out) {
    const Schedule& s = request.schedule;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", request.time_limit_s);
    std::vector<std::string> argv{program, "run", request.file, "--backend", "cuda", "--time", "--format", "json",
                                  "-o", json_out, "--n", std::to_string(s.n), "--block", std::to_string(s.block)};
    if (s.grid) argv.insert(argv.end(), {"--grid", std::to_string(s.grid)});
    if (!request.launch.empty()) argv.insert(argv.end(), {"--launch", request.launch});
    else if (!request.kernel.empty()) argv.insert(argv.end(), {"--kernel", request.kernel});
    for (const auto& [name, value] : schedule_fields(s))
        if (name == "input" || name == "seed" || (name == "op" && request.op_given)) argv.insert(argv.end(), {"--" + name, value});
    argv.insert(argv.end(), {"--time-limit", limit});
    return argv;
}

std::string kernel_time_blocker(const student::KernelRequest& request, std::string_view text) {
    if (request.file.empty())
        return "no kernel open: open a plain CUDA .cu file first (Ctrl+O); Time on GPU times the open kernel";
    const std::string name = fs::path(request.file).filename().string();
    if (!text.empty() && !student::is_plain_cuda(text))
        return name + " is in the lab's dialect (RL_KERNEL): Time on GPU times plain CUDA files as nvcc takes them";
    if (!text.empty())
        if (const int line = student::main_function_line(text))
            return name + ":" + std::to_string(line) +
                   " has main(): the GPU timer (NVRTC) compiles device code only; time a file with the kernels alone";
    return {};
}

KernelTimeJob::~KernelTimeJob() {
    cancel_ = true;
    if (worker_.joinable()) worker_.join();
}

bool KernelTimeJob::start(const student::KernelRequest& request, const std::string& program, std::string_view text) {
    std::lock_guard<std::mutex> lock(m_);
    if (state_ == State::Running) return false;
    if (worker_.joinable()) worker_.join();  // the last run's thread has ended (its state was set last)
    cancel_ = false;
    result_.reset();
    error_.clear();
    exit_code_ = -1;
    file_ = request.file;
    started_ = ended_ = std::chrono::steady_clock::now();
    if (std::string why = kernel_time_blocker(request, text); !why.empty()) {
        state_ = State::Failed;
        error_ = why;
        return true;
    }
    if (program.empty()) {
        state_ = State::Failed;
        error_ = "rlab was not found (next to this program, in the installation or on PATH; RLAB_CLI names it)";
        return true;
    }
    state_ = State::Running;
    worker_ = std::thread([this, request, program] {
        char tmpl[] = "/tmp/rlab-time-XXXXXX";
        if (!mkdtemp(tmpl)) return finish(State::Failed, "cannot create a temporary folder for the timing", {}, -1);
        const fs::path dir = tmpl;
        const std::string json = (dir / "timing.json").string();
        const std::vector<std::string> argv = kernel_time_command(program, request, json);
        const student::ProcessResult r =
            student::run_process(argv, request.time_limit_s + kTimeJobAllowanceS, true, 64 << 10, &cancel_);
        std::optional<KernelTiming> timing;
        std::string why;
        State end = State::Failed;
        if (!r.started) {
            why = r.start_error;
        } else if (r.cancelled) {
            end = State::Cancelled;
        } else if (r.timed_out) {
            why = "rlab did not finish within " + seconds_text(request.time_limit_s + kTimeJobAllowanceS) +
                  " (a hung kernel?): it was stopped";
        } else if (r.signal) {
            why = "rlab ended with signal " + std::to_string(r.signal) + (r.output.empty() ? "" : ": " + reason_of(r.output));
        } else if ((r.exit_code == 0 || r.exit_code == 1) && fs::exists(json)) {
            // Exit 1 with a result: a kernel that left a wrong out[0] is still shown with its speed (the rows say WRONG).
            try {
                timing = load_kernel_timing_file(json);
                end = State::Done;
            } catch (const Error& e) {
                why = std::string("rlab's timing result cannot be read: ") + e.what();
            }
        } else {
            why = reason_of(r.output);
            if (why.empty()) why = "rlab run --time failed (exit " + std::to_string(r.exit_code) + ") and said nothing";
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
        finish(end, why, std::move(timing), r.exit_code);
    });
    return true;
}

void KernelTimeJob::finish(State s, std::string error, std::optional<KernelTiming> result, int exit_code) {
    std::lock_guard<std::mutex> lock(m_);
    state_ = s;
    error_ = std::move(error);
    result_ = std::move(result);
    exit_code_ = exit_code;
    ended_ = std::chrono::steady_clock::now();
}

void KernelTimeJob::cancel() { cancel_ = true; }

KernelTimeJob::State KernelTimeJob::state() const {
    std::lock_guard<std::mutex> lock(m_);
    return state_;
}

double KernelTimeJob::elapsed_s() const {
    std::lock_guard<std::mutex> lock(m_);
    if (state_ == State::Idle) return 0;
    const auto to = state_ == State::Running ? std::chrono::steady_clock::now() : ended_;
    return std::chrono::duration<double>(to - started_).count();
}

std::string KernelTimeJob::file() const {
    std::lock_guard<std::mutex> lock(m_);
    return file_;
}

std::string KernelTimeJob::error() const {
    std::lock_guard<std::mutex> lock(m_);
    return error_;
}

int KernelTimeJob::exit_code() const {
    std::lock_guard<std::mutex> lock(m_);
    return exit_code_;
}

std::optional<KernelTiming> KernelTimeJob::take() {
    std::lock_guard<std::mutex> lock(m_);
    std::optional<KernelTiming> r = std::move(result_);
    result_.reset();
    return r;
}

std::string KernelTimeJob::status_line() const {
    const State s = state();
    const double t = elapsed_s();
    const std::string name = fs::path(file()).filename().string();
    switch (s) {
        case State::Running:
            return "Timing " + name + " on the GPU… " + seconds_text(t) + (cancel_ ? " (cancelling)" : "");
        case State::Failed: return "Time on GPU failed: " + error();
        case State::Cancelled: return "Timing of " + name + " cancelled after " + seconds_text(t) + ": rlab was stopped";
        case State::Idle:
        case State::Done: break;
    }
    return {};
}

}  // namespace rl::lab
