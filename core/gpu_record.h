// core/gpu_record.h — one slot of the GPU trace buffer, filled by the CUDA kernels and read by core.
// Plain data and RL_HD helpers only (no CUDA headers): the device compaction and the host's
// tested compaction (core/gpu_trace.cpp) renumber operands with the same function.
#pragma once
#include <cstdint>
#include "core/numeric_types.h"
#include "core/trace.h"

namespace rl {

// A slot the kernels never wrote holds 0xff in every byte (the buffer is set to 0xff first).
constexpr uint8_t kEmptySlot = 0xff;
// An operand that named an empty slot or one outside the buffer: the host refuses the records.
constexpr uint32_t kBadDep = 0xfffffffeu;

// The core event plus what the GPU measured.
struct GpuRecord {
    Event event;
    uint64_t globaltimer_ns;
    uint64_t clock;
    uint64_t atomic_old;  // for atomics: the value the atomic replaced (fixes its place in the order)
    uint32_t sm;
    uint32_t pad;
};
static_assert(sizeof(GpuRecord) == 64, "GPU records stay 64 bytes");

RL_HD bool slot_used(const GpuRecord& r) { return uint8_t(r.event.kind) != kEmptySlot; }

// An operand slot renumbered to its place among the used slots (index = exclusive prefix count of
// used slots); kNoEvent stays, and an operand naming no recorded event becomes kBadDep.
RL_HD uint32_t compacted_dep(uint32_t d, const GpuRecord* slots, uint64_t count, const uint32_t* index) {
    if (d == kNoEvent) return kNoEvent;
    if (d >= count || !slot_used(slots[d])) return kBadDep;
    return index[d];
}

}  // namespace rl
