// cuda/fast_reduce.h — host API of the fast path: a production sum/max/min in one launch.
// Only core types cross this header; the kernels are in cuda/fast_reduce.cuh.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include "core/ops.h"

namespace rl::cuda {

// Atomic: blocks combine into one word with a float atomic (sums vary in the last bits from run to run).
// Deterministic: blocks write partials that one block reduces in a fixed order (bit-identical on every run for the
// same n and configuration). i32 sums give the same bits in both modes (integer addition is associative); the
// deterministic mode's finish is the faster one at most sizes (docs/bench/).
enum class FastMode { Atomic, Deterministic };

// Who finishes the deterministic mode. LookBack: the grid's last block waits for the others' partials, each stored
// with a ready flag in one 64-bit word (no fence, no ticket). Ticket: each block fences its partial and takes a
// ticket; the block with the last ticket reduces them (the default until 2026-12-02, kept for `rlab bench --tune`).
// The atomic mode always finishes by ticket: each block fences its atomic and takes a ticket; the last takes the word.
enum class FastFinish { LookBack, Ticket };

// Launch shape; threads == 0 means the type's and operator's policy (default_fast_config).
struct FastConfig {
    int threads = 0;         // 256 or 512
    int unroll = 8;          // 16-byte loads in flight per thread: 4 or 8
    int blocks_per_sm = 4;   // blocks resident at once: SMs * min(blocks_per_sm, what fits) (fewer when n is small)
    int waves = 1;           // large inputs: a grid of `waves` times the resident blocks, so that early finishers
                             // take the next segment instead of idling while the slowest SM ends (CUB: 5)
    int min_blocks = 0;      // launch bounds: resident blocks per SM the compiler must allow (0: its own choice)
    FastFinish finish = FastFinish::LookBack;  // the deterministic mode's finish
    int one_block_threads = 0;  // an input one block covers runs on the smallest block from this many threads up,
                                // doubling, that gives each thread at most 4 loads (0 or `threads`: `threads` always)
    bool lean_one_block = true;  // those blocks run a kernel of their own (one predicated round of loads, 32-bit
                                 // indices); false: the shape's kernel on a smaller block (2026-12-02's, --tune)
};

// The launch shape per element type and operator (the policy `rlab bench --tune` chose on the H200, docs/bench/).
FastConfig default_fast_config(DType type, Op op);

// Reduces `n` elements of `type` (f32, bf16, f64; i32 sums) at a device pointer into one value of the
// accumulator type (f32 for f32 and bf16, f64 for f64, i32 for i32) at a device pointer, in one kernel launch.
// Holds the few bytes of scratch its launches share (a ticket, a word, block partials and their flags), which every
// launch leaves reset, so launches need no memset in between. One launch at a time per reducer.
class FastReducer {
public:
    FastReducer(DType type, Op op, FastMode mode, FastConfig config = {});
    ~FastReducer();
    FastReducer(const FastReducer&) = delete;
    FastReducer& operator=(const FastReducer&) = delete;

    void enqueue(const void* device_input, uint64_t n, void* device_output, void* stream);
    uint32_t grid_for(uint64_t n) const;   // blocks the launch for n uses
    uint32_t block_for(uint64_t n) const;  // threads per block of that launch
    static std::string supported();       // one line: what types, ops and configs are built

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace rl::cuda
