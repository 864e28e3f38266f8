// app/lab/numerics_state.cpp — runs compare_numerics for the shown schedule once per change.
#include "app/lab/numerics_state.h"

#include <exception>

namespace rl::lab {
void NumericsState::update(const Schedule& s, bool force) {
    if (keyed && s == key && (ready || !unsupported.empty() || !error.empty() || (waiting && !force))) return;
    key = s;
    keyed = true;
    ready = waiting = false;
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
    try {
        report = compare_numerics(s);
        table = render::numerics_table(report);
        ready = true;
    } catch (const std::exception& e) {
        error = e.what();
    }
}

}  // namespace rl::lab
