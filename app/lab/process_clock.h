// app/lab/process_clock.h — this process's CPU time, for the GUI monkeys' one-second frame budget.
#pragma once
#include <algorithm>
#include <ctime>

namespace rl::lab {

// Milliseconds of CPU this process has used, all its threads together.
inline double process_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// What a frame cost, for the budget: its wall time, unless this process used less CPU than that. On CI's two
// shared cores a frame's wall time grows with whatever else runs (a Qt monkey action took 1.3 s at a load of 6
// on 2026-12-01); its CPU time does not. A frame is over the budget only when both are.
inline double frame_cost_ms(double wall_ms, double cpu_ms) { return std::min(wall_ms, cpu_ms); }

}  // namespace rl::lab
