// student/launch_syntax.h — a launch plan in CUDA's own syntax (`K<<<G, B, S>>>(in, tmp, n); K<<<1, B>>>(tmp, out, G)`)
// read into launches: what --launch takes (docs/plain-cuda.md, the launch contract). Syntax only: whether the kernels
// exist and the arguments fit their parameters is the runner's check (student/plan_run.h).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::student {

// At most this many launches in one plan (records carry the launch's index in 8 bits; the trace shows each as a scope).
inline constexpr size_t kMaxPlanLaunches = 16;

// One argument as the plan writes it: a buffer of the launch contract, the element count, or an integer literal.
// Tmpi: under --op argmax, the scratch buffer of ints (indices) beside tmp's values.
enum class PlanArgKind : uint8_t { In, Out, Tmp, N, Literal, Tmpi };
struct PlanArg {
    PlanArgKind kind = PlanArgKind::Literal;
    int64_t literal = 0;  // Literal: its value (a leading '-' allowed; fits 64 bits)
    std::string text;     // as written, for messages: "tmp", "-1"
};

// One launch: K<<<grid, block[, shared_bytes]>>>(args...).
struct PlannedLaunch {
    std::string kernel;     // the name, a template's with its arguments, blanks removed except between words: harris6<64>
    uint32_t grid = 0, block = 0;
    uint32_t shared_bytes = 0;  // 0 when the plan leaves it out, as CUDA's <<<G, B>>> does
    std::vector<PlanArg> args;
    size_t column = 0;      // where the launch starts in the plan (1-based), for the runner's messages
};

// Reads `plan`. Blanks (spaces, tabs, newlines) are free between tokens; `;` separates launches and may end the plan.
// Grid, block and shared bytes are unsigned decimal numbers below 2^32. Throws rl::Error with one line naming the
// launch (1-based), the column and what is allowed there, e.g.
//   "launch 2, column 31 (at `x)`): expected an argument: in, out, tmp, tmpi, n or an integer"
std::vector<PlannedLaunch> parse_launch_plan(std::string_view plan);

// The word for an argument kind in messages: "in", "out", "tmp", "n", "an integer".
const char* plan_arg_word(PlanArgKind kind);

// The plan written back in its canonical form ("k<<<16, 256, 1024>>>(in, tmp, n); k<<<1, 256, 1024>>>(tmp, out, 16)"),
// for titles and the trace's launch scopes.
std::string launch_text(const PlannedLaunch& launch);

}  // namespace rl::student
