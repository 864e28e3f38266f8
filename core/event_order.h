// core/event_order.h — events renumbered so that every operand names an earlier event (a trace is a DAG
// by construction), with everything that indexes events (operands, times, lines, hazards, the result) kept consistent.
#pragma once
#include <cstdint>
#include <vector>
#include "core/trace.h"

namespace rl {

// The first event with an operand at or after its own index, or kNoEvent when every operand points earlier.
uint32_t first_forward_operand(const Trace& t);

// Renumbers t's events into the order (launch, step, block, thread, old index), the first launch before the
// finishing stage, moved only as far as needed for every operand to name an earlier event; each thread's events
// keep their program order (the old order within a thread) unless an order of atomics no hardware could pick
// makes that impossible. A GPU records in lane/slot order, where a shuffle can
// name a later lane's slot and an atomic the one that followed it in hardware; this is the one order GPU traces
// (captured or recorded earlier) are written in. Throws rl::Error when the operands form a cycle.
void order_operands_first(Trace& t);
// The same order as a permutation: order[new index] = old index (for tools that rewrite trace files as text).
std::vector<uint32_t> operands_first_order(const std::vector<Event>& events);

}  // namespace rl
