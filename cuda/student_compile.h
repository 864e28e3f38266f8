// cuda/student_compile.h — a student's kernel file compiled for the GPU with NVRTC (no GPU needed), and NVRTC's
// log turned into diagnostics with file and line.
#pragma once
#include <string>
#include <vector>

#include "student/kernel_run.h"

namespace rl::student {

struct GpuProgram {
    bool ok = false;
    std::vector<char> cubin;               // when ok: for sm_<arch>
    std::vector<Diagnostic> diagnostics;   // NVRTC's errors and warnings, in the student's file where it says so
    std::string log;                       // NVRTC's whole log
};

// The text NVRTC compiles: `#line 1 "FILE"`, the student's source, then RL_ENTRY(NAME) (the entry point and
// the signature check of rlab/kernel.h's device branch).
std::string gpu_source_text(const std::string& file, const std::string& source, const std::string& name);

// Compiles for sm_<arch> (90 for the H200) with the header's include folder. Throws rl::Error when NVRTC
// itself fails (not for the student's errors: those are in the diagnostics).
GpuProgram compile_for_gpu(const std::string& file, const std::string& source, const std::string& name, int arch,
                           const std::string& include_dir);

// NVRTC's `FILE(LINE): error: MESSAGE` lines (also gcc-style `FILE:LINE:COL: error: MESSAGE`) as diagnostics;
// the source echo and caret lines below each message are left out.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log);

}  // namespace rl::student
