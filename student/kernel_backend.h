// student/kernel_backend.h — one launch of a student's kernel on a backend (the CPU fiber runtime, or kgpu's
// CUDA launcher): what the runner's launch plan (student/launch_plan.h) hands it and what it gives back.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/ops.h"
#include "core/student_record.h"

namespace rl::student {

// A global out slot (or the Counter-free memory the second launch reads): packed value, flags, and the record
// that last wrote it (kNoEvent: it still holds its starting identity).
struct SlotState {
    uint64_t bits = 0;
    uint8_t flags = 0;
    uint32_t writer = kNoEvent;
};

struct LaunchInput {
    uint8_t launch = 0;         // 0: the kernel's launch; 1: the lab's second launch over the block partials
    uint32_t grid = 1;
    uint32_t block = 1;
    int n = 0;                  // the kernel's n (G in the second launch)
    Op op = Op::Sum;            // the run's operator: rl::identity<T>() and out's starting value
    DType type = DType::F32;
    const InputData* input = nullptr;  // launch 0: in[]
    std::vector<SlotState> partials;   // launch 1: in[i] reads partial i (out as launch 0 left it)
    std::vector<SlotState> out;        // out at the start of the launch (grid of launch 0 slots)
    uint32_t record_base = 0;          // index of this launch's first record in the run's record array
};

// Bits of the rl_combine_op codes (include/rlab/detail/host_abi.h) the kernel combined or atomically applied.
enum CombineBits : uint32_t { kUsedSum = 1, kUsedMax = 2, kUsedMin = 4, kUsedProd = 8 };

struct LaunchOutput {
    std::vector<StudentRecord> records;  // raw: may hold loads flagged RL_RETRACTED_RECORD (see launch_plan.h)
    std::vector<SlotState> out;          // out after the launch
    uint32_t ops_used = 0;               // CombineBits, in the order of first use: first_op names the first
    int first_op = -1;                   // rl_combine_op of the kernel's first combine or atomic (-1: none)
    std::string error;                   // a kernel error (index out of range, a hang, the step budget): one line
};

class KernelBackend {
public:
    virtual ~KernelBackend() = default;
    virtual DType element() const = 0;   // the kernel's T
    virtual bool has_counter() const = 0;
    virtual std::string device() const = 0;
    virtual LaunchOutput launch(const LaunchInput& in) = 0;
};

}  // namespace rl::student
