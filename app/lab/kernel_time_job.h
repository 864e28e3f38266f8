// app/lab/kernel_time_job.h — "Time on GPU" (Ctrl+T) in both front ends: `rlab run FILE.cu --backend cuda --time`
// for the open kernel, run as a child process on a worker thread, with elapsed time, Cancel and its result or reason.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#include "core/kernel_timing.h"
#include "student/kernel_run.h"

namespace rl::lab {

// The rlab program the job runs: $RLAB_CLI, else `rlab` next to the running program, else this build tree's (a
// front end started from build/), else the installed one, else `rlab` on PATH. Empty when none is found.
std::string find_rlab();

// The command line for `request` (the kernel open in a GUI, its sizes, kernel or plan, operator and time limit):
// PROGRAM run FILE --backend cuda --time --format json -o JSON_OUT --n N --block B [--grid G] [--launch PLAN |
// --kernel NAME] --input KIND --seed S [--op OP] --time-limit T. A plan wins over the kernel field (rlab refuses both).
std::vector<std::string> kernel_time_command(const std::string& program, const student::KernelRequest& request,
                                             const std::string& json_out);

// Why the action cannot be started for `request` whose file reads `text` (the session's last text; "" not yet read):
// no kernel open, a file in the lab's dialect, a program with main() (NVRTC compiles device code only). One line, the
// disabled action's tooltip, or empty.
std::string kernel_time_blocker(const student::KernelRequest& request, std::string_view text);

// How long the child may run beyond the kernel's own --time-limit (NVRTC's compile, the CUDA context, 30 timed
// repetitions of three rows) before it is killed as hung.
inline constexpr double kTimeJobAllowanceS = 120.0;

class KernelTimeJob {
public:
    enum class State { Idle, Running, Done, Failed, Cancelled };

    KernelTimeJob() = default;
    KernelTimeJob(const KernelTimeJob&) = delete;
    KernelTimeJob& operator=(const KernelTimeJob&) = delete;
    ~KernelTimeJob();  // cancels a running child and waits for it to be reaped

    // Starts timing `request` with `program` (find_rlab(); a test's fake command). False (and nothing started) while
    // one runs; a request the action refuses (kernel_time_blocker of `text`) starts no child and ends Failed with
    // that line.
    bool start(const student::KernelRequest& request, const std::string& program, std::string_view text = {});
    void cancel();                     // kills the child (its whole process group); the state becomes Cancelled

    State state() const;
    bool running() const { return state() == State::Running; }
    double elapsed_s() const;          // since start; frozen when it ended
    std::string file() const;          // the kernel file being (or last) timed
    std::string error() const;         // Failed: one line (the child's own last line when it gave one)
    int exit_code() const;             // the child's exit status (-1: it did not exit by itself)

    // Once Done: the timing (taken once; nullopt otherwise or when already taken).
    std::optional<KernelTiming> take();
    // A line for the views: "Timing k.cu on the GPU… 3 s", "Time on GPU failed: REASON", "Timing cancelled after 3 s",
    // "" when idle or done (the rows say it).
    std::string status_line() const;

private:
    void finish(State s, std::string error, std::optional<KernelTiming> result, int exit_code);
    mutable std::mutex m_;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    State state_ = State::Idle;
    std::string file_, error_;
    int exit_code_ = -1;
    std::chrono::steady_clock::time_point started_{}, ended_{};
    std::optional<KernelTiming> result_;
};

}  // namespace rl::lab
