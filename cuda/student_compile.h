// cuda/student_compile.h — a student's kernel compiled for the GPU with NVRTC against rlab/kernel.h's device
// branch. Needs no GPU (the compile test of every exercise runs on CI machines without one).
#pragma once
#include <string>
#include <vector>

namespace rl::student {

struct GpuProgram {
    bool ok = false;
    std::vector<char> cubin;  // when ok: for sm_<arch>
    std::string log;          // NVRTC's messages (`FILE(LINE): error: ...`: student/diagnostics.h reads them)
};

// text: what student/host_compile.h's compiled_text makes (`#line 1 "FILE"`, the source, RL_ENTRY(NAME)); file:
// the name NVRTC gives the program. Throws rl::Error when NVRTC itself fails (not for the student's errors).
GpuProgram compile_for_gpu(const std::string& file, const std::string& text, int arch, const std::string& include_dir);

}  // namespace rl::student
