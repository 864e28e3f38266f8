// app/cli/schedule_run.h — what trace, depth and check share: the SCHEDULE flags, --backend, and running them.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include "app/backend/backend.h"
#include "app/lab/schedule_options.h"

namespace rl::cli {

struct RunArgs {
    lab::ScheduleArgs schedule;
    std::string backend = "auto";
    uint32_t race_delay_ns = 0;  // GPU race amplifier
};

// Adds the SCHEDULE flags and --backend; --race-delay too when `race_delay` (trace and check).
void add_run_options(CLI::App& cmd, RunArgs& args, bool race_delay);
// Builds and runs the schedule. Throws rl::Error. A note about the backend (e.g. no GPU) is kept in
// deferred_note(): main prints it when the command succeeds, so an error stays the one line on stderr.
BackendRun run_schedule(const RunArgs& args);
std::string& deferred_note();
// The two header lines every report opens with: the schedule and where it ran.
void print_header(std::ostream& out, const Trace& t);

}  // namespace rl::cli
