// core/costs.h — what a run costs beyond being correct, from the trace's events alone: shared-memory bank conflicts
// per warp access, warps split at a source line, idle lanes per step. Computed on demand; never part of a verdict.
#pragma once
#include <cstdint>
#include <vector>
#include "core/trace.h"

namespace rl {

// Shared memory on compute capability 5.x and later (CUDA C++ Programming Guide, "Shared Memory" of each compute
// capability): 32 banks; successive 4-byte words go to successive banks.
constexpr uint32_t kSharedBanks = 32;
constexpr uint32_t kBankWordBytes = 4;

// Bytes of one shared-memory slot of t (Event::detail of SharedLoad/SharedStore), so slot s starts at byte s * size:
// - a student's kernel (plain CUDA or the dialect): its element type (float, int 4; double 8). The engines number
//   the slots of the element-typed shared arrays one after another (simt/launch.cpp; rl::Shared in the order built);
// - the lab's schedules: the generated kernel's `Value` (codegen/kernel_source.cpp): the accumulator (double 8,
//   else 4), or a two-field struct aligned to 8 for argmax / sum-count / witness (16 when its first field is double).
uint32_t shared_slot_bytes(const Trace& t);

// The largest number of distinct 4-byte words that fall into one bank when one warp accesses these slots together:
// the passes the access needs (1: no conflict). Lanes reading the same word are one broadcast; an 8-byte slot covers
// two words. `slots` are the lanes' slots (any number, repeats allowed); 0 when empty.
uint32_t bank_conflict_degree(const uint32_t* slots, uint32_t count, uint32_t slot_bytes);

// One shared-memory access instruction of one warp: its lanes' SharedLoad (or SharedStore) events on one step at one
// source line; the k-th such event of each lane on that step and line is its k-th instruction there (the lab's own
// schedules record a level's two loads on one step).
struct SharedAccess {
    uint32_t event = kNoEvent;  // its first event
    uint32_t block = 0;
    uint32_t line = 0;          // 0 when the trace has no source lines
    uint16_t step = 0;
    uint16_t warp = 0;
    EventKind kind = EventKind::SharedLoad;
    uint8_t lanes = 0;          // lanes taking part
    uint8_t degree = 0;         // bank_conflict_degree of their slots
};

// One step of the picture, summed over every block and warp that runs on it.
struct StepCosts {
    uint32_t accesses = 0;        // shared-memory accesses (SharedAccess) on this step
    uint32_t conflicted = 0;      // of which degree > 1
    uint32_t max_degree = 0;      // the worst access's degree (0: no shared access)
    uint32_t worst_line = 0;      // its line
    uint32_t divergent_warps = 0; // warps split on this step (see CostReport::divergent_warp_steps)
    uint64_t lanes = 0;           // lane slots of the running blocks: 32 per warp
    uint64_t live = 0;            // lanes that have not exited (and were launched)
    uint64_t active = 0;          // lanes that record something on this step
    uint64_t idle() const { return lanes - active; }
    uint64_t waiting() const { return live - active; }  // alive, recording nothing: the other side of a branch, a wait
};

struct LineCost {
    uint32_t line = 0;
    uint64_t accesses = 0;        // shared-memory accesses at this line
    uint64_t conflicted = 0;
    uint64_t passes = 0;          // sum of their degrees
    uint32_t max_degree = 0;
    uint64_t divergent_warp_steps = 0;
};

struct CostReport {
    uint32_t slot_bytes = 4;
    bool has_lines = false;           // lines from the trace or the caller; else every event counts as line 0
    std::vector<SharedAccess> accesses;   // in step order
    std::vector<StepCosts> steps;         // one per step 0 .. step_count-1
    std::vector<LineCost> lines;          // lines with shared accesses or divergence, ascending
    uint64_t shared_accesses = 0, conflicted = 0, passes = 0;
    uint32_t max_degree = 0, worst_line = 0;
    // A warp-step is divergent when, on that step, some of the warp's live lanes record an event at a source line and
    // other live lanes of it do not (they record at another line, or nothing). A live lane is a launched lane of a
    // running block, from its block's first step to its own last event (its exit event, when it has one).
    uint64_t divergent_warp_steps = 0;
    uint64_t lane_steps = 0, live_lane_steps = 0, active_lane_steps = 0;  // sums of StepCosts over the steps
};

// Costs of t. event_lines: a source line per event (the lab's schedules: codegen's line_table); empty: t.lines, or
// none. A few linear passes (the emulator's traces are sorted a block at a time); memory: a few words per event
// and per thread.
CostReport compute_costs(const Trace& t, const std::vector<uint32_t>& event_lines = {});

}  // namespace rl
