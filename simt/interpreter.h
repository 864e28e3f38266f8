// simt/interpreter.h — runs one launch of a decoded kernel on the SIMT interpreter and records it as
// core/student_record.h describes (the fiber runtime's conventions, student/kernel_backend.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/ops.h"
#include "core/student_record.h"
#include "simt/program.h"

namespace rl::simt {

// A slot of `out` (or a partial the second launch reads): packed value, flags, the record that last wrote it.
struct Slot {
    uint64_t bits = 0;
    uint8_t flags = 0;
    uint32_t writer = kNoEvent;
};

// What each kernel parameter is bound to.
enum class ArgKind : uint8_t { Input, Output, Scalar };
struct Argument {
    ArgKind kind = ArgKind::Scalar;
    uint64_t bits = 0;  // a scalar's value
};

struct LaunchRequest {
    uint8_t launch = 0;  // 0: the kernel's launch; 1: the lab's second launch (the input are `partials`)
    uint32_t grid = 1, block = 1;
    uint32_t dynamic_shared_bytes = 0;
    std::vector<Argument> args;  // one per kernel parameter
    int n = 0;                   // elements of the input: in[i] with i outside [0, n) reads undefined
    rl::Op op = rl::Op::Sum;         // the run's operator (identity, witness mode)
    DType type = DType::F32;     // the kernel's element type
    const InputData* input = nullptr;  // launch 0
    std::vector<Slot> partials;        // launch 1: in[i] reads partial i
    std::vector<Slot> out;             // out at the start of the launch
    uint32_t record_base = 0;          // index of this launch's first record in the run's record array
};

struct LaunchResult {
    std::vector<StudentRecord> records;
    std::vector<Slot> out;
    uint32_t ops_used = 0;  // 1 << Combine of each operator combined or applied atomically
    int first_op = -1;      // the first one (-1: none)
    std::string error;      // a kernel error (out of range, a hang, the step budget): one line
    uint64_t instructions = 0;  // warp instructions executed (for the benchmark)
};

LaunchResult run_launch(const Kernel& kernel, const LaunchRequest& request);

}  // namespace rl::simt
