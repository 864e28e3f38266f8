// app/lab/bench_job.h — "Measure on this GPU": runs run_gpu_bench on a worker thread with progress and cancel.
// One job per lab (LabState::bench_job); both front ends poll it from their frame/timer loop.
#pragma once
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include "core/bench_report.h"

namespace rl::lab {

class BenchJob {
public:
    BenchJob() = default;
    BenchJob(const BenchJob&) = delete;
    BenchJob& operator=(const BenchJob&) = delete;
    ~BenchJob();  // cancels a running measurement and waits for its current cell

    // Whether a measurement can run here; `reason` says why not in one line (the disabled action's tooltip).
    static bool available(std::string* reason);

    bool start(BenchOptions options = {});  // false when one is already running
    void cancel();                           // stops after the current cell
    bool running() const { return running_.load(); }
    bool cancelling() const { return cancel_.load(); }
    double fraction() const;
    std::string what() const;                // the cell being measured

    // Once finished: the report (nullopt and `error` set on failure or cancel). Returns nothing while running
    // or when the result was already taken.
    std::optional<BenchReport> take(std::string* error);
    bool finished() const { return done_.load(); }

private:
    void join();
    std::thread worker_;
    std::atomic<bool> running_{false}, done_{false}, cancel_{false};
    mutable std::mutex m_;
    double fraction_ = 0;
    std::string what_, error_;
    std::optional<BenchReport> result_;
};

}  // namespace rl::lab
