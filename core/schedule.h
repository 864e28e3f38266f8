// core/schedule.h — a reduction schedule: sizes, stage choices, operator, type, input and bugs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "core/accum.h"
#include "core/ops.h"

namespace rl {

enum class Assign : uint8_t { Contiguous, GridStride };
enum class WarpStage : uint8_t { ShflDown, ShflDownAsc, ShflXor, SmemDivergent, SmemStrided, SmemSequential };
// SmemTreeShfl: the summary's blockReduce: every thread stores to shared memory, a barrier tree halves the
// values down to 64, then warp 0 adds smem[t] + smem[t + 32] and ends with an unrolled full-warp
// __shfl_down_sync. It takes the threads' values directly (no separate warp stage); a power-of-two block >= 64.
enum class BlockStage : uint8_t { WarpPartials, SmemTree, SmemTreeShfl };
enum class GridStage : uint8_t { TwoPass, AtomicBlock, AtomicElement, LastBlock, Cooperative };
// Program: the values a plain CUDA program's main() put in its input buffer (too many to name in the schedule: the
// trace's inputs hold them); no schedule can make them, so make_input refuses it.
enum class InputKind : uint8_t { Iota, Uniform, Normal, Equal, LogUniform, Cancellation, Sorted, Reversed, Values, Program };

// Injected bugs (bit flags). Names follow the command-line contract.
enum class Bug : uint16_t {
    FullMaskPartialWarp = 1 << 0,
    UnboundedSource = 1 << 1,
    UninitTail = 1 << 2,
    WrongIdentity = 1 << 3,
    MissingBarrier = 1 << 4,
    DivergentBarrier = 1 << 5,
    GridStrideOrder = 1 << 6,
    DescendingOrder = 1 << 7,
    AtomicPerElement = 1 << 8,
    VolatileUnroll = 1 << 9,
    DivergentShuffle = 1 << 10,    // the warp reduction inside `if (i < n)`: lanes without an element skip
                                   // the shuffles that the full mask names
    MissingThreadfence = 1 << 11,  // last-block without __threadfence() between partial store and ticket
};
constexpr int kBugCount = 12;

struct InputSpec {
    InputKind kind = InputKind::Iota;
    uint64_t seed = 1;
    std::vector<double> values;  // for InputKind::Values
    bool operator==(const InputSpec&) const = default;
};

struct Schedule {
    uint64_t n = 8;
    uint32_t block = 8;       // threads per block, 1..1024
    uint32_t grid = 0;        // blocks; 0 = sized from n, block and items
    uint32_t items = 1;       // items per thread used to size the grid
    Assign assign = Assign::Contiguous;
    WarpStage warp = WarpStage::ShflDown;
    BlockStage block_stage = BlockStage::WarpPartials;
    GridStage grid_stage = GridStage::TwoPass;
    Op op = Op::Sum;
    DType type = DType::F32;
    Accum accum = Accum::Plain;  // thread-stage accumulation (float sums only)
    InputSpec input;
    uint16_t bugs = 0;

    bool has(Bug b) const { return (bugs & uint16_t(b)) != 0; }
    // "Is this the same schedule?": every field, input values and seed included (a lesson step may change only those).
    bool operator==(const Schedule&) const = default;

    // Derived sizes (valid after validate()).
    uint32_t grid_size() const;
    uint64_t total_threads() const { return uint64_t(grid_size()) * block; }
    uint32_t warps_per_block() const { return (block + 31) / 32; }
    uint64_t chunk() const;  // elements per thread (contiguous), or max per thread (grid-stride)
    // Threads of the finishing block: min(block, grid), or the whole block for smem-tree-shfl (its tree
    // needs a power-of-two block; threads without a partial hold the identity).
    uint32_t finish_threads() const {
        const uint32_t g = grid_size();
        return block_stage == BlockStage::SmemTreeShfl || block < g ? block : g;
    }
    Assign effective_assign() const { return has(Bug::GridStrideOrder) ? Assign::GridStride : assign; }
    WarpStage effective_warp() const { return has(Bug::DescendingOrder) ? WarpStage::ShflDown : warp; }
    GridStage effective_grid_stage() const {
        return has(Bug::AtomicPerElement) ? GridStage::AtomicElement : grid_stage;
    }
};

// Returns an empty string when valid, else one line naming the field, the value and what is allowed.
std::string validate(const Schedule& s);

// Names used on the command line, in JSON and in lessons.
std::string_view to_string(Op);
std::string_view to_string(DType);
std::string_view to_string(Assign);
std::string_view to_string(WarpStage);
std::string_view to_string(BlockStage);
std::string_view to_string(GridStage);
std::string_view to_string(InputKind);
std::string_view to_string(Accum);
std::string_view to_string(Bug);
std::vector<Bug> bug_list(uint16_t bugs);

// Parse one schedule field by its flag name ("n", "block", "warp", "bug", "input", ...).
// Returns an error line, or empty on success. "bug" adds to the set.
std::string set_field(Schedule& s, std::string_view name, std::string_view value);

// The schedule written out as (flag, value) pairs in set_field's names, every field, one "bug" pair per bug;
// set_field on each pair rebuilds an equal schedule. grid is the field as set (0: sized from n).
std::vector<std::pair<std::string, std::string>> schedule_fields(const Schedule& s);

// All values a field accepts, for help text and errors ("sum|max|min|...").
std::string allowed_values(std::string_view name);

bool is_float_type(DType t);
bool is_commutative(Op op);
std::string describe(const Schedule& s);  // one line: "n=8 block=8 grid=1 ... op=sum type=f32"

}  // namespace rl
