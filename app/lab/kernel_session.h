// app/lab/kernel_session.h — a student's kernel open in a GUI: the request, its runs on a worker thread (the UI never
// waits on a compile), the file watched by modification time, and what the last run said (diagnostics, error).
// Both front ends hold one in LabState; the classroom also re-runs on QFileSystemWatcher's signal.
#pragma once
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include "student/kernel_run.h"

namespace rl::lab {

// One finished run: what the runner said, and the text of the file that was run.
struct KernelRun {
    student::KernelOutcome outcome;
    std::string text;              // the file as it was read for this run (the source panel shows it)
    std::string request_error;     // the request was refused (the file vanished, a directory, ...): one line
};

class KernelSession {
public:
    KernelSession() = default;
    KernelSession(const KernelSession&) = delete;
    KernelSession& operator=(const KernelSession&) = delete;
    ~KernelSession();              // waits for a run in flight (the runner's own time limit bounds it)

    bool active() const { return !request_.file.empty(); }
    const std::string& file() const { return request_.file; }
    const student::KernelRequest& request() const { return request_; }
    student::KernelRequest& request() { return request_; }

    // Opens a file (request checked by kernel_request) and starts its first run.
    void open(const student::KernelRequest& request);
    void close();
    // Starts a run of the file as it is now. While one runs, the new one starts when it ends (saves come in bursts).
    void start();
    // Runs the kernel `name` of a plain CUDA file from now on (the kernel field: NAME or NAME<ARGS>; empty: the
    // file's only kernel) and starts a run. The worker reads the request under the session's lock.
    void set_kernel(const std::string& name);
    bool running() const;
    // Polls the file's modification time and size (the lab bench, about twice a second; the classroom on its
    // watcher's signal); starts a run when they changed since the last start, so a save that started its own run
    // (KernelEditor::save) is not run twice.
    bool poll_file();
    size_t runs_done() const;      // runs finished since construction (tests: a save runs once)
    // Once a run finished: its result (each result is taken once).
    std::optional<KernelRun> take();
    void wait();                   // until no run is in flight (startup, tests)

    // What the front ends show about the last finished run.
    std::vector<student::Diagnostic> diagnostics;
    std::string error;             // the last run's one-line failure, empty after a good run
    std::string text;              // the text of the last run (good or not)
    int error_line = 0;            // the first error's line in the student's file (0: none)
    // A plain CUDA program with main() (docs/plain-cuda.md): what it printed, and why it failed as a program although
    // its launches were recorded ("the program's main() returned 3"; empty when it succeeded).
    bool program = false;
    std::string program_output;
    std::string program_failure;
    std::string status() const;    // "running…", "FILE:LINE: error: ...", or "FILE: N events"
    void note_result(const KernelRun& r, size_t events);  // fills the fields above from a taken run

private:
    void launch_locked();          // m_ held
    struct Stamp {
        std::filesystem::file_time_type time{};
        uintmax_t size = 0;
        bool operator==(const Stamp&) const = default;
    };
    Stamp stamp() const;
    student::KernelRequest request_;
    Stamp seen_{};
    mutable std::mutex m_;
    std::condition_variable idle_;
    std::thread worker_;
    bool busy_ = false, again_ = false;
    std::optional<KernelRun> done_;
    size_t events_ = 0;
    size_t runs_ = 0;
};

}  // namespace rl::lab
