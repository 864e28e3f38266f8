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
constexpr unsigned kNone = 0xffffffffu;                 // rl::kNoEvent
constexpr unsigned long long kPoison = 0xdeadbeefdeadbeefull;  // rl::kPoisonBits
constexpr unsigned kSharedSlots = 4096;                 // shared slots a kernel may declare in all
constexpr unsigned kThreadEvents = 65535;               // events one thread may record in one launch

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

// Per-thread counters of one launch (program order, the k-th shuffle / barrier / __syncwarp / load, the
// next free shared slot of this thread's Shared arrays).
struct ThreadState {
    unsigned seq, shuffles, barriers, warpsyncs, loads, shared_next;
};

enum ErrorCode : unsigned {
    kNoError = 0,
    kSharedIndex,    // s[i] with i outside [0, N)
    kOutIndex,       // out[b] with b outside [0, gridDim.x of the first launch)
    kSharedTooMany,  // the Shared arrays declare more than kSharedSlots slots
    kRecordsFull,    // the record buffer (the trace limit) is full
    kStepBudget,     // one thread recorded kThreadEvents events
};
// The first kernel error of a launch (the thread that found it wins; every thread stops at its next call).
struct KernelError {
    unsigned code, thread, block, line;
    long long index;           // the offending index (or the count that reached the bound)
    unsigned long long bound;  // the bound it broke
};

enum Operator : unsigned { kSum = 0, kMax = 1, kMin = 2, kProd = 3 };  // the run's operator (identity<T>())

// The __constant__ rl_launch the host writes before each launch.
struct Launch {
    Record* records;
    unsigned* cursor;            // next free record (one atomicAdd per event)
    ThreadState* states;         // gridDim.x * blockDim.x of them
    KernelError* error;
    const void* in;              // launch 0: n elements of T
    const unsigned long long* partial_values;  // launch 1: in[i] reads partial i (out after launch 0) ...
    const unsigned* partial_writers;           // ... and the record that wrote it (kNone: the identity)
    unsigned long long* out_values;  // out slot b: T's bits in the low bytes
    unsigned* out_writers;           // the record of the last store or atomic per slot (kNone: the identity)
    unsigned* counter;               // rl::Counter
    unsigned capacity;               // records the buffer holds
    unsigned out_slots;              // gridDim.x of the first launch
    unsigned launch;                 // 0 or 1
    unsigned op;                     // Operator
    int n;                           // the kernel's n
    unsigned pad;
};

// The kernel's signature as RL_ENTRY finds it: element type and whether it takes rl::Counter.
enum ElementType : unsigned { kF32 = 0, kF64 = 1, kI32 = 2 };  // rl::DType's values
constexpr unsigned kTakesCounter = 0x100;

}  // namespace rl::device_abi
