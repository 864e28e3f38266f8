// core/event_flags.h — the per-event flags and the one rule for the flags of a combined value.
// Shared by the CPU emulator and the CUDA kernels (RL_HD), so both taint values alike.
#pragma once
#include <cstdint>
#include "core/numeric_types.h"  // RL_HD

namespace rl {

enum EventFlag : uint8_t {
    kUndefined = 1 << 0,        // the value is undefined by the CUDA rules (taint propagates)
    kIdentity = 1 << 1,         // the value holds no input: identity only
    kStale = 1 << 2,            // read a value older than the one the program meant (race)
    kOrderViolated = 1 << 3,    // a non-commutative merge out of left-to-right order happened in its cone
    kHazard = 1 << 4,           // a hazard is reported at this event
    kIdentityCombine = 1 << 5,  // a combine with an identity-only operand (not counted as work)
    kFinisher = 1 << 6,         // belongs to the grid's finishing stage (second launch, last block, block 0)
};

// The bits a value holds where no lane provided one (the emulator's undefined values; the GPU
// kernels record it for such a read that nothing uses, so both traces agree there).
constexpr uint64_t kPoisonBits = 0xdeadbeefdeadbeefull;

// The shadow of storage that no write has reached (MemorySanitizer's poisoned bytes): only a write
// replaces it, a read carries it on. An unwritten register is undefined; shared or global memory no store
// reached is undefined and, when read, older than the store the program meant the load to see.
constexpr uint8_t kUnwrittenRegister = kUndefined;
constexpr uint8_t kUnwrittenMemory = kUndefined | kStale;

// Flags that travel from operands to the value computed from them.
constexpr uint8_t kTaintFlags = kUndefined | kStale | kOrderViolated;

// The flags of op(a, b) given its operands' flags: taint propagates, identity only when both operands
// hold no input, and a combine with an identity-only operand is marked (it is not counted as work).
// Operator-specific marks (the order witness breaking) are the caller's to add.
RL_HD uint8_t combined_flags(uint8_t a, uint8_t b) {
    uint8_t fl = uint8_t((a | b) & kTaintFlags);
    if ((a & kIdentity) && (b & kIdentity)) fl |= kIdentity;
    if ((a | b) & kIdentity) fl |= kIdentityCombine;
    return fl;
}

}  // namespace rl
