// core/step_words.h — a student's kernel's rows in its own words and source lines (core/trace.h's describe_step
// names a schedule's steps; a student's kernel has no schedule to name them by).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/trace.h"

namespace rl {

// The least and greatest source line (Trace::lines) of the events at one step, folded in one event at a time.
struct StepLines {
    uint16_t lo = 0, hi = 0;
    void add(const Trace& t, size_t event) {
        const uint16_t l = event < t.lines.size() ? t.lines[event] : 0;
        if (l == 0) return;
        lo = lo == 0 || l < lo ? l : lo;
        hi = l > hi ? l : hi;
    }
};

// describe_step's words, and for a student's kernel (t.kernel_file set) what its events are after the source lines
// they come from: "13: shuffle 16", "9-11: __syncthreads()" (short: the canvas gutter holds about 22 characters).
std::string describe_step(const Trace& t, KindMask kinds, const Event* first_shuffle, StepLines lines);

}  // namespace rl
