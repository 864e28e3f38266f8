// core/version.h — the program version, set once by project(VERSION) in the top-level CMakeLists.txt.
#pragma once
#include <string>

namespace rl {

// "0.1.0"
const char* version();
// What `--version` prints: "PROGRAM 0.1.0".
std::string version_line(const std::string& program);

}  // namespace rl
