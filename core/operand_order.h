// core/operand_order.h — the events of a trace in an order where every operand comes first (core/analysis.cpp).
#pragma once
#include <cstdint>
#include <vector>
#include "core/trace.h"

namespace rl {

// Atomics replayed out of emission order can point forward, so plain index order is not always topological.
// A cycle of operands (never in a trace rlab records) is cut; cycle_at, when given, receives an event on it
// (kNoEvent when there is none): the trace reader refuses such a trace with that event named.
std::vector<uint32_t> topological_order(const Trace& t, uint32_t* cycle_at = nullptr);

}  // namespace rl
