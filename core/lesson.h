// core/lesson.h — lessons: TOML files loaded into schedules and steps, and a player that resolves each
// step to a trace, a cursor, narrative with every number filled from the trace, and checked expectations.
// The format is documented in lessons/README.md.
#pragma once
#include <functional>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "core/analysis.h"
#include "core/data_paths.h"
#include "core/trace.h"

namespace rl {

// A problem in a lesson file, with where it is (line and column are 1-based; 0 when unknown).
struct LessonError {
    std::string file;
    int line = 0, column = 0;
    std::string what;
    std::string str() const;  // "file:line:column: what"
};

// One stated expectation: `key = value` in a step's [step.expect] table.
struct Expectation {
    std::string key;     // a quantity name ("span", "verdict", ...), "hazard", "no_hazard", "note" or "no_note"
    std::string op;      // ==, !=, <, <=, >, >=
    std::string rhs;     // a quantity name, a number or a text, as written
    bool rhs_is_quantity = false;  // rhs names a quantity (prev_NAME included); else it is a number or a text
    // For keys "hazard", "no_hazard", "note" and "no_note": the kind and where (-1 = any). A `hazard` or `note`
    // expectation must name a place in the trace: its step, a thread of the block, a lane, or the exact set of
    // lanes. A kind is looked for in the list it belongs to: a note kind (atomic-contention) among the trace's
    // notes, whichever key names it.
    std::string hazard_kind;
    long hazard_block = -1, hazard_warp = -1, hazard_lane = -1, hazard_step = -1, hazard_thread = -1;
    std::optional<uint32_t> hazard_lanes;  // the hazard's lanes of its warp, exactly (`lanes = "8-31"`)
    int line = 0, column = 0;
    std::string written;  // the expectation as the author wrote it, for messages
    // From [step.expect.emulator]: holds for the interleaving the emulator chooses (a race made to
    // happen); a GPU's own order may differ, so it is not checked when the step runs elsewhere.
    bool emulator_only = false;
};

struct KnowledgeCheck {
    std::string question;
    std::vector<std::string> choices;  // empty: an open question
    std::string answer;                // may carry placeholders
    std::string explain;               // why the answer is right, shown once a choice is graded (placeholders too)
};
inline constexpr size_t kMaxChoices = 4;  // keys 1-4 pick a choice in the front ends

struct LessonStep {
    std::string at = "start";          // where in the trace (see lessons/README.md)
    std::vector<std::pair<std::string, std::string>> overrides;  // schedule fields changed for this step
    Schedule schedule;                 // the lesson's schedule with the overrides applied
    std::string text;                  // Markdown with {placeholders}
    std::vector<Expectation> expect;
    std::optional<KnowledgeCheck> check;
    // Why this step plays on the emulator even when a GPU runs the lesson (a kernel recorded to deadlock
    // on the GPU: a hung kernel holds the device, so no later step could run). Empty: the runner decides.
    std::string emulator_only;
    int line = 0;                      // where the step starts in the file
};

struct Lesson {
    std::string name;   // the file's stem: what --lesson NAME takes
    std::string file;
    std::string title;
    std::string summary;
    Schedule schedule;
    std::vector<LessonStep> steps;
    std::vector<std::string> exercises;  // `exercises = ["NAME", ...]`: folders of lessons/exercises (core/exercise.h)
};

// Parses one lesson from TOML text; on failure returns nullopt and appends the problems to errors.
std::optional<Lesson> parse_lesson(const std::string& toml_text, const std::string& name, const std::string& file,
                                   std::vector<LessonError>& errors);
std::optional<Lesson> load_lesson_file(const std::string& path, std::vector<LessonError>& errors);

struct LessonSet {
    std::vector<Lesson> lessons;        // in course order (lessons/course.txt), else by name; malformed files are left out
    std::vector<LessonError> errors;    // one or more per malformed file
};
// Loads every *.toml in dir. One bad file never stops the others.
LessonSet load_lessons(const std::string& dir);

// Where the lessons live: find_lessons_dir in core/data_paths.h.

// Everything computed about one step: named quantities (numbers and text) used for placeholders and checks.
struct Quantity {
    std::string text;
    std::optional<double> number;
};
using Quantities = std::map<std::string, Quantity>;

struct ExpectationResult {
    std::string written;   // as the author wrote it
    bool ok = false;
    std::string message;   // plain language: what was expected and what the trace shows
    int line = 0, column = 0;  // where the expectation is written
};

struct PlayedStep {
    Trace trace;
    Analysis analysis;
    int cursor_step = 0;              // the trace step the lesson points at
    uint32_t event = kNoEvent;        // the event it points at, when the place names one
    std::string where;                // what is at that place, in words ("shfl_down offset 4")
    std::string narrative;            // Markdown with placeholders filled
    std::string question, answer;     // filled knowledge check (empty when none)
    std::string explanation;          // the check's explain, filled
    std::vector<std::string> choices;
    std::vector<ExpectationResult> results;
    std::vector<std::string> problems;  // a place not found, an unknown placeholder, a schedule that cannot run
    std::string played_on_emulator;   // why a step of a GPU run played on the emulator (its emulator_only)
    Quantities values;
    bool ok() const;                  // no problems and every expectation holds
};

// The quantities of one trace at one cursor (see lessons/README.md for the list).
Quantities compute_quantities(const Trace& t, const Analysis& a, int cursor_step, uint32_t event);
// Replaces {name} with its text (prev_name: the previous step's); {{ and }} are literal braces.
// Unknown names are reported in problems and left visible as {name?}.
std::string fill_placeholders(const std::string& text, const Quantities& q, const Quantities* prev,
                              std::vector<std::string>* problems);

// Runs a step's schedule: the emulator by default; a front end or `rlab lessons --backend cuda`
// passes one that runs it on the GPU.
using ScheduleRunner = std::function<Trace(const Schedule&)>;

// Plays step k (0-based); prev is the previous step's quantities (for prev_* names), or null.
// Measured quantities (bench_*) come from the recorded results nearest the lesson file.
PlayedStep play_step(const Lesson& lesson, size_t k, const Quantities* prev = nullptr,
                     const ScheduleRunner& run = nullptr);
// Plays every step in order.
std::vector<PlayedStep> play_lesson(const Lesson& lesson, const ScheduleRunner& run = nullptr);
// Plays the steps in order, handing each to `each` and dropping its trace before the next.
void play_lesson_steps(const Lesson& lesson, const ScheduleRunner& run,
                       const std::function<void(size_t, const PlayedStep&)>& each);

// The names a placeholder or an expectation may use (without the prev_ prefix).
const std::vector<std::string>& quantity_names();

// Where a quantity's value comes from. A schedule quantity is fixed before anything runs: by the lesson's
// schedule (n, grid, op, tree_depth = ceil(log2 n), the reference computed from the inputs), by the hardware
// (warp_size) or by a named constant; a measured one is read from what ran: the trace, its analysis, the
// numerics lab's replayed orders or the recorded bench results. An expectation with no measured side can
// never fail, so it is a load error.
enum class QuantityKind { Schedule, Measured };
QuantityKind quantity_kind(const std::string& name);  // without the prev_ prefix; unknown names: Measured

// {line:SITE} in lesson text becomes "line N": N is the line of the named site (codegen's site names, such
// as shuffle or barrier) in the CUDA source of the step's schedule. Core knows no generator (codegen/ sits
// above it), so the layer above installs the lookup once: rl::install_lesson_lines() (codegen/lesson_lines.h),
// which rlab and app/lab call. The lookup returns 0 for a site that source does not have; that, or no
// lookup installed, is a problem of the step, which `rlab lessons --check` reports.
using SourceLineLookup = std::function<int(const Schedule&, const std::string& site)>;
void set_source_line_lookup(SourceLineLookup lookup);

}  // namespace rl
