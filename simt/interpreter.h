// simt/interpreter.h — runs one launch of a decoded kernel on the SIMT interpreter and records it as
// core/student_record.h describes (the fiber runtime's conventions, student/kernel_backend.h).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/ops.h"
#include "core/student_record.h"
#include "simt/program.h"

namespace rl::simt {

// A shared-memory slot (or a value a caller keeps per element): packed value, flags, the record that last wrote it.
struct Slot {
    uint64_t bits = 0;
    uint8_t flags = 0;
    uint32_t writer = kNoEvent;
};

// Memory in 4-byte granules: its bytes, and per granule the whole register a value with history was stored as
// (--op witness packs 8 bytes into a float's register), the record that wrote it (kNoEvent: none) and its flags.
struct Granules {
    std::vector<uint8_t> bytes;
    std::vector<uint64_t> value;
    std::vector<uint32_t> hist;
    std::vector<uint8_t> flags;
    void assign(uint64_t size, uint8_t fill_flags) {
        const uint64_t granules = (size + 3) / 4;
        bytes.assign(granules * 4, 0);
        value.assign(granules, 0);
        hist.assign(granules, kNoEvent);
        flags.assign(granules, fill_flags);
    }
};

// A global buffer of a run (a plan's in, out, tmp; a program's cudaMalloc): it outlives each launch, so a launch
// reads what an earlier one stored, with the record that stored it. Accesses of the kernel's element size are
// recorded (Load of the input, PartialLoad, BlockPartial, Atomic, with the buffer's id); others are plain bytes.
struct GlobalBuffer {
    std::string name;             // as messages name it: "tmp", "out"
    uint64_t size = 0;            // bytes
    Granules mem;
    bool input = false;           // loads of an element no launch stored are Load events of the input
    uint64_t input_elements = 0;  // past them an input load reads an undefined value
};

// What each kernel parameter is bound to: a pointer into a buffer (its index in LaunchRequest::buffers and a byte
// offset), or a scalar's bits.
enum class ArgKind : uint8_t { Buffer, Scalar };
struct Argument {
    ArgKind kind = ArgKind::Scalar;
    uint64_t bits = 0;     // a scalar's value
    uint32_t buffer = 0;   // Buffer
    uint64_t offset = 0;   // Buffer: bytes from its start
};

struct LaunchRequest {
    uint8_t launch = 0;   // the launch's index in its run: the records' `launch`
    std::string scope;    // how messages name the launch ("launch 2", "the lab's second launch"; "": the only one)
    uint32_t grid = 1, block = 1;
    uint32_t dynamic_shared_bytes = 0;
    std::vector<Argument> args;  // one per kernel parameter
    rl::Op op = rl::Op::Sum;     // the run's operator (identity, witness mode)
    DType type = DType::F32;     // the kernel's element type
    std::vector<GlobalBuffer>* buffers = nullptr;  // the run's buffers, changed by the launch
    // The run's __device__ variables by name, carried from launch to launch (their initialisers only before the first
    // launch that uses them); null: every launch starts from the initialisers.
    std::map<std::string, std::vector<uint8_t>>* device_variables = nullptr;
    uint32_t record_base = 0;    // index of this launch's first record in the run's record array
    // Of those, the records that make no event of their own (LaunchResult::merged of the earlier launches): the trace
    // limit counts events.
    uint64_t merged_before = 0;
    // The run's record array (record_base records of earlier launches), or null: the launch appends its records to
    // it (moved into LaunchResult::records and back by the caller), so that a later launch's records are never a
    // second array copied onto the first (at 2^20 elements that copy doubled the runner's peak).
    std::vector<StudentRecord>* records = nullptr;
    // Threads of the run's launches still to come (a plan knows them; 0: unknown): the first block's records per
    // thread reserve room for theirs too, so that a later launch does not reallocate the whole array.
    uint64_t later_threads = 0;
    // Runs only blocks [block_begin, block_end) of the grid (block_end 0: to the grid's end): a run summarised by level
    // of detail (student/detail_run.h) runs a launch in parts and assembles each part while the rest is not recorded.
    uint32_t block_begin = 0, block_end = 0;
};

// StudentRecord::pad0 of a buffer access (core reads it: docs/trace-format.md): bit 0 is the assembly's, bits 1..3
// the buffer's id, bit 4 a load outside the buffer; bit 5 (kWarpArrival, core/student_record.h) a warp's barrier record.
constexpr uint8_t buffer_pad(uint32_t id) { return uint8_t((id & 7u) << 1); }
constexpr uint8_t kOutsideBufferPad = 0x10;

struct LaunchResult {
    std::vector<StudentRecord> records;
    uint32_t ops_used = 0;  // 1 << Combine of each operator combined or applied atomically
    int first_op = -1;      // the first one (-1: none)
    std::string error;      // a kernel error (out of range, a hang, the step budget): one line
    uint64_t instructions = 0;  // warp instructions executed (for the benchmark)
    // Records the assembly merges into an earlier record's event, counted as the launch runs for the trace limit.
    // None now: a warp's lanes arriving together at a __syncthreads() are one record already (kWarpArrival), and
    // the paths of a split warp arriving apart (which core/student_trace.cpp, section 3, merges) are counted apart.
    uint64_t merged = 0;
};

LaunchResult run_launch(const Kernel& kernel, const LaunchRequest& request);

}  // namespace rl::simt
