// core/checker.h — the trace checker: hazards by the rules of the CUDA programming model.
#pragma once
#include <vector>
#include "core/trace.h"

namespace rl {

// Hazards by the rules of the CUDA programming model, from the trace's events, geometry and
// operator alone (never from bug names or hazards already in the trace).
std::vector<Hazard> check_trace(const Trace& t);
// Replaces t.hazards with check_trace(t) and sets kHazard on exactly those events.
void attach_checked_hazards(Trace& t);

}  // namespace rl
