// core/analysis.h — what a trace says: work, span from its own dependencies, result against reference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/trace.h"

namespace rl {

enum class Verdict : uint8_t { Exact, WithinBound, Wrong, Undefined, OrderViolated };
std::string_view to_string(Verdict);

struct Analysis {
    uint64_t events = 0;
    uint64_t work = 0;                 // combines in the result's cone merging real data: n-1 when every input counts once
    uint64_t identity_combines = 0;    // combines in the cone with an identity-only operand (lanes without data)
    uint64_t redundant_combines = 0;   // combines whose value never reaches the result (e.g. the xor butterfly's other lanes)
    uint64_t work_by_scope[4] = {};    // thread, warp, block, grid
    uint32_t span = 0;                 // longest chain of combines, following the trace's dependencies
    uint32_t span_by_scope[4] = {};    // combines of each scope on that chain
    uint32_t span_above_thread = 0;    // longest chain counting only combines outside the thread stage
    uint64_t serial_depth = 0;         // n - 1
    uint32_t tree_depth = 0;           // ceil(log2 n)

    // The result against the reference (see Trace::reference_*).
    bool has_result = false;
    double result = 0.0, reference = 0.0;
    double abs_error = 0.0, rel_error = 0.0, ulps = 0.0;
    double error_bound = 0.0;          // what rounding may cost on this schedule (0 where exact)
    std::string bound_formula;         // how error_bound was derived
    Verdict verdict = Verdict::Exact;
};

Analysis analyze(const Trace& t);

// Every event the given event depends on, itself included (the dependency cone), in index order.
std::vector<uint32_t> dependency_cone(const Trace& t, uint32_t event);
// The same as one byte per event (1: in the cone): what a pass over all events reads, at a quarter of the memory.
std::vector<uint8_t> dependency_mask(const Trace& t, uint32_t event);

// Events in canonical order (block, step, thread, then program order) with operands renumbered:
// the form in which a GPU trace and an emulator trace are compared.
std::vector<Event> canonical_events(const Trace& t);

uint32_t ceil_log2(uint64_t n);

}  // namespace rl
