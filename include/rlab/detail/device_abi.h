// include/rlab/detail/device_abi.h — what a student's kernel compiled for the GPU shares with the launcher
// (cuda/student_kernel.cpp): the record layout (rl::StudentRecord's, byte for byte), the launch block the
// host fills before each launch and the kernel error it reads back. Plain C++ without <cstdint>: NVRTC
// compiles it without the standard library, the host checks it against core/student_record.h.
#pragma once

namespace rl::device_abi {

// rl::EventKind's values (core/trace.h): the launcher static_asserts that they still agree.
enum Kind : unsigned char {
    kLoad = 0, kIdentityFill = 1, kCombine = 2, kShuffle = 3, kSharedStore = 4, kSharedLoad = 5, kBarrier = 6,
    kWarpSync = 7, kBlockPartial = 8, kAtomic = 9, kTicket = 10, kPartialLoad = 12, kFinalStore = 13, kFence = 14,
};
constexpr unsigned char kUndefinedFlag = 1;             // rl::kUndefined (core/event_flags.h)
constexpr unsigned char kIdentityFlag = 2;              // rl::kIdentity
constexpr unsigned kNone = 0xffffffffu;                 // rl::kNoEvent
constexpr unsigned long long kPoison = 0xdeadbeefdeadbeefull;  // rl::kPoisonBits
constexpr unsigned kSharedSlots = 4096;                 // rl::limits::kStudentSharedSlots
constexpr unsigned kThreadEvents = 65535;               // rl::limits::kStudentThreadEvents
constexpr unsigned char kRetracted = 0x80;             // RL_RETRACTED_RECORD (rlab/kernel.h)

// rl::StudentRecord, field for field (80 bytes).
struct Record {
    unsigned char kind, flags, launch, pad0;
    unsigned short thread, line;
    unsigned block, seq, group, detail, aux;
    unsigned dep[2];
    unsigned long long value, atomic_old, globaltimer_ns, clock;
    unsigned sm, pad1;
};
static_assert(sizeof(Record) == 80, "the record keeps rl::StudentRecord's layout");

// One rl::Shared declaration of a thread: its line, its slots, and whether an instance is in scope now.
struct SharedSite {
    unsigned short line, base, slots, live;
};
constexpr unsigned kSharedSites = 8;  // RL_SHARED_SITES (rlab/detail/record_flags.h)

// Per-thread counters of one launch, as the emulator keeps them (student/host_runtime.cpp).
struct ThreadState {
    unsigned seq, shuffles, barriers, warpsyncs, loads, partial_loads, shared_next, sites;
    SharedSite site[kSharedSites];  // the first `sites` are used
};

// A slot's tag: the record that last wrote it (kTagNone: none, it holds its starting value) and its flags, in
// one word so that both change together. Record indices stay below kTraceEvents (2^24).
constexpr unsigned kTagNone = 0xffffffu;
constexpr unsigned tag_writer(unsigned tag) { return (tag & kTagNone) == kTagNone ? kNone : (tag & kTagNone); }
constexpr unsigned char tag_flags(unsigned tag) { return static_cast<unsigned char>(tag >> 24); }
constexpr unsigned make_tag(unsigned writer, unsigned char flags) {
    return (writer == kNone ? kTagNone : (writer & kTagNone)) | (static_cast<unsigned>(flags) << 24);
}
constexpr unsigned long long kTraceEvents = 1ull << 24;  // rl::limits::kTraceEvents

enum ErrorCode : unsigned {
    kNoError = 0,
    kSharedIndex,    // s[i] with i outside [0, N): index, bound = N
    kOutIndex,       // out[b] outside [0, gridDim.x of the first launch): index, what = 0 reads / 1 writes / 2 atomic
    kSharedTooMany,  // the Shared arrays declare more than kSharedSlots slots
    kRecordsFull,    // the trace limit
    kStepBudget,     // one thread recorded kThreadEvents events
    kAtomicAddress,  // an atomic on something that is no &out[b]
    kShuffleWidth,   // a shuffle's width is no power of two 1..32: index = width, what = the shuffle's kind
    kSharedDeclarations,  // more than kSharedSites rl::Shared declarations: bound = kSharedSites
};
// The first kernel error of a launch (the thread that found it wins; every thread stops at its next call).
struct KernelError {
    unsigned code, thread, block, line, what, pad;
    long long index;           // the offending index or width
    unsigned long long bound;  // the bound it broke
};

// The run's operator: rl_combine_op's values, and --op witness (every combine merges element ranges).
enum Operator : unsigned { kSum = 0, kMax = 1, kMin = 2, kProd = 3, kWitness = 4 };

// The __constant__ rl_launch the host writes before each launch.
struct Launch {
    Record* records;             // this launch's records; record k is number record_base + k of the run
    unsigned* cursor;            // records written (one atomicAdd per event)
    ThreadState* states;         // gridDim.x * blockDim.x of them
    KernelError* error;
    const void* in;              // launch 0: n elements of T
    const unsigned long long* partial_bits;  // launch 1: in[i] reads partial i (out as launch 0 left it) ...
    const unsigned* partial_tags;            // ... with its writer and flags
    unsigned long long* out_bits;  // out slot b: T's bits in the low bytes
    unsigned* out_tags;            // writer and flags of each out slot
    unsigned* counter;             // rl::Counter
    unsigned* ops_used;            // bit (1 << op) of every combine or atomic
    unsigned long long* first_op;  // least (block, seq, thread) << 4 | op of the combines and atomics
    unsigned long long identity;   // the run's identity, packed
    unsigned long long poison;     // kPoison truncated as the element type packs
    unsigned record_base;
    unsigned out_slots;            // gridDim.x of the first launch
    unsigned launch;               // 0 or 1
    unsigned op;                   // Operator of the run
    int n;                         // the kernel's n
    unsigned pad;
};

constexpr unsigned kTakesCounter = 0x100;  // rl_kernel_signature: element code (0 f32, 1 f64, 2 i32) | this

}  // namespace rl::device_abi
