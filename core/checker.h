// core/checker.h — the trace checker: hazards by the rules of the CUDA programming model.
#pragma once
#include <vector>
#include "core/trace.h"

namespace rl {

// What the rules find: hazards (a rule of the CUDA programming model broken) and notes (cost findings,
// is_note: correct code that is slower than it could be).
struct Findings {
    std::vector<Hazard> hazards;
    std::vector<Hazard> notes;
};

// Findings by the rules of the CUDA programming model, from the trace's events, geometry and operator alone
// (never from bug names or findings already in the trace).
Findings check_findings(const Trace& t);
std::vector<Hazard> check_trace(const Trace& t);  // check_findings(t).hazards
// Replaces t.hazards and t.notes with check_findings(t) and sets kHazard on exactly the hazards' events.
void attach_checked_hazards(Trace& t);

}  // namespace rl
