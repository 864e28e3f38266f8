// core/numerics.h — the numerics lab: one input summed in many orders, each result against the exact sum and its bound.
//
// One call gives a table (a struct of rows) that rlab, the lab bench and the classroom all show:
// serial orders, the chosen schedule, the same schedule with each other warp tree, accumulation
// choice and grid stage, and for atomic grid stages several legal completion orders with the number
// of distinct bit patterns they gave. Every number is computed, never typed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/schedule.h"

namespace rl {

enum class RowGroup : uint8_t { Serial, Chosen, WarpTree, Accumulation, GridStage };
std::string_view to_string(RowGroup);

// One result bit pattern seen over several runs or orders, and how often.
struct BitPattern {
    uint64_t bits = 0;     // packed like Trace::result_value (f32 in the low 32 bits)
    double value = 0.0;
    uint32_t count = 0;
};

struct NumericsRow {
    RowGroup group = RowGroup::Serial;
    std::string label;            // "serial left-to-right", "shfl-xor", "kahan", "atomic-block", ...
    std::string schedule;         // describe() of the schedule run (empty for serial rows)
    Schedule variant;             // the schedule this row ran (meaningful for non-serial rows)
    bool chosen = false;          // this row is the schedule as given

    double value = 0.0;           // the result (for atomic rows: under the first order)
    uint64_t bits = 0;            // its bit pattern
    std::string bits_hex;         // "0x4b189680" (f32, bf16/f16 sums) or 16 hex digits (f64)
    std::string note;             // e.g. why a variant runs with --accum plain
    double abs_error = 0.0;       // |value - exact|
    double rel_error = 0.0;       // abs_error / |exact| (abs_error when exact is 0)
    double ulps = 0.0;            // abs_error in ULPs of the exact sum rounded to the accumulator type
    double bound = 0.0;           // guaranteed bound on abs_error for this order
    std::string bound_formula;    // e.g. "gamma_7 * sum|x|" or "(2u + (4n+2)u^2) * sum|x|"
    bool within_bound = true;     // every run or order of this row stayed within the bound
    uint32_t span = 0;            // roundings on the longest path (serial: n-1)
    uint64_t flops = 0;           // floating-point instructions executed (adds, subtracts, conversions)
    std::string flops_formula;    // how flops was counted

    // Atomic grid stages: the orders tried and the distinct results they gave.
    bool deterministic = true;    // false for atomic grid stages: completion order is not fixed
    uint32_t runs = 0;            // orders (emulated) or GPU runs behind the patterns; 0 for fixed orders
    std::string runs_source;      // "emulator: seeded legal orders" or "GPU: <device>"
    std::vector<BitPattern> patterns;  // distinct results, most frequent first
    double worst_abs_error = 0.0; // over all runs
    double gpu_time_us = -1.0;    // measured median on the GPU (uninstrumented), -1 when not measured
};

struct NumericsReport {
    Schedule schedule;            // as given (validated)
    std::string accumulator;      // "f32" or "f64": the type every row rounds to
    double unit_roundoff = 0.0;   // u of the accumulator: 2^-24 or 2^-53
    double exact = 0.0;           // the exact sum, rounded to double (Shewchuk expansion)
    std::vector<double> exact_partials;  // the exact sum itself: non-overlapping doubles adding up to it
    uint64_t reference_bits = 0;  // the exact sum correctly rounded to the accumulator type
    std::string reference_hex;
    double abs_sum = 0.0;         // sum |x| (each |x| exact in double; the sum rounded to double)
    std::vector<NumericsRow> rows;
};

struct NumericsOptions {
    uint32_t atomic_orders = 32;  // emulated completion orders per atomic grid stage
    uint64_t order_seed = 1;      // seeds the permutations (same seed, same orders)
};

// Correct float sums only (--op sum over f32, f64, bf16 or f16, no --bug): one line naming what is
// wrong, else empty.
std::string numerics_supported(const Schedule& s);

// The full comparison for one schedule and its input (the input from make_input when not given).
// Throws rl::Error (core/error.h) when the schedule is invalid or not supported.
NumericsReport compare_numerics(const Schedule& s, const NumericsOptions& options = {});
NumericsReport compare_numerics(const Schedule& s, const InputData& input, const NumericsOptions& options = {});

// Replaces a row's runs with results measured elsewhere (e.g. K GPU runs of an atomic stage):
// patterns, worst error, within_bound and runs are recomputed against the report's exact sum.
void set_runs(NumericsRow& row, const NumericsReport& report, const std::vector<uint64_t>& result_bits,
              std::string source);

// The accumulation choices and warp trees in table order, for front ends building selectors.
std::vector<Accum> all_accums();

}  // namespace rl
