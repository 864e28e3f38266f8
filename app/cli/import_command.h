// app/cli/import_command.h — `rlab import FILE`: validate a trace JSON file and print its summary.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace rl::cli {

CLI::App* add_import_command(CLI::App& app, std::string& file);
int run_import(const std::string& file);  // 0, or 2 on a malformed file (thrown as rl::Error)

}  // namespace rl::cli
