// core/schedule.cpp — schedule names, parsing of single fields, and validation with clear errors.
#include "core/file_io.h"
#include "core/schedule.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace rl {
namespace {

template <class E> struct NameTable { E value; std::string_view name; };

constexpr std::array<NameTable<Op>, 7> kOps{{{Op::Sum, "sum"}, {Op::Max, "max"}, {Op::Min, "min"},
    {Op::Prod, "prod"}, {Op::ArgMax, "argmax"}, {Op::SumCount, "sum-count"}, {Op::Witness, "witness"}}};
constexpr std::array<NameTable<DType>, 5> kTypes{{{DType::F32, "f32"}, {DType::F64, "f64"},
    {DType::I32, "i32"}, {DType::BF16, "bf16"}, {DType::F16, "f16"}}};
constexpr std::array<NameTable<Assign>, 2> kAssigns{{{Assign::Contiguous, "contiguous"},
    {Assign::GridStride, "grid-stride"}}};
constexpr std::array<NameTable<WarpStage>, 6> kWarps{{{WarpStage::ShflDown, "shfl-down"},
    {WarpStage::ShflDownAsc, "shfl-down-asc"}, {WarpStage::ShflXor, "shfl-xor"},
    {WarpStage::SmemDivergent, "smem-divergent"}, {WarpStage::SmemStrided, "smem-strided"},
    {WarpStage::SmemSequential, "smem-sequential"}}};
constexpr std::array<NameTable<BlockStage>, 3> kBlocks{{{BlockStage::WarpPartials, "warp-partials"},
    {BlockStage::SmemTree, "smem-tree"}, {BlockStage::SmemTreeShfl, "smem-tree-shfl"}}};
constexpr std::array<NameTable<GridStage>, 5> kGrids{{{GridStage::TwoPass, "two-pass"},
    {GridStage::AtomicBlock, "atomic-block"}, {GridStage::AtomicElement, "atomic-element"},
    {GridStage::LastBlock, "last-block"}, {GridStage::Cooperative, "cooperative"}}};
constexpr std::array<NameTable<InputKind>, 9> kInputs{{{InputKind::Iota, "iota"},
    {InputKind::Uniform, "uniform"}, {InputKind::Normal, "normal"}, {InputKind::Equal, "equal"},
    {InputKind::LogUniform, "log-uniform"}, {InputKind::Cancellation, "cancellation"},
    {InputKind::Sorted, "sorted"}, {InputKind::Reversed, "reversed"}, {InputKind::Values, "VALUES"}}};
// A trace's name for a program's own input (InputKind::Program): read and written, never offered as a choice.
constexpr std::string_view kProgramInput = "program";
constexpr std::array<NameTable<Accum>, 4> kAccums{{{Accum::Plain, "plain"}, {Accum::F64, "f64"},
    {Accum::Kahan, "kahan"}, {Accum::Pairwise, "pairwise"}}};
constexpr std::array<NameTable<Bug>, kBugCount> kBugs{{{Bug::FullMaskPartialWarp, "full-mask-partial-warp"},
    {Bug::UnboundedSource, "unbounded-source"}, {Bug::UninitTail, "uninit-tail"},
    {Bug::WrongIdentity, "wrong-identity"}, {Bug::MissingBarrier, "missing-barrier"},
    {Bug::DivergentBarrier, "divergent-barrier"}, {Bug::GridStrideOrder, "grid-stride-order"},
    {Bug::DescendingOrder, "descending-order"}, {Bug::AtomicPerElement, "atomic-per-element"},
    {Bug::VolatileUnroll, "volatile-unroll"}, {Bug::DivergentShuffle, "divergent-shuffle"},
    {Bug::MissingThreadfence, "missing-threadfence"}}};

template <class E, size_t N> std::string_view name_of(const std::array<NameTable<E>, N>& t, E v) {
    for (const auto& e : t)
        if (e.value == v) return e.name;
    return "?";
}
template <class E, size_t N> std::optional<E> parse_name(const std::array<NameTable<E>, N>& t, std::string_view s) {
    for (const auto& e : t)
        if (e.name == s) return e.value;
    return std::nullopt;
}
template <class E, size_t N> std::string join_names(const std::array<NameTable<E>, N>& t) {
    std::string out;
    for (const auto& e : t) {
        if (!out.empty()) out += '|';
        out += e.name;
    }
    return out;
}

template <class I> std::optional<I> parse_int(std::string_view s) {
    I v{};
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string bad(std::string_view field, std::string_view value, std::string_view allowed) {
    // The value is echoed as one line: a newline or escape in it must not break the error into two.
    return "--" + one_line(field) + " " + one_line(value) + ": expected " + std::string(allowed);
}

std::optional<std::vector<double>> parse_values(std::string_view s) {
    std::vector<double> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t comma = s.find(',', pos);
        std::string item(s.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
        if (item.empty()) return std::nullopt;
        char* end = nullptr;
        double v = std::strtod(item.c_str(), &end);
        if (end != item.c_str() + item.size() || !std::isfinite(v)) return std::nullopt;
        out.push_back(v);
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
    return out;
}

}  // namespace

std::string_view to_string(Op v) { return name_of(kOps, v); }
std::string_view to_string(DType v) { return name_of(kTypes, v); }
std::string_view to_string(Assign v) { return name_of(kAssigns, v); }
std::string_view to_string(WarpStage v) { return name_of(kWarps, v); }
std::string_view to_string(BlockStage v) { return name_of(kBlocks, v); }
std::string_view to_string(GridStage v) { return name_of(kGrids, v); }
std::string_view to_string(InputKind v) { return v == InputKind::Program ? kProgramInput : name_of(kInputs, v); }
std::string_view to_string(Bug v) { return name_of(kBugs, v); }
std::string_view to_string(Accum v) { return name_of(kAccums, v); }

std::vector<Bug> bug_list(uint16_t bugs) {
    std::vector<Bug> out;
    for (const auto& e : kBugs)
        if (bugs & uint16_t(e.value)) out.push_back(e.value);
    return out;
}

bool is_float_type(DType t) { return t != DType::I32; }
bool is_commutative(Op op) { return op != Op::Witness; }

std::string allowed_values(std::string_view name) {
    if (name == "op") return join_names(kOps);
    if (name == "type") return join_names(kTypes);
    if (name == "assign") return join_names(kAssigns);
    if (name == "warp") return join_names(kWarps);
    if (name == "block-stage") return join_names(kBlocks);
    if (name == "grid-stage") return join_names(kGrids);
    if (name == "input") return join_names(kInputs) + " (comma-separated numbers)";
    if (name == "bug") return join_names(kBugs);
    if (name == "accum") return join_names(kAccums);
    return "";
}

std::string set_field(Schedule& s, std::string_view name, std::string_view value) {
    auto as_u64 = [&](uint64_t lo, uint64_t hi, auto& dst) -> std::string {
        auto v = parse_int<uint64_t>(value);
        if (!v || *v < lo || *v > hi)
            return bad(name, value, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        dst = static_cast<std::remove_reference_t<decltype(dst)>>(*v);
        return {};
    };
    if (name == "n") return as_u64(1, 0xffffffffull, s.n);
    if (name == "block") return as_u64(1, 1024, s.block);
    if (name == "grid") return as_u64(0, 0x7fffffffull, s.grid);
    if (name == "items") return as_u64(1, 1u << 20, s.items);
    if (name == "seed") return as_u64(0, ~0ull, s.input.seed);
    auto pick = [&](const auto& table, auto& dst) -> std::string {
        auto v = parse_name(table, value);
        if (!v) return bad(name, value, "one of " + join_names(table));
        dst = *v;
        return {};
    };
    if (name == "op") return pick(kOps, s.op);
    if (name == "type") return pick(kTypes, s.type);
    if (name == "assign") return pick(kAssigns, s.assign);
    if (name == "warp") return pick(kWarps, s.warp);
    if (name == "block-stage") return pick(kBlocks, s.block_stage);
    if (name == "grid-stage") return pick(kGrids, s.grid_stage);
    if (name == "accum") return pick(kAccums, s.accum);
    if (name == "bug") {
        auto v = parse_name(kBugs, value);
        if (!v) return bad(name, value, "one of " + join_names(kBugs));
        s.bugs |= uint16_t(*v);
        return {};
    }
    if (name == "input") {
        if (value == kProgramInput) {
            s.input.kind = InputKind::Program;
            s.input.values.clear();
            return {};
        }
        if (auto k = parse_name(kInputs, value); k && *k != InputKind::Values) {
            s.input.kind = *k;
            s.input.values.clear();
            return {};
        }
        auto vals = parse_values(value);
        if (!vals)
            return bad(name, value, "one of " + join_names(kInputs) + ", where VALUES is comma-separated finite numbers such as 3,-1,4.5");
        s.input.kind = InputKind::Values;
        s.input.values = std::move(*vals);
        return {};
    }
    return "unknown schedule field --" + one_line(name);
}

uint32_t Schedule::grid_size() const {
    if (grid != 0) return grid;
    uint64_t per_block = uint64_t(block) * items;
    uint64_t g = (n + per_block - 1) / per_block;
    return uint32_t(g == 0 ? 1 : g);
}

uint64_t Schedule::chunk() const {
    uint64_t t = total_threads();
    return (n + t - 1) / t;
}

std::string validate(const Schedule& s) {
    if (s.n < 1 || s.n > 0xffffffffull) return "--n " + std::to_string(s.n) + ": expected 1 to 4294967295 elements";
    if (s.block < 1 || s.block > 1024) return "--block " + std::to_string(s.block) + ": expected 1 to 1024 threads";
    if (s.items < 1 || s.items > (1u << 20)) return "--items " + std::to_string(s.items) + ": expected 1 to 1048576";
    if (s.grid == 0 && (s.n + uint64_t(s.block) * s.items - 1) / (uint64_t(s.block) * s.items) > 0x7fffffffull)
        return "--grid: the automatic grid would exceed 2147483647 blocks; raise --block or --items";
    if (s.input.kind == InputKind::Values && s.input.values.size() != s.n)
        return "--n " + std::to_string(s.n) + " does not match the " + std::to_string(s.input.values.size()) +
               " values given with --input (leave --n out to take the count from the values)";
    if ((s.op == Op::ArgMax || s.op == Op::SumCount) && s.type == DType::F64)
        return "--op " + std::string(to_string(s.op)) +
               " with --type f64: a trace value holds 8 bytes (value + index/count), so use f32, i32, bf16 or f16";
    if (s.grid_stage == GridStage::Cooperative && s.grid_size() > 65536)
        return "--grid-stage cooperative: " + std::to_string(s.grid_size()) +
               " blocks cannot all be resident at once; use at most 65536 blocks (raise --items) or another grid stage";
    const bool shuffle = s.effective_warp() == WarpStage::ShflDown || s.effective_warp() == WarpStage::ShflDownAsc ||
                         s.effective_warp() == WarpStage::ShflXor;
    if ((s.has(Bug::FullMaskPartialWarp) || s.has(Bug::UnboundedSource)) && !shuffle)
        return "--bug " + std::string(to_string(s.has(Bug::FullMaskPartialWarp) ? Bug::FullMaskPartialWarp : Bug::UnboundedSource)) +
               " is a shuffle bug: use --warp shfl-down, shfl-down-asc or shfl-xor";
    if (s.has(Bug::FullMaskPartialWarp) && s.has(Bug::UnboundedSource))
        return "--bug full-mask-partial-warp and unbounded-source are two versions of one shuffle loop: pick one";
    if (s.has(Bug::DivergentShuffle) && !shuffle)
        return "--bug divergent-shuffle is a shuffle bug: use --warp shfl-down, shfl-down-asc or shfl-xor";
    if (s.has(Bug::DivergentShuffle) && (s.has(Bug::FullMaskPartialWarp) || s.has(Bug::UnboundedSource)))
        return "--bug divergent-shuffle, full-mask-partial-warp and unbounded-source are versions of one shuffle loop: pick one";
    if (s.has(Bug::DivergentShuffle) && s.effective_grid_stage() == GridStage::AtomicElement)
        return "--bug divergent-shuffle needs a warp stage: with one atomic per element there is none; use another --grid-stage";
    if (s.has(Bug::MissingThreadfence) && (s.effective_grid_stage() != GridStage::LastBlock || s.grid_size() < 2))
        return "--bug missing-threadfence leaves out the fence of the last-block pattern: use --grid-stage last-block "
               "with at least 2 blocks (--grid 2 or more)";
    if (s.has(Bug::VolatileUnroll) && shuffle)
        return "--bug volatile-unroll is a shared-memory bug: use --warp smem-divergent, smem-strided or smem-sequential";
    if ((s.has(Bug::MissingBarrier) || s.has(Bug::DivergentBarrier)) && s.block <= 32)
        return "--bug " + std::string(to_string(s.has(Bug::MissingBarrier) ? Bug::MissingBarrier : Bug::DivergentBarrier)) +
               " needs more than one warp per block: use --block 33 or more";
    if ((s.has(Bug::GridStrideOrder) || s.has(Bug::DescendingOrder)) && is_commutative(s.op))
        return "--bug " + std::string(to_string(s.has(Bug::GridStrideOrder) ? Bug::GridStrideOrder : Bug::DescendingOrder)) +
               " shows only with a non-commutative operator: add --op witness";
    if (s.has(Bug::WrongIdentity) && (s.op == Op::Sum || s.op == Op::SumCount || s.op == Op::Witness))
        return "--bug wrong-identity uses 0 as the identity, which is already right for --op " +
               std::string(to_string(s.op)) + ": use --op min or prod, or max or argmax over negative values";
    if (s.block_stage == BlockStage::SmemTreeShfl) {
        const std::string b = "--block-stage smem-tree-shfl";
        if (s.block < 64 || (s.block & (s.block - 1)) != 0)
            return b + " halves a power-of-two block down to 64 values: use --block 64, 128, 256, 512 or 1024";
        if (s.warp != WarpStage::ShflDown)
            return b + " reduces the whole block itself (its last warp is an unrolled __shfl_down_sync): leave --warp at shfl-down";
        for (Bug bug : {Bug::FullMaskPartialWarp, Bug::UnboundedSource, Bug::DivergentShuffle, Bug::DescendingOrder,
                        Bug::VolatileUnroll, Bug::MissingBarrier, Bug::DivergentBarrier})
            if (s.has(bug))
                return "--bug " + std::string(to_string(bug)) + " changes a warp or block stage that " + b +
                       " does not have: use --block-stage warp-partials or smem-tree";
    }
    if (s.accum != Accum::Plain) {
        const std::string a = "--accum " + std::string(to_string(s.accum));
        if (s.op != Op::Sum || !is_float_type(s.type))
            return a + " changes how a thread adds floats: use --op sum with --type f32, f64, bf16 or f16 (or --accum plain)";
        if (s.accum == Accum::F64 && s.type == DType::F64)
            return a + " with --type f64: the accumulator is already f64; use --accum plain, kahan or pairwise";
        if (s.effective_grid_stage() == GridStage::AtomicElement)
            return a + " acts on a thread's own items, and with one atomic per element no thread adds any: use --accum plain or another --grid-stage";
    }
    return {};
}

std::vector<std::pair<std::string, std::string>> schedule_fields(const Schedule& s) {
    std::string input(to_string(s.input.kind));
    if (s.input.kind == InputKind::Values) {
        input.clear();
        for (double x : s.input.values) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", x);  // 17 digits: every double reads back bit for bit
            input += (input.empty() ? "" : ",") + std::string(buf);
        }
    }
    std::vector<std::pair<std::string, std::string>> f{
        {"n", std::to_string(s.n)},
        {"block", std::to_string(s.block)},
        {"grid", std::to_string(s.grid)},
        {"items", std::to_string(s.items)},
        {"assign", std::string(to_string(s.assign))},
        {"warp", std::string(to_string(s.warp))},
        {"block-stage", std::string(to_string(s.block_stage))},
        {"grid-stage", std::string(to_string(s.grid_stage))},
        {"op", std::string(to_string(s.op))},
        {"type", std::string(to_string(s.type))},
        {"accum", std::string(to_string(s.accum))},
        {"input", input},
        {"seed", std::to_string(s.input.seed)},
    };
    for (Bug b : bug_list(s.bugs)) f.emplace_back("bug", std::string(to_string(b)));
    return f;
}

std::string describe(const Schedule& s) {
    std::string out = "n=" + std::to_string(s.n) + " block=" + std::to_string(s.block) +
                      " grid=" + std::to_string(s.grid_size()) + " items=" + std::to_string(s.items) +
                      " assign=" + std::string(to_string(s.effective_assign())) +
                      " warp=" + std::string(to_string(s.effective_warp())) +
                      " block-stage=" + std::string(to_string(s.block_stage)) +
                      " grid-stage=" + std::string(to_string(s.effective_grid_stage())) +
                      " op=" + std::string(to_string(s.op)) + " type=" + std::string(to_string(s.type));
    if (s.accum != Accum::Plain) out += " accum=" + std::string(to_string(s.accum));
    for (Bug b : bug_list(s.bugs)) out += " bug=" + std::string(to_string(b));
    return out;
}

}  // namespace rl
