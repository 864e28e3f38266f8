// core/phase_clock.cpp — phase timings for benchmarks (core/phase_clock.h).
#include "core/phase_clock.h"

#include <chrono>

namespace rl::phase {
namespace {
Sink g_sink = nullptr;
std::chrono::steady_clock::time_point g_last;
}  // namespace

void set_sink(Sink sink) {
    g_sink = sink;
    g_last = std::chrono::steady_clock::now();
}

void mark(const char* phase) {
    if (!g_sink) return;
    const auto now = std::chrono::steady_clock::now();
    g_sink(phase, std::chrono::duration<double>(now - g_last).count());
    g_last = std::chrono::steady_clock::now();  // the sink's own time is no phase's
}

}  // namespace rl::phase
