// student/process.h — runs a program (the host compiler, the kernel runner) with posix_spawn, its stdout and
// stderr into a file, and kills it at a time limit: what a caller must survive whatever the child does.
#pragma once
#include <atomic>
#include <string>
#include <vector>

namespace rl::student {

struct ProcessResult {
    bool started = false;   // false: the program could not be run (start_error says why)
    std::string start_error;
    bool timed_out = false; // killed at the time limit
    bool cancelled = false; // killed because the caller asked (`cancel` became true)
    int exit_code = -1;     // when it exited
    int signal = 0;         // when a signal ended it (SIGSEGV ...)
    std::string output;     // its stdout and stderr (at most max_output bytes, the end kept)
};

// argv[0] is the program: a path, or a name looked up on PATH. time_limit_s <= 0: no limit. own_group: the child
// leads a process group of its own, and the time limit kills that whole group (the runner and the compiler it
// started); false keeps the child in the caller's group (the compiler under the runner, so the runner's caller
// reaches it too). `cancel`, when given, is read while the child runs: once true the child is killed as at the time
// limit (a GUI's Cancel: the caller waits on this in a worker thread).
ProcessResult run_process(const std::vector<std::string>& argv, double time_limit_s, bool own_group,
                          size_t max_output = 1 << 20, const std::atomic<bool>* cancel = nullptr);

// The first of `names` found on PATH (or the path itself when it names an executable), else empty.
std::string find_on_path(const std::string& name);

}  // namespace rl::student
