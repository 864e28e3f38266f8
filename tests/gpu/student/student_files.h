// tests/gpu/student/student_files.h — the dialect kernels the GPU suites run: README.md's example (its ```cuda block
// with RL_KERNEL, written to a file) and the emulator's student kernels, and a request from rlab run's flags.
#pragma once
#include <string>
#include <vector>

#include "student/kernel_run.h"

namespace rl::test {

// README.md's example kernel written to dir/readme_example.cu; "" when README.md shows none.
std::string readme_example(const std::string& dir);

// The emulator's student kernels (tests/student/kernels/*.cu) that compile, sorted: all but bad_syntax.cu and
// bad_signature.cu, which test the compilers' messages.
std::vector<std::string> compiling_student_kernels();

// A request for `file` with the flags of `run` (--n, --block, --grid, --input, --seed, --op); throws rl::Error for
// a flag the lab does not know.
student::KernelRequest request_for(const std::string& file, const std::vector<std::string>& run, Backend backend,
                                   double time_limit_s = 60);

}  // namespace rl::test
