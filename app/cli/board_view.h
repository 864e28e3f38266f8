// app/cli/board_view.h — the trace drawn level by level in the terminal, as on a classroom board.
#pragma once
#include <iosfwd>
#include "core/analysis.h"
#include "core/trace.h"

namespace rl::cli {

// One table per shown block: a row per step, a column per thread, the value each thread holds.
void print_board(std::ostream& out, const Trace& t, unsigned max_columns = 16, unsigned max_blocks = 2);
// Result against reference, and the verdict.
void print_result(std::ostream& out, const Trace& t, const Analysis& a);
// Serial chain, ideal tree and this schedule: combines and depth, per scope.
void print_depth_table(std::ostream& out, const Trace& t, const Analysis& a);
// Hazards in plain language with the rule each breaks, then the notes (cost findings) apart.
void print_hazards(std::ostream& out, const Trace& t);

}  // namespace rl::cli
