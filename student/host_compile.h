// student/host_compile.h — builds a student's kernel file into a plugin with the host compiler
// (`$RLAB_CXX`, else c++, g++, clang++ on PATH), cached by content hash under
// $XDG_CACHE_HOME/reduction-lab/kernels, with `#line 1 "FILE"` so messages name the student's file.
#pragma once
#include <string>
#include <vector>
#include "student/kernel_run.h"

namespace rl::student {

struct HostCompile {
    bool ok = false;
    std::string plugin;                   // the shared object, when ok
    bool cached = false;                  // it came from the cache
    std::vector<Diagnostic> diagnostics;
    std::string log;                      // the compiler's whole output
    std::string error;                    // when !ok: one line
};

// The folder with rlab/kernel.h this program uses (RLAB_INCLUDE_DIR, else the build tree's or the installed one).
std::string kernel_include_dir();

// The text the compiler sees: `#line 1 "FILE"`, the source, RL_ENTRY(NAME) placed on the kernel's line.
// Throws rl::Error (one line) when the source has no RL_KERNEL or more than one.
std::string compiled_text(const std::string& file, const std::string& source);

HostCompile compile_host_kernel(const std::string& file, const std::string& source);

}  // namespace rl::student
