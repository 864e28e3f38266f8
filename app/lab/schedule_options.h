// app/lab/schedule_options.h — the SCHEDULE flags of the command-line contract, wired into CLI11.
#pragma once
#include <array>
#include <string>
#include <vector>
#include "core/schedule.h"

namespace CLI {
class App;
}  // namespace CLI

namespace rl::lab {

struct ScheduleArgs {
    static constexpr size_t kFlagCount = 14;
    std::array<std::vector<std::string>, kFlagCount> raw;  // the values given, one list per flag
    Schedule build() const;                                 // throws rl::Error with a one-line reason
    bool given() const;                                     // any SCHEDULE flag on the command line
    // A student's kernel chooses its own stages and type: the flags it takes are the sizes, the input and the
    // operator. The first other flag given ("--warp"), or "" when there is none.
    std::string flag_beyond_sizes() const;
    bool op_given() const;                                  // --op on the command line
};

// Adds only the flags a student's kernel takes: --n --block --grid --input --seed --op (rlab run, --kernel).
void add_size_options(CLI::App& app, ScheduleArgs& args);

// Adds --n --block --grid --items --assign --warp --block-stage --grid-stage --op --type --input --seed --accum --bug.
void add_schedule_options(CLI::App& app, ScheduleArgs& args);

}  // namespace rl::lab
