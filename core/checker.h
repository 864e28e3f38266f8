// core/checker.h — the trace checker: hazards by the rules of the CUDA programming model.
#pragma once
#include <cstdint>
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
// race_pairs: how many pairs of accesses the global-memory-race rule may examine; past it, a race-check-incomplete
// note names the elements it did not compare (a test passes a small budget to see that note).
inline constexpr uint64_t kRacePairBudget = uint64_t(1) << 24;
Findings check_findings(const Trace& t, uint64_t race_pairs = kRacePairBudget);
std::vector<Hazard> check_trace(const Trace& t);  // check_findings(t).hazards
// Replaces t.hazards and t.notes with check_findings(t) and sets kHazard on exactly the hazards' events.
void attach_checked_hazards(Trace& t);

}  // namespace rl
