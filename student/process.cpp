// student/process.cpp — posix_spawn, output to an unlinked temporary file (no pipe to fill), and a kill at the
// time limit or on the caller's cancel (the whole process group, so a compiler's children go too).
#include "student/process.h"
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace rl::student {

std::string find_on_path(const std::string& name) {
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(start, end - start);
        if (dir.empty()) dir = ".";
        const std::string full = dir + "/" + name;
        struct stat st {};
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
        start = end + 1;
    }
    return {};
}

ProcessResult run_process(const std::vector<std::string>& argv, double time_limit_s, bool own_group, size_t max_output,
                          const std::atomic<bool>* cancel) {
    ProcessResult r;
    const std::string program = find_on_path(argv.at(0));
    if (program.empty()) {
        r.start_error = argv[0] + " was not found (not on PATH or not executable)";
        return r;
    }
    char tmpl[] = "/tmp/rlab-process-XXXXXX";
    const int out_fd = mkstemp(tmpl);
    if (out_fd < 0) {
        r.start_error = std::string("cannot create a temporary file: ") + std::strerror(errno);
        return r;
    }
    unlink(tmpl);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, out_fd, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (own_group) {
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0);
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        close(out_fd);
        r.start_error = "cannot run " + program + ": " + std::strerror(rc);
        return r;
    }
    r.started = true;
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    for (auto pause = std::chrono::microseconds(200);;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const bool over = time_limit_s > 0 && elapsed >= time_limit_s && !r.timed_out && !r.cancelled;
        const bool asked = cancel && cancel->load() && !r.timed_out && !r.cancelled;
        if (over || asked) {
            (over ? r.timed_out : r.cancelled) = true;
            if (own_group) kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
        std::this_thread::sleep_for(pause);
        if (pause < std::chrono::milliseconds(10)) pause *= 2;
    }
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    // The output, the end kept when it is long (the last lines say what failed).
    const off_t size = lseek(out_fd, 0, SEEK_END);
    const off_t from = size > off_t(max_output) ? size - off_t(max_output) : 0;
    r.output.resize(size_t(size - from));
    size_t got = 0;
    while (got < r.output.size()) {
        const ssize_t n = pread(out_fd, r.output.data() + got, r.output.size() - got, from + off_t(got));
        if (n <= 0) break;
        got += size_t(n);
    }
    r.output.resize(got);
    close(out_fd);
    return r;
}

}  // namespace rl::student
