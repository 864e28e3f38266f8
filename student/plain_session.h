// student/plain_session.h — one run of a plain CUDA module on the SIMT emulator: global buffers that live across
// launches, launches run in order, and the records of all of them assembled into one trace (launches as scopes).
// What a --launch plan (student/plan_run.h) and a program with main() (the lab's CUDA runtime) both drive.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/ops.h"
#include "core/schedule.h"
#include "core/student_record.h"
#include "core/student_trace.h"
#include "core/trace.h"
#include "simt/interpreter.h"
#include "simt/program.h"

namespace rl::student {

// A kernel argument: a pointer into a buffer (its id and a byte offset: d_in + half), or a scalar's bits
// (zero-extended; an int's two's complement in the low 32 bits, as the parameter's width takes it).
struct SessionArg {
    bool pointer = false;
    uint32_t buffer = 0;
    uint64_t offset = 0;  // bytes from the buffer's start
    uint64_t bits = 0;    // a scalar
    static SessionArg in_buffer(uint32_t id, uint64_t byte_offset = 0) { return {true, id, byte_offset, 0}; }
    static SessionArg scalar(uint64_t value_bits) { return {false, 0, 0, value_bits}; }
};

// How a new buffer's bytes start: undefined (cudaMalloc: a read of them is an undefined value), or every element the
// run's operator's identity (a plan's out and tmp, the launch contract).
enum class BufferStart : uint8_t { Undefined, Identity };

class PlainSession {
public:
    // Ids are 0..kMaxBuffers-1 (records carry them in 3 bits). In a plan 0 = in, 1 = out, 2 = tmp.
    static constexpr uint32_t kMaxBuffers = 8;
    // All buffers together hold at most this many bytes (the emulator's memory, not a GPU's).
    static constexpr uint64_t kMaxBufferBytes = 1ull << 30;

    // module outlives the session. op: the run's operator (the identity of BufferStart::Identity buffers; --op witness
    // reads element i of the input as the range {i, i}). element: the kernel's T, the type of tracked accesses.
    PlainSession(const simt::Module& module, Op op, DType element);
    ~PlainSession();

    // A new buffer; throws rl::Error (one line) past kMaxBuffers or kMaxBufferBytes. `name` words messages ("tmp").
    uint32_t allocate(uint64_t bytes, const std::string& name, BufferStart start = BufferStart::Undefined);
    // Host to device (cudaMemcpy, cudaMemset): the bytes become values without history (no record). Throws rl::Error
    // for an id or a range outside the buffer.
    void write(uint32_t buffer, uint64_t offset, const void* bytes, uint64_t size);
    void fill(uint32_t buffer, uint64_t offset, uint8_t byte, uint64_t size);
    // Device to host: what the buffer holds now. Throws rl::Error for an id or a range outside the buffer.
    void read(uint32_t buffer, uint64_t offset, void* bytes, uint64_t size) const;
    uint64_t size(uint32_t buffer) const;
    const std::string& name(uint32_t buffer) const;
    uint32_t buffers() const;

    // The buffer holds the run's input (its first `elements` elements of T): loads of T from it that no launch has
    // overwritten are Load events of input element i; past `elements` they read an undefined value.
    void mark_input(uint32_t buffer, uint64_t elements);

    // The kernel `name` of the module (NAME, a template's NAME<ARGS>, or the compiled symbol), or null.
    const simt::Kernel* kernel(const std::string& name) const;

    // Runs kernel<<<grid, block, shared_bytes>>>(args) now, after every launch before it, and keeps its records.
    // `label` names it in the trace's launch scope ("harris6<64>"). Returns "" or the kernel's error in one line
    // (out of range, a hang, the step budget): the session is then spent (finish() throws). Throws rl::Error for a
    // launch the lab cannot make (more than 16 launches, a block outside 1..1024 threads, an argument count or kind
    // that does not fit the kernel's parameters, a pointer into no buffer).
    std::string launch(const simt::Kernel& kernel, const std::string& label, uint32_t grid, uint32_t block,
                       uint32_t shared_bytes, const std::vector<SessionArg>& args);
    size_t launches() const;
    // Kernel errors name the launch ("thread 3 of block 0 (launch 2) on line 9"): from the second launch on, and from
    // the first too once this is called (a run known to have several).
    void name_every_launch();
    // The threads (grid x block summed) of the launches that will follow the next one, when known (a plan): the next
    // launch reserves record room for them as well, from what its first block records per thread, so that their
    // records are appended without moving the whole array (0: unknown, each launch grows the array as it must).
    void expect_later_threads(uint64_t threads);

    // The operators the launches combined with (simt's 1 << Combine bits) and the first (-1: none), to check the run's.
    uint32_t ops_used() const;
    int first_op() const;

    // What finish() needs besides the records. The schedule's n, block, grid (its first launch's, when 0), op and
    // type describe the run; `input` is what mark_input's buffer was filled with (the reference is computed from it).
    struct Finish {
        Schedule schedule;
        const InputData* input = nullptr;
        uint32_t result_buffer = 1;   // where the answer is (a program's: the buffer it copied its result from)
        uint64_t result_element = 0;
        std::string kernel_file;
    };
    // All launches' records into one Trace (core's trace_from_student_records). Buffers are renumbered for the trace
    // as core reads them: the input's 0, the result's 1, the others 2.. in the order they were allocated. Throws
    // rl::Error when the records do not make a trace (the message says why) or no launch ran.
    Trace finish(const Finish& how);

private:
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace rl::student
