// app/lab/source_model.h — the source of the shown trace and the links between its lines and events.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/kernel_source.h"
#include "core/trace.h"

namespace rl::lab {

struct SourceModel {
    KernelSource source;          // of the trace's schedule
    KernelSource clean;           // of the same schedule without bugs (== source when no bug)
    std::vector<DiffLine> diff;
    std::vector<uint32_t> event_line;   // per event of the trace (line_table)
    // Per trace step, the lines its events come from (sorted, unique): found in one pass with event_line, so a
    // step change looks its lines up instead of scanning every event (half a second at 2^24 elements).
    std::vector<std::vector<int>> step_lines;
    std::string error;            // why there is no source (an invalid schedule in an imported trace), else ""
    void build(const Trace& t);   // recomputes everything for a new trace
    // A student's kernel (t.kernel_file): its own text, each event's line from Trace::lines; no bug diff.
    void build_student(const Trace& t, const std::string& text);
    // A student's file that did not compile: its text without events (the canvas keeps the last trace).
    void show_text(const std::string& text);
    std::vector<int> lines_of_step(uint16_t step) const;  // sorted, unique
    std::vector<uint32_t> events_of_line(int line) const;                 // event indices
};

}  // namespace rl::lab
