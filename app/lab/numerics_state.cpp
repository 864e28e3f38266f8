// app/lab/numerics_state.cpp — runs compare_numerics for the shown schedule once per change.
#include "app/lab/numerics_state.h"

#include <exception>
#include <thread>

namespace rl::lab {
void NumericsState::update(const Schedule& s, bool force) {
    if (job_ && job_->done) {  // the thread's comparison of `key`
        report = std::move(job_->report);
        table = std::move(job_->table);
        error = std::move(job_->error);
        ready = error.empty();
        computing = false;
        job_.reset();
    }
    if (keyed && s == key && (ready || computing || !unsupported.empty() || !error.empty() || (waiting && !force))) return;
    key = s;
    keyed = true;
    ready = waiting = computing = false;
    job_.reset();  // a comparison still running for another schedule finishes unseen
    unsupported.clear();
    error.clear();
    if (std::string why = numerics_supported(s); !why.empty()) {
        unsupported = why;
        return;
    }
    if (s.n > kAutoMaxN && !force) {
        waiting = true;
        return;
    }
    if (s.n > kSyncMaxN) {
        job_ = std::make_shared<Job>();
        computing = true;
        std::thread([job = job_, s] {
            try {
                job->report = compare_numerics(s);
                job->table = render::numerics_table(job->report);
            } catch (const std::exception& e) {
                job->error = e.what();
            }
            job->done = true;
        }).detach();
        return;
    }
    try {
        report = compare_numerics(s);
        table = render::numerics_table(report);
        ready = true;
    } catch (const std::exception& e) {
        error = e.what();
    }
}

}  // namespace rl::lab
