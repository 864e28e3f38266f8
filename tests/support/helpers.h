// tests/support/helpers.h — what several suites need: run a command or a schedule, read a file, the error a call
// throws, two traces identical event for event. Header-only; depends on core alone.
#pragma once
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include "core/emulator.h"
#include "core/trace_io.h"

namespace rl::test {

// The exit status of a shell command (its stderr discarded), or -1 when it did not exit.
inline int run(const std::string& cmd) {
    const int rc = std::system((cmd + " 2>/dev/null").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// The emulator's trace of the schedule given as flag/value pairs ({"n", "40"}, {"bug", "uninit-tail"}); n follows
// explicit input values, as on the command line.
inline Trace run(std::initializer_list<std::pair<const char*, const char*>> fields) {
    Schedule s;
    for (auto [k, v] : fields)
        if (std::string err = set_field(s, k, v); !err.empty()) throw Error(err);
    if (s.input.kind == InputKind::Values) s.n = s.input.values.size();
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    return emulate(s);
}

// n uniform values reduced by blocks of `block` threads, with `bug` (none by default).
inline Schedule with(uint64_t n, uint32_t block, Bug bug = Bug{}) {
    Schedule s;
    s.n = n;
    s.block = block;
    s.input.kind = InputKind::Uniform;
    s.bugs = uint16_t(bug);
    return s;
}

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The message of the rl::Error that f() throws, or "" when it throws none.
template <class F>
std::string thrown_error(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// Writes `text` to `path` as it is (a test's input file).
inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The rl::Error that reading this trace JSON text throws, or "".
inline std::string trace_json_error(const std::string& text) {
    return thrown_error([&] {
        std::istringstream in(text);
        read_trace_json(in);
    });
}

// The eight-thread example's trace as JSON.
inline std::string eight_threads_json() {
    std::ostringstream out;
    write_trace_json(out, emulate(Schedule{}));
    return out.str();
}

// Exactly the same events in the same order, bit for bit (a JSON round trip).
inline bool identical_events(const Trace& a, const Trace& b) {
    return a.events.size() == b.events.size() &&
           std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)) == 0;
}

}  // namespace rl::test
