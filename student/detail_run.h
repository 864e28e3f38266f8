// student/detail_run.h — a plan run summarised by level of detail: every block of every launch runs and is checked,
// and the trace keeps full events only for a window of blocks (docs/plain-cuda-at-scale.md, "Level of detail").
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "core/schedule.h"
#include "simt/program.h"
#include "student/launch_plan.h"
#include "student/plan_run.h"

namespace rl::student {

struct DetailOptions {
    uint32_t detail_blocks = 64;  // the window: the first detail_blocks blocks and the last block of each launch
    uint32_t part_blocks = 64;    // blocks run and assembled at a time (what bounds the records in memory)
};

// The default window when --detail-blocks is not given: 0 (every event kept) unless the plan's threads are so many that
// its trace would pass the trace limit at eight events a thread (Harris 4 at 256 threads makes 8.3: 2^22 elements and
// up); a plan below that which passes the limit all the same is run again summarised (student/runner_main.cpp).
uint32_t default_detail_blocks(const std::vector<BoundLaunch>& launches);

// As run_plan (student/plan_run.h), but a launch runs part_blocks blocks at a time through the SIMT engine (its
// buffers and __device__ variables kept across the parts), each part's records are assembled and checked by core's
// assembly as a run of their own (operands from earlier parts are given by the merge: see the .cpp), and only the
// window's events, the blocks where the checker found a hazard and every block's stores to global memory (which later
// launches and the result read) are kept; the other blocks become Trace::detail's counts. The result is what memory
// holds; the verdict is the checker's over the kept trace joined with each part's. Throws as run_plan does.
PlanOutcome run_plan_summarised(const simt::Module& module, const std::vector<BoundLaunch>& launches, Schedule schedule,
                                bool op_given, const std::string& file, const DetailOptions& options);

}  // namespace rl::student
