// core/student_record.h — one event of a student's kernel as either backend records it, before steps exist.
// Plain data (no CUDA headers): the host fiber runtime and the GPU recorder fill the same struct, and
// core/student_trace.h turns an array of them into a Trace.
#pragma once
#include <cstdint>
#include "core/trace.h"

namespace rl {

struct StudentRecord {
    EventKind kind = EventKind::Load;
    uint8_t flags = 0;        // core/event_flags.h (kUndefined ...); kFinisher is set by the assembly
    uint8_t launch = 0;       // 0: the kernel's launch; 1: the lab's second launch over the block partials
    uint8_t pad0 = 0;         // a plain run's buffer bits (simt/interpreter.h); kWarpArrival on a Barrier record
    uint16_t thread = 0;      // thread within its block
    uint16_t line = 0;        // source line of the call (0: unknown)
    uint32_t block = 0;
    uint32_t seq = 0;         // index in its thread's program order (0, 1, 2, ...) within its launch
    uint32_t group = 0;       // Shuffle: k-th shuffle of this lane; Barrier: k-th __syncthreads of this thread;
                              // WarpSync: k-th __syncwarp of this lane; Exit: the block's barriers the thread
                              // passed, reached or skipped (student/kernel_backend.h); otherwise 0
    uint32_t detail = 0;      // as Event::detail (load item k, shared slot, offset | source lane << 8, out slot)
    uint32_t aux = 0;         // as Event::aux (element index, mask, partial slot, ticket)
    uint32_t dep[2] = {kNoEvent, kNoEvent};  // indices of records in the same array
    uint64_t value = 0;       // packed as core/ops.h packs the run's operator
    uint64_t atomic_old = 0;  // Atomic and Ticket: the value the atomic replaced
    uint64_t globaltimer_ns = 0;  // GPU only (0 on the CPU)
    uint64_t clock = 0;
    uint32_t sm = 0;
    uint32_t pad1 = 0;
};
static_assert(sizeof(StudentRecord) == 80, "records keep their layout (the GPU writes them)");

// pad0 bit of a Barrier record that stands for a warp's lanes arriving together (the plain-CUDA engine records one
// such record per warp arrival, not one per lane): aux = the arriving lanes, thread = the lowest of them, and every
// other lane of aux leaves a gap in its own seq where it arrives (core/student_trace.cpp gives it its arrival there).
// A flag, not `aux != 0`: the other recorders (the fiber runtime, the GPU) record one Barrier per thread and may
// leave anything in aux.
constexpr uint8_t kWarpArrival = 0x20;

}  // namespace rl
