// student/diagnostics.h — compiler output into rl::student::Diagnostic lines (g++/clang `FILE:LINE:COL: error:
// MESSAGE`, NVRTC `FILE(LINE): error: MESSAGE`), and the one line that sums up a failed compile.
#pragma once
#include <string>
#include <string_view>
#include <vector>
#include "student/kernel_run.h"

namespace rl::student {

// Errors, fatal errors and warnings, in the order the compiler gave them (notes are left in the log).
std::vector<Diagnostic> parse_diagnostics(std::string_view log);

// "FILE:LINE:COL: error: MESSAGE" (the first error), for a one-line summary; empty when there is none.
std::string first_error_line(const std::vector<Diagnostic>& diagnostics);

}  // namespace rl::student
