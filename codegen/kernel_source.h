// codegen/kernel_source.h — the readable CUDA source of exactly one schedule, its named sites, the line
// of every trace event, and a line diff of a buggy source against its clean version.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/schedule.h"
#include "core/trace.h"

namespace rl {

struct SourceLine {
    std::string text;        // the line, no newline
    std::string site;        // "" or the named place this line is (see docs/source-view.md), unique per source
    bool bug = false;        // true where a switched-on bug changed or added this line
};

struct KernelSource {
    std::vector<SourceLine> lines;
    std::string text() const;                      // the whole .cu file
    int line_of(std::string_view site) const;      // 1-based line of a site; 0 when this source has none
};

// The complete CUDA source of exactly this schedule (bugs included, each marked by a comment naming it).
// harness: add a main() that builds the schedule's input, runs the kernel(s) and prints the result and its bits.
// Throws rl::Error for an invalid schedule.
KernelSource kernel_source(const Schedule& s, bool harness = false);

// For each event of a trace of schedule t.schedule: the 1-based line of kernel_source(t.schedule) that
// produced it (0 = no line). Computed from the event's kind, scope and operands and the sites of the
// generated source: no hand-kept line numbers.
std::vector<uint32_t> line_table(const KernelSource& src, const Trace& t);

// For each event of t, the site name of the line that produced it (what line_table looks up), "" when none.
std::vector<std::string_view> event_sites(const Trace& t);

// Lines of the clean source (schedule without bugs) against the buggy one, for the diff view.
struct DiffLine { int clean_line; int bug_line; char op; };   // op: ' ' same, '-' only clean, '+' only buggy
std::vector<DiffLine> diff(const KernelSource& clean, const KernelSource& buggy);

// Every site name the generator can write, for lesson checks and help.
const std::vector<std::string_view>& all_sites();

}  // namespace rl
