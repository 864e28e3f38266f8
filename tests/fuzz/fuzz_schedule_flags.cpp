// tests/fuzz/fuzz_schedule_flags.cpp — libFuzzer target: the schedule flags as every front end sets them
// (set_field per NAME=VALUE line, then validate); small valid schedules are also emulated and analysed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/error.h"
#include "core/schedule.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rl::Schedule s;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        const size_t eq = line.find('=');
        if (eq != std::string_view::npos) rl::set_field(s, line.substr(0, eq), line.substr(eq + 1));
        pos = end + 1;
    }
    if (!rl::validate(s).empty()) return 0;
    // Running is only for schedules the fuzzer can afford many times a second.
    if (s.n > 4096 || s.grid_size() > 64 || s.items > 64 || !rl::check_traceable(s, 64u << 20).empty()) return 0;
    try {
        rl::Trace t = rl::emulate(s);
        rl::analyze(t);
    } catch (const rl::Error&) {
    }
    return 0;
}
