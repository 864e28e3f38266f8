// app/lab/step_costs.h — the current step's costs (bank conflicts, divergent warps, idle lanes) in short lines that
// both front ends show beside the animation, read from the CostReport computed once per trace (LabState::costs).
#pragma once
#include <string>
#include <vector>
#include "core/costs.h"

namespace rl::lab {

// Three lines for step `step` of a report: bank conflicts, divergent warps, idle lanes. Empty while the report is
// not computed yet (a large trace's first frame) or the step is outside it.
std::vector<std::string> step_cost_lines(const CostReport& c, int step);

}  // namespace rl::lab
