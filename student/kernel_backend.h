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

// What each backend records (the CPU runtime, student/host_runtime.cpp, is the reference; the GPU matches it):
//   seq      the thread's program order in its launch (retracted loads may leave gaps: compact_records closes them)
//   Load     in[i] in launch 0: aux = i (0xffffffff when negative or past 32 bits), detail = k-th Load of the
//            thread, value = the element; outside [0, n): flags kUndefined, value kPoisonBits truncated to T
//   PartialLoad  in[i] in launch 1 (aux = i, dep[0] = the writer of partial i) or out[b] read (aux = b,
//            dep[0] = the slot's last writer, none while it holds the starting identity); detail = k-th PartialLoad
//   IdentityFill rl::identity<T>() or a constant (value = its bits; kIdentity when they are the identity's);
//            `rl::Value<T> v;`: kUndefined with the poison bits
//   Combine  dep[0] = left operand, dep[1] = right, value = op(a, b), flags = combined_flags. When the two
//            operands are the thread's last two records, leaf values (loads, fills) made right to left (g++'s
//            order for s[i] + s[j]), they swap seq: program order is left to right whatever the compiler
//   --op witness  every combine and atomic is WitnessOp::combine; a Load's value is {i, i}; a constant (and
//            rl::identity) is the empty range; poison is the full kPoisonBits
//   Shuffle  aux = mask, detail = (arg & 0xff) | min(source lane, 255) << 8 where source lane = lane + delta (down,
//            even past the width: the own value is read), lane - delta (up; the own lane when below the segment),
//            lane ^ arg (xor), the segment's lane arg (idx); dep[0] = the source's value record; a source that did
//            not take part: kUndefined, poison, dep none; group = k-th shuffle of the lane
//   SharedStore/SharedLoad  detail = slot (a thread's rl::Shared arrays numbered in construction order);
//            a load of a slot no thread of the block stored: kUndefined, poison, dep none
//   Barrier  one per arriving thread: detail = line, group = k-th __syncthreads of the thread (the plain-CUDA
//            engine: k-th of the block's barriers the thread passed, reached or skipped alive; the same numbers
//            where no thread skips one). The plain-CUDA engine records one per warp arrival instead (kWarpArrival in
//            pad0, aux = the lanes, under the lowest; the others' seq has a gap there: core/student_record.h)
//   Exit     the plain-CUDA engine only, and only for a thread that passed a barrier some thread of its block
//            reached, without reaching it (a live skip: it lives on after the branch that held the barrier, or
//            records before it returns): its last record, group = the block's barriers it passed, line = its
//            return. The dialect's runtimes (this one, and the GPU's include/rlab/detail/device.h) cannot tell
//            a skip from the calls they see and record none; the assembly takes a thread without an Exit as
//            exited after its last record, having passed the barriers it reached, as before Exit existed
//   WarpSync one per arriving lane: aux = mask, group = k-th __syncwarp of the lane
//   BlockPartial  out[b] = v: aux = b, dep[0] = v (the assembly names the FinalStore)
//   Atomic   detail = b, dep[1] = v, dep[0] none and aux 0 (the assembly chains them from atomic_old),
//            value = memory after the atomic, atomic_old = before
//   Ticket   aux = atomic_old = the counter before, value = the run's identity; Fence: value = the identity
//   line     the student's source line of the call; launch 0 or 1; the left side of s[i] = v / out[b] = v /
//            &out[b] is a load flagged RL_RETRACTED_RECORD (rlab/detail/record_flags.h), dropped by compact_records
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
