// app/render/numerics_table.h — core/numerics.h's comparison as table cells, the same in the lab bench and the classroom.
#pragma once
#include <string>
#include <vector>
#include "core/numerics.h"

namespace rl::render {

struct NumericsCellRow {
    std::vector<std::string> cells;  // one per NumericsTable::header entry
    bool chosen = false;             // the schedule as given: emphasised
    bool within_bound = true;        // false: the row is marked (never expected; a bug if seen)
    bool deterministic = true;       // false: atomic grid stage (several results over the orders tried)
    std::string tooltip;             // the schedule it ran, the bound's formula, the patterns seen, any note
};

struct NumericsTable {
    std::vector<std::string> header;  // order, result, bits, abs error, ULPs, bound, within bound, results
    std::vector<NumericsCellRow> rows;
    std::string summary;              // exact sum, its correctly rounded bits, sum|x|, u
};

NumericsTable numerics_table(const NumericsReport& r);

}  // namespace rl::render
