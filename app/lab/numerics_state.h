// app/lab/numerics_state.h — the numerics comparison of the current schedule, recomputed when the schedule changes.
// The numbers are core/numerics.h's; the cells app/render/numerics_table's. Small schedules are compared at once;
// larger ones on a thread of their own, so no frame waits for the dozen runs (48 us an element: seconds at 65,536).
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include "app/render/numerics_table.h"
#include "core/numerics.h"

namespace rl::lab {

struct NumericsState {
    // Above this n the comparison (a dozen emulator runs plus the atomic orders) waits for an explicit request.
    static constexpr uint64_t kAutoMaxN = uint64_t(1) << 16;
    // Up to this n the comparison runs in the caller, above it on its own thread. Its cost grows with the atomic
    // orders too, not with n alone: at n = 1936 with 38 blocks finishing by atomics it took 0.47 s (`rlab numerics`),
    // and the classroom stopped for a second on each such schedule change (the Qt monkey, seed 19); up to 256 it
    // stays under a tenth of a second.
    static constexpr uint64_t kSyncMaxN = 256;

    bool ready = false;            // table holds the comparison of `key`'s schedule
    Schedule key;                  // the schedule compared (or refused)
    bool keyed = false;            // key holds a schedule
    std::string unsupported;       // one line: why this schedule has no comparison (numerics_supported)
    std::string error;             // one line: the comparison failed
    bool waiting = false;          // large n: computed only when asked
    bool computing = false;        // on its thread: update() takes the result once it is there
    NumericsReport report;
    render::NumericsTable table;

    // Brings the state up to date for `s`: computes when n <= kAutoMaxN or `force` (on a thread above kSyncMaxN:
    // `computing` until a later update() finds it done); otherwise sets `waiting`.
    void update(const Schedule& s, bool force = false);

private:
    struct Job {  // shared with its thread, which may outlive a schedule change (its result is then dropped)
        std::atomic<bool> done{false};
        NumericsReport report;
        render::NumericsTable table;
        std::string error;
    };
    std::shared_ptr<Job> job_;
};

}  // namespace rl::lab
