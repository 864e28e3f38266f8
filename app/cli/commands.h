// app/cli/commands.h — the rlab subcommands (trace, depth, check, import), each a function.
#pragma once
#include <string>
#include "app/backend/backend.h"
#include "app/cli/schedule_options.h"

namespace rl::cli {

struct TraceArgs {
    ScheduleArgs schedule;
    std::string backend = "auto";
    std::string format = "text";
    std::string output;
    uint32_t race_delay_ns = 0;  // GPU race amplifier
    uint32_t runs = 1;           // check: run this many times and count wrong results
};

int run_trace(const TraceArgs& a);   // 0, or 2 on bad input
int run_depth(const TraceArgs& a);   // 0, or 2
int run_check(const TraceArgs& a);   // 0 clean, 1 hazards or a wrong result, 2 bad input
int run_import(const std::string& file);
int run_eight_threads();              // the default: the eight-thread example on the board

}  // namespace rl::cli
