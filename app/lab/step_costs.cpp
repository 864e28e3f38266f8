// app/lab/step_costs.cpp — one step's bank conflicts, divergent warps and idle lanes, in words (docs/costs.md).
#include "app/lab/step_costs.h"

#include <cstdio>

namespace rl::lab {

std::vector<std::string> step_cost_lines(const CostReport& c, int step) {
    if (step < 0 || size_t(step) >= c.steps.size()) return {};
    const StepCosts& s = c.steps[size_t(step)];
    std::vector<std::string> out;
    if (s.accesses == 0) {
        out.push_back("bank conflicts: no shared-memory access");
    } else if (s.max_degree <= 1) {
        out.push_back("bank conflicts: none (" + std::to_string(s.accesses) + " warp access" + (s.accesses == 1 ? "" : "es") + ", one pass each)");
    } else {
        out.push_back("bank conflicts: " + std::to_string(s.max_degree) + "-way" +
                      (c.has_lines && s.worst_line ? " at line " + std::to_string(s.worst_line) : std::string()) + " (" +
                      std::to_string(s.conflicted) + " of " + std::to_string(s.accesses) + " warp accesses)");
    }
    out.push_back("divergent warps: " + std::to_string(s.divergent_warps));
    char pct[16];
    snprintf(pct, sizeof pct, "%.0f%%", s.lanes ? 100.0 * double(s.idle()) / double(s.lanes) : 0.0);
    out.push_back("idle lanes: " + std::to_string(s.idle()) + " of " + std::to_string(s.lanes) + " (" + pct + "), " +
                  std::to_string(s.waiting()) + " waiting");
    return out;
}

}  // namespace rl::lab
