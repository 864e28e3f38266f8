// app/cli/schedule_options.h — the SCHEDULE flags of the command-line contract, wired into CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>
#include "core/schedule.h"

namespace rl::cli {

struct ScheduleArgs {
    std::vector<std::string> raw[16];  // one list per flag, in the order of kFlags
    Schedule build() const;            // throws rl::Error with a one-line reason
};

// Adds --n --block --grid --items --assign --warp --block-stage --grid-stage --op --type --input --seed --bug.
void add_schedule_options(CLI::App& app, ScheduleArgs& args);

}  // namespace rl::cli
