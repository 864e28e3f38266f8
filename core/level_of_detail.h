// core/level_of_detail.h — a trace summarised by level of detail: blocks outside a detail window kept as counts.
// A plain CUDA run too large for every event (2^24 elements: ~70 million) keeps full events for a window of blocks
// and, for every other block, its counts, steps and source lines, and its global-memory events as events (later
// launches and the result read them) with the barriers that order them. docs/plain-cuda-at-scale.md, "Level of detail".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rl {

struct Trace;
enum class EventKind : uint8_t;

// Consecutive blocks of one launch shown as counts.
struct SummarisedBlocks {
    uint32_t first_block = 0, blocks = 0;  // trace blocks [first_block, first_block + blocks)
    uint16_t first_step = 0, last_step = 0;  // the steps their events took (trace steps)
    uint64_t events = 0;                   // all of their events, the kept ones included
    uint64_t kinds[16] = {};               // events per EventKind (kEventKindCount)
    uint64_t kept = 0;                     // of `events`, those kept in Trace::events (summarised_block_keeps)
    std::vector<uint16_t> lines;           // the source lines they ran, ascending
};

struct LevelOfDetail {
    // 0: every event of the run is in the trace. Otherwise the window: the first detail_blocks blocks and the last block
    // of each launch, and every block where the checker found a hazard, are kept in full.
    uint32_t detail_blocks = 0;
    uint64_t events_total = 0;  // the run's events, kept and summarised
    std::vector<SummarisedBlocks> summarised;  // ascending, none overlapping
    bool active() const { return detail_blocks != 0; }
};

// The events a summarised block keeps in Trace::events: global memory's (stores, atomics, tickets, fences, grid
// syncs), which later launches, the result and the checker's rules across blocks read; and, in a block that has such
// events, its barriers and __syncwarp()s: the checker orders a block's accesses before its ticket (or its fence and
// flag) through them (the last-block pattern: one thread stores and fences, a barrier, another draws the ticket).
bool is_global_memory_kind(EventKind k);
bool orders_a_ticket(EventKind k);  // Barrier, WarpSync

// "" when t.detail is well formed (ranges ascending inside the trace's launches, none across a launch, counts adding
// up to their events without overflow, kept equal to the events Trace::events holds in their blocks, each of a kind
// a summarised block keeps, steps inside the trace, events_total at least the events kept), else one line naming the
// first that is not.
std::string level_of_detail_problem(const Trace& t);
// The one line that says what is shown in full and what as counts ("" for a trace that keeps every event):
// "level of detail: 70,912,345 events in 32,837 blocks; in full: launch 1 blocks 0-63, 32767; ...; the other 32,704
// blocks as counts (1,409,984 events, of them 294,336 kept: global memory's events and the barriers ordering them);
// hazards are found in every block; depth and cost notes count the kept events only".
std::string level_of_detail_line(const Trace& t);

}  // namespace rl
