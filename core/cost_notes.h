// core/cost_notes.h — a CostReport (core/costs.h) as calm one-line notes for the terminal and as JSON for export.
#pragma once
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "core/costs.h"

namespace rl {

// Up to three lines, each starting "note: ": bank conflicts (when the trace has shared-memory accesses), divergent
// warps, idle lanes. Costs, not hazards: they never change an exit code.
std::vector<std::string> cost_note_lines(const CostReport& c);
// {"rule", "slot_bytes", "banks", "shared": {...}, "divergence": {...}, "idle": {...}, "lines": [...], "steps": [...]}
// as docs/trace-format.md describes it.
nlohmann::json costs_json(const CostReport& c);

}  // namespace rl
