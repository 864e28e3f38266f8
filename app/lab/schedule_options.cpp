// app/lab/schedule_options.cpp — SCHEDULE flags to a validated Schedule, errors naming the flag.
#include "app/lab/schedule_options.h"

#include <array>
#include <string_view>
#include <CLI/CLI.hpp>
#include "core/emulator.h"

namespace rl::lab {
namespace {

struct Flag {
    const char* name;
    const char* help;
    bool repeatable;
};
constexpr std::array<Flag, ScheduleArgs::kFlagCount> kFlags{{
    {"n", "number of input elements (default 8; taken from --input VALUES when left out)", false},
    {"block", "threads per block, 1 to 1024 (default 8)", false},
    {"grid", "blocks; 0 or left out sizes the grid from n, block and items", false},
    {"items", "items per thread used to size the grid (default 1)", false},
    {"assign", "contiguous|grid-stride: which elements a thread accumulates", false},
    {"warp", "shfl-down|shfl-down-asc|shfl-xor|smem-divergent|smem-strided|smem-sequential", false},
    {"block-stage", "warp-partials|smem-tree: how warp partials become the block partial", false},
    {"grid-stage", "two-pass|atomic-block|atomic-element|last-block|cooperative", false},
    {"op", "sum|max|min|prod|argmax|sum-count|witness", false},
    {"type", "f32|f64|i32|bf16|f16 (bf16 and f16 accumulate in f32)", false},
    {"input", "iota|uniform|normal|equal|log-uniform|cancellation|sorted|reversed|VALUES (e.g. 3,-1,4.5)", false},
    {"seed", "seed of the input generator (default 1)", false},
    {"accum", "plain|f64|kahan|pairwise: how a thread adds its own items (float sums; default plain)", false},
    {"bug", "inject a bug (repeatable): full-mask-partial-warp, unbounded-source, uninit-tail, wrong-identity, "
            "missing-barrier, divergent-barrier, grid-stride-order, descending-order, atomic-per-element, volatile-unroll",
     true},
}};

// The flags a student's kernel takes (flag_beyond_sizes).
bool is_size_flag(size_t i) {
    const std::string_view name = kFlags[i].name;
    return name == "n" || name == "block" || name == "grid" || name == "input" || name == "seed" || name == "op";
}

void add_flags(CLI::App& app, ScheduleArgs& args, bool sizes_only) {
    for (size_t i = 0; i < kFlags.size(); ++i) {
        if (sizes_only && !is_size_flag(i)) continue;
        auto* opt = app.add_option(std::string("--") + kFlags[i].name, args.raw[i], kFlags[i].help)->group("Schedule");
        if (kFlags[i].repeatable)
            opt->take_all();
        else
            opt->take_last()->expected(1);
    }
}

}  // namespace

void add_schedule_options(CLI::App& app, ScheduleArgs& args) { add_flags(app, args, false); }
void add_size_options(CLI::App& app, ScheduleArgs& args) { add_flags(app, args, true); }

std::string ScheduleArgs::flag_beyond_sizes() const {
    for (size_t i = 0; i < kFlags.size(); ++i)
        if (!is_size_flag(i) && !raw[i].empty()) return std::string("--") + kFlags[i].name;
    return "";
}

bool ScheduleArgs::op_given() const {
    for (size_t i = 0; i < kFlags.size(); ++i)
        if (std::string_view(kFlags[i].name) == "op") return !raw[i].empty();
    return false;
}

bool ScheduleArgs::given() const {
    for (const auto& values : raw)
        if (!values.empty()) return true;
    return false;
}

Schedule ScheduleArgs::build() const {
    Schedule s;
    bool n_given = false;
    for (size_t i = 0; i < kFlags.size(); ++i) {
        for (const std::string& v : raw[i]) {
            if (std::string err = set_field(s, kFlags[i].name, v); !err.empty()) throw Error(err);
            if (i == 0) n_given = true;
        }
    }
    if (s.input.kind == InputKind::Values && !n_given) s.n = s.input.values.size();
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    return s;
}

}  // namespace rl::lab
