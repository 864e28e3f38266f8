// core/trace_binary.h — a trace as a compact binary file: how rlab-kernel-runner hands its trace to the process that
// started it (student/kernel_run.cpp). JSON (core/trace_io.h) stays the format for users and saved traces; this one
// is about 34 bytes an event against JSON's 190 and is read with no parsing: the 32-byte events as they are in memory.
//
// Layout (docs/trace-format.md, "Binary handoff"), in the writer's byte order (a reader of the other order refuses it):
//   magic "RLTRACEB", u32 version, u32 byte-order mark 0x01020304, u32 sizeof(Event) = 32, u32 0
//   schedule: u32 count, then count (name, value) string pairs as core/schedule.h's schedule_fields writes them
//   u8 backend, device, kernel_file (strings: u32 length, bytes), u32 grid, finish_threads, finisher_block,
//   result_event, u64 result_value, u8 result_flags, u16 step_count, u16 scope_start[4], u64 reference_value,
//   f64 reference_exact, f64 abs_sum
//   (version 2) u32 count + launches (a plain CUDA run's, 0 otherwise), each: kernel (string), u32 grid, block,
//   shared_bytes, first_block
//   (version 3) u64 count (at most 8) + u64 elements per buffer (a plain run's, 0 otherwise); u64 count + wide
//   atomic elements (Trace::wide_atomic_elements), each u32 event, u32 element (checked once the events are read)
//   u64 count + f64 inputs; u64 count + events (32 bytes each); u64 count (0 or events) + u16 lines;
//   u64 count (0 or events) + times (u64 globaltimer_ns, u64 clock, u32 sm);
//   hazards, then notes: u64 count, each u8 kind, u32 event, block, warp, lanes, string what
//   (version 4) the level of detail (core/level_of_detail.h): u32 detail_blocks, u64 events_total, u64 count + ranges,
//   each u32 first_block, blocks, u16 first_step, last_step, u64 events, 16 u64 counts per kind, u64 kept, u64 count +
//   u16 lines
//   magic "RLTEND\0\0", and nothing after it.
#pragma once
#include <iosfwd>
#include <string>
#include "core/trace.h"

namespace rl {

constexpr uint32_t kTraceBinaryVersion = 4;  // 2: launches; 3: buffer sizes, wide atomic elements; 4: level of detail

// Writes the trace (renumbered first, core/event_order.h, if an operand points to a later event).
void write_trace_binary(std::ostream& out, const Trace& t);
// Writes the trace to `path` as the runner hands it over: a plain write, checked, with no rename and no fsync (the
// file lies in a folder of the reader's own, which reads it only after the writer has exited: from the page cache).
// Throws rl::Error naming the path when it cannot be written whole.
void write_trace_binary_file(const std::string& path, const Trace& t);
// Reads a whole binary trace; throws rl::Error "trace file: ..." in one line on anything truncated, malformed or out of
// the limits of docs/limits.md, checked before anything is allocated for it, and then as the JSON reader checks a
// trace (core/trace_io.h's check_trace_geometry; operands name earlier events). The stream must be seekable (its
// size bounds every count).
Trace read_trace_binary(std::istream& in);
// A file: regular, within the trace file limit, then read_trace_binary.
Trace read_trace_binary_file(const std::string& path);
// Whether `head` (the first bytes of a file, at least 8 to say yes) starts as a binary trace does.
bool is_trace_binary(std::string_view head);

}  // namespace rl
