// tests/gpu/student/student_files.h — the student kernels the GPU suites run: README.md's example (its ```cuda block
// with RL_KERNEL, written to a file) and every exercise under lessons/exercises/ with its run flags and hazard.
#pragma once
#include <string>
#include <vector>

#include "student/kernel_run.h"

namespace rl::test {

struct Exercise {
    std::string name;      // the folder's name
    std::string kernel;    // kernel.cu: the planted bug
    std::string solution;  // solution.cu
    std::vector<std::string> run;  // exercise.toml's run = [...] flags
    std::string hazard;            // exercise.toml's hazard: what the checker must find in kernel.cu
};

// Every lessons/exercises/*/ with a solution.cu, sorted by name.
std::vector<Exercise> exercises();

// README.md's example kernel written to dir/readme_example.cu; "" when README.md shows none.
std::string readme_example(const std::string& dir);

// A request for `file` with the flags of `run` (--n, --block, --grid, --input, --seed, --op); throws rl::Error for
// a flag the lab does not know.
student::KernelRequest request_for(const std::string& file, const std::vector<std::string>& run, Backend backend,
                                   double time_limit_s = 60);

}  // namespace rl::test
