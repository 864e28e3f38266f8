// core/phase_clock.h — where a pipeline's time goes, phase by phase, for benchmarks (tests/bench/student_bench.cpp).
// Off unless a sink is set: a mark then costs one test of a pointer. One thread only (the pipeline is sequential).
#pragma once

namespace rl::phase {

using Sink = void (*)(const char* phase, double seconds);

// Sets (or, with nullptr, clears) the sink and starts the clock.
void set_sink(Sink sink);
// The phase named `phase` ended now: the seconds since the previous mark (or set_sink) go to the sink.
void mark(const char* phase);

}  // namespace rl::phase
