// app/lab/numerics_state.h — the numerics comparison of the current schedule, recomputed when the schedule changes.
// The numbers are core/numerics.h's; the cells app/render/numerics_table's.
#pragma once
#include <string>
#include "app/render/numerics_table.h"
#include "core/numerics.h"

namespace rl::lab {

struct NumericsState {
    // Above this n the comparison (a dozen emulator runs plus the atomic orders) waits for an explicit request.
    static constexpr uint64_t kAutoMaxN = uint64_t(1) << 16;

    bool ready = false;            // table holds the comparison of `key`'s schedule
    Schedule key;                  // the schedule compared (or refused)
    bool keyed = false;            // key holds a schedule
    std::string unsupported;       // one line: why this schedule has no comparison (numerics_supported)
    std::string error;             // one line: the comparison failed
    bool waiting = false;          // large n: computed only when asked
    NumericsReport report;
    render::NumericsTable table;

    // Brings the state up to date for `s`: computes when n <= kAutoMaxN or `force`; otherwise sets `waiting`.
    void update(const Schedule& s, bool force = false);
};

}  // namespace rl::lab
