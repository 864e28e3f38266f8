// tests/stripped_trace.h — a trace as an outside tool would hand it to the checker: no findings, no bug names.
#pragma once
#include "core/trace.h"

namespace rl::testing {

inline Trace stripped(Trace t) {
    t.hazards.clear();
    t.notes.clear();
    t.schedule.bugs = 0;
    for (Event& e : t.events) e.flags &= uint8_t(~kHazard);
    return t;
}

}  // namespace rl::testing
