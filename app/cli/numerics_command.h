// app/cli/numerics_command.h — rlab numerics: one input through many orders, errors against the exact sum and bounds.
#pragma once
#include <string>
#include "app/lab/schedule_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace rl::cli {

struct NumericsArgs {
    lab::ScheduleArgs schedule;
    uint32_t runs = 16;           // atomic orders (emulated) or GPU runs per atomic row
    uint64_t order_seed = 1;
    std::string backend = "auto";
    std::string format = "text";
};

CLI::App* add_numerics_command(CLI::App& app, NumericsArgs& args);
int run_numerics(const NumericsArgs& args);  // 0, or 2 on bad input (thrown as rl::Error)

}  // namespace rl::cli
