// core/trace_io.h — trace export and import: versioned JSON (exact round trip) and Chrome Trace format.
#pragma once
#include <iosfwd>
#include <string>
#include <string_view>
#include "core/analysis.h"
#include "core/trace.h"

namespace rl {

constexpr int kTraceJsonVersion = 1;

// Writes the trace as JSON (schema: docs/trace-format.md), renumbered first (core/event_order.h) if an operand
// points to a later event.
void write_trace_json(std::ostream& out, const Trace& t);
// Reads a trace JSON document; throws rl::Error with a one-line reason on anything malformed.
// Read as a stream (no whole text or document in memory), bounded by docs/limits.md; the events must fit the
// schedule's launch and each operand names an earlier event (a DAG by construction).
Trace read_trace_json(std::istream& in);
// A trace file: a regular file within the size limit, then read_trace_json (a .json.gz decompressed first; a binary
// trace, core/trace_binary.h, read as one).
Trace read_trace_file(const std::string& path);
// What every trace reader checks of a whole trace (core/trace_binary.h too): events inside the schedule's launch
// (operands, blocks, threads, steps, shared slots, shuffle lanes, loaded elements), the grid, the finishing block,
// the scopes, the inputs and the findings' places. Throws rl::Error("FORMAT: what") in one line.
void check_trace_geometry(const Trace& t, std::string_view format);
// {"hazards": [...], "notes": [...]}: the trace's hazards and notes (cost findings) as the trace format lists them.
void write_hazards_json(std::ostream& out, const Trace& t);
// Chrome Trace Event Format: a track per warp (pid block, tid warp), flow arrows for shuffles.
void write_chrome_trace(std::ostream& out, const Trace& t);

}  // namespace rl
