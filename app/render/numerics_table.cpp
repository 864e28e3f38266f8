// app/render/numerics_table.cpp — formats the numerics report's rows (labels like rlab numerics, short numbers).
#include "app/render/numerics_table.h"
#include "core/text_format.h"

#include <cstdio>

namespace rl::render {
namespace {

std::string label_of(const NumericsRow& row) {
    switch (row.group) {
        case RowGroup::WarpTree: return "warp " + row.label;
        case RowGroup::Accumulation: return "accum " + row.label;
        case RowGroup::GridStage: return "grid " + row.label;
        default: return row.label;
    }
}

std::string hex_of(uint64_t bits, bool f64) {
    char buf[24];
    snprintf(buf, sizeof buf, f64 ? "0x%016llx" : "0x%08llx", static_cast<unsigned long long>(bits));
    return buf;
}

}  // namespace

NumericsTable numerics_table(const NumericsReport& r) {
    NumericsTable t;
    t.header = {"order", "result", "bits", "abs error", "error (ULPs)", "bound", "within bound", "results seen"};
    const bool f64 = r.accumulator == "f64";
    t.summary = "exact sum " + format_number("%.17g", r.exact) + ", correctly rounded to " + r.accumulator + ": " +
                r.reference_hex + " · sum|x| " + format_number("%.6g", r.abs_sum) + " · u = " + (f64 ? "2^-53" : "2^-24") +
                " · bounds are guaranteed, errors measured";
    for (const NumericsRow& row : r.rows) {
        NumericsCellRow c;
        c.chosen = row.chosen;
        c.within_bound = row.within_bound;
        c.deterministic = row.deterministic;
        std::string seen = "1 (fixed order)";
        if (!row.deterministic)
            seen = std::to_string(row.patterns.size()) + " in " + std::to_string(row.runs) + " orders";
        c.cells = {label_of(row),  // core calls the chosen row "chosen schedule"; the views emphasise it
                   format_number("%.9g", row.value),
                   row.bits_hex,
                   format_number("%.3g", row.abs_error),
                   format_number("%.3g", row.ulps),
                   format_number("%.3g", row.bound),
                   row.within_bound ? "yes" : "NO",
                   seen};
        c.tooltip = (row.schedule.empty() ? std::string() : row.schedule + "\n") + "bound: " + row.bound_formula;
        if (!row.deterministic) {
            c.tooltip += "\n" + row.runs_source + ":";
            for (const BitPattern& p : row.patterns) c.tooltip += " " + hex_of(p.bits, f64) + " x" + std::to_string(p.count);
            c.tooltip += "\nworst error " + format_number("%.3g", row.worst_abs_error);
        }
        if (!row.note.empty()) c.tooltip += "\n" + row.note;
        t.rows.push_back(std::move(c));
    }
    return t;
}

}  // namespace rl::render
