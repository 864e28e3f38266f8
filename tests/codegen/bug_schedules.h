// tests/codegen/bug_schedules.h — one valid schedule per injected bug, on partial warps and several blocks
// where the bug needs them, so each bug's changed lines are generated and compiled.
#pragma once
#include <vector>

#include "core/schedule.h"

namespace rl::testing {

inline std::vector<Schedule> bug_schedules() {
    std::vector<Schedule> out;
    for (int k = 0; k < kBugCount; ++k) {
        const Bug b = Bug(1u << k);
        Schedule s;
        s.n = 300;
        s.block = 40;  // a partial second warp
        s.bugs = uint16_t(b);
        switch (b) {
            case Bug::WrongIdentity: s.op = Op::Min; break;  // iota: every value >= 1, so a 0 identity wins
            case Bug::GridStrideOrder:  // several items per thread, or the two assignments are the same
                s.op = Op::Witness; s.warp = WarpStage::ShflDownAsc; s.grid = 2; break;
            case Bug::DescendingOrder: s.op = Op::Witness; s.warp = WarpStage::ShflDownAsc; break;
            case Bug::VolatileUnroll: s.warp = WarpStage::SmemSequential; break;
            case Bug::MissingThreadfence: s.grid_stage = GridStage::LastBlock; break;
            case Bug::UninitTail: s.n = 70; s.grid = 3; break;
            case Bug::DivergentShuffle: s.n = 70; s.grid = 2; break;
            default: break;
        }
        out.push_back(s);
    }
    return out;
}

}  // namespace rl::testing
