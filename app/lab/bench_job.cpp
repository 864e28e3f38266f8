// app/lab/bench_job.cpp — the measurement thread over app/backend/bench_runner.h (which says itself when there is no GPU).
#include "app/lab/bench_job.h"

#include <exception>
#include <utility>
#include "app/backend/bench_runner.h"

namespace rl::lab {

BenchJob::~BenchJob() {
    cancel();
    join();
}

bool BenchJob::available(std::string* reason) { return gpu_bench_available(reason); }

void BenchJob::join() {
    if (worker_.joinable()) worker_.join();
}

bool BenchJob::start(BenchOptions options) {
    if (running_) return false;
    join();
    {
        std::lock_guard lock(m_);
        fraction_ = 0;
        what_ = "starting";
        error_.clear();
        result_.reset();
    }
    cancel_ = false;
    done_ = false;
    running_ = true;
    worker_ = std::thread([this, options = std::move(options)]() mutable {
        options.cancel = &cancel_;
        options.progress = [this](const std::string& what, double f) {
            std::lock_guard lock(m_);
            what_ = what;
            fraction_ = f;
        };
        std::optional<BenchReport> r;
        std::string err;
        try {
            r = run_gpu_bench(options);
        } catch (const std::exception& e) {
            err = e.what();
        }
        if (cancel_ && (!r || r->results.empty())) r.reset(), err = "measurement cancelled";
        {
            std::lock_guard lock(m_);
            result_ = std::move(r);
            error_ = err;
            fraction_ = 1;
        }
        running_ = false;
        done_ = true;
    });
    return true;
}

void BenchJob::cancel() { cancel_ = true; }

double BenchJob::fraction() const {
    std::lock_guard lock(m_);
    return fraction_;
}

std::string BenchJob::what() const {
    std::lock_guard lock(m_);
    return what_;
}

std::optional<BenchReport> BenchJob::take(std::string* error) {
    if (!done_) return std::nullopt;
    join();
    done_ = false;
    std::lock_guard lock(m_);
    if (error) *error = error_;
    return std::exchange(result_, std::nullopt);
}

}  // namespace rl::lab
