// core/trace.h — the trace: compact 32-byte events, hazards and the result of one reduction run.
// The trace is the single source of truth: every picture and number is computed from it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "core/event_flags.h"
#include "core/level_of_detail.h"
#include "core/schedule.h"

namespace rl {

enum class EventKind : uint8_t {
    Load,          // thread loads one input element (aux = element index, detail = item k)
    IdentityFill,  // thread without elements takes the identity (or, buggy, an uninitialised register)
    Combine,       // value = op(dep[0], dep[1])
    Shuffle,       // value read from another lane (aux = mask, detail = offset | source lane << 8); every lane
                   // that executes the call emits one, whether or not it uses the value
                   // (which lanes executed is read from these events)
    SharedStore,   // detail = shared-memory slot
    SharedLoad,    // detail = slot; dep[0] = the store whose value was read (none when it saw no store)
    Barrier,       // __syncthreads arrival, one per warp (thread = the warp's first lane; aux = the lanes of
                   // that warp that arrive; 0, in traces written before aux was kept, means all of them)
    WarpSync,      // __syncwarp, one per warp and mask (aux = the lanes it names, 0 = all; thread = the lowest lane
                   // that called it, so a lane whose own bit the mask leaves out has an event of its own)
    BlockPartial,  // the block's result written to global memory
    Atomic,        // value = memory after op(old, dep[1]); dep[0] = the atomic it followed; aux = position
    Ticket,        // last-block-done counter increment; aux = ticket drawn
    GridSync,      // cooperative grid.sync() arrival, one per block
    PartialLoad,   // the finishing stage loads a block partial (aux = block index; dep[0] = the BlockPartial
                   // whose value it saw, none when it saw an older value of that global slot)
    FinalStore,    // the reduction's result written
    Fence,         // __threadfence() by one thread (last-block: after the block partial, before the ticket)
    Exit,          // a student's thread leaves the kernel after passing a __syncthreads() that other threads of its
                   // block reached, without reaching it (it skipped the barrier alive): on the step of the last
                   // such barrier or after its own last event. Only such threads have one: a thread without an
                   // exit event exited after its last event
};
constexpr int kEventKindCount = 16;

constexpr uint32_t kNoEvent = 0xffffffffu;

struct Event {
    EventKind kind;
    uint8_t flags;
    uint16_t step;     // logical step: one row of the picture, the same for every block
    uint16_t thread;   // thread within its block; warp = thread / 32, lane = thread % 32
    uint16_t detail;   // per kind: item k, shared slot, or shuffle offset | source lane << 8
    uint32_t block;    // block index; the second launch of two-pass is block == grid
    uint32_t aux;      // per kind: element index, mask, atomic position, ticket, partial index
    uint32_t dep[2];   // operand events (kNoEvent when none)
    uint64_t value;    // operator value, packed (see core/ops.h)

    uint32_t warp() const { return thread / 32u; }
    uint32_t lane() const { return thread % 32u; }
    uint32_t shuffle_offset() const { return detail & 0xffu; }
    uint32_t source_lane() const { return detail >> 8; }
};
static_assert(sizeof(Event) == 32, "events stay 32 bytes");

// Timestamps recorded on a GPU (absent for emulator traces): one entry per event.
struct EventTime {
    uint64_t globaltimer_ns;
    uint64_t clock;
    uint32_t sm;
};

enum class HazardKind : uint8_t {
    MaskNamesInactiveLanes,
    ReadFromNonParticipatingLane,
    UninitialisedTail,
    WrongIdentity,
    SharedMemoryRace,
    DivergentBarrier,
    OrderViolation,
    AtomicContention,      // a cost finding (a note, see is_note): correct, but serialised
    ImplicitWarpSync,
    MissingThreadfence,    // a block partial not ordered before the ticket atomic by __threadfence()
    StalePartialRead,      // the finishing block read a block partial before its store was visible
    SharedSlotNeverWritten,  // a shared-memory load of a slot no thread of the block stored in this launch
    OutOfBoundsRead,         // a load of an element index outside the input (a student's kernel)
    MaskOmitsOwnLane,        // a lane calls `__shfl_*_sync` or `__syncwarp` with a mask that leaves out its own bit
    GlobalMemoryRace,        // two blocks of one launch store (or store and load) one global element, nothing ordering them
    RaceCheckIncomplete,     // a note: the global-memory-race rule ran out of its budget and left elements uncompared
};
constexpr int kHazardKindCount = 16;

struct Hazard {
    HazardKind kind;
    uint32_t event;        // the event where it happens
    uint32_t block;
    uint32_t warp;
    uint32_t lanes;        // lanes of that warp involved (bit mask)
    std::string what;      // what went wrong, in plain language
};

std::string_view to_string(EventKind);
std::string_view to_string(HazardKind);
// A cost finding (atomic-contention): the program is correct, only slower than it could be. Traces list
// these as notes, apart from the hazards; a note never makes a run fail.
bool is_note(HazardKind);
std::string_view rule_of(HazardKind);  // the rule of the CUDA programming model it breaks
bool parse_event_kind(std::string_view, EventKind&);
bool parse_hazard_kind(std::string_view, HazardKind&);

enum class Backend : uint8_t { Cpu, Cuda };

// One kernel launch of a plain CUDA run (a --launch plan or a program's `<<< >>>`): launches are scopes of one trace.
struct LaunchScope {
    std::string kernel;          // as the plan names it, e.g. "harris6<64>"
    uint32_t grid = 1, block = 1, shared_bytes = 0;
    uint32_t first_block = 0;    // its block b is the trace's block first_block + b (launches in order)
};

struct Trace {
    Schedule schedule;
    Backend backend = Backend::Cpu;
    std::string device;             // "CPU SIMT emulator" or the GPU's name
    std::vector<double> inputs;     // input values as the kernel saw them (after bf16/f16 rounding)
    std::vector<Event> events;
    std::vector<EventTime> times;   // empty, or one per event
    std::vector<Hazard> hazards;    // findings that break a rule of the CUDA programming model
    std::vector<Hazard> notes;      // cost findings (is_note): correct code, worth knowing, never a failure
    uint32_t result_event = kNoEvent;
    uint64_t result_value = 0;      // packed; equals events[result_event].value
    uint8_t result_flags = 0;
    uint16_t step_count = 0;        // steps are 0 .. step_count-1
    uint16_t scope_start[4] = {0, 0, 0, 0};  // first step of the thread, warp, block and grid scopes
    uint32_t grid = 0;              // blocks launched in the first pass
    uint32_t finisher_block = kNoEvent;  // block that ran the finishing stage (grid for a second launch)

    // Reference computed from the inputs, independently of the trace.
    uint64_t reference_value = 0;   // packed, correctly rounded to the accumulator type
    double reference_exact = 0.0;   // exact (sum) or double-precision (prod) value, as a double
    double abs_sum = 0.0;           // sum of |x|, for error bounds

    // A student's kernel (rlab run): its file, the source line of every event (empty for the lab's own
    // schedules, whose lines come from codegen), and the threads of its finishing launch (0: from the schedule).
    std::string kernel_file;
    std::vector<uint16_t> lines;
    uint32_t finish_threads = 0;
    // A plain CUDA run: every launch in order; empty for the lab's schedules and dialect kernels (their second
    // launch stays block == grid).
    std::vector<LaunchScope> launches;
    // A plain run summarised by level of detail (core/level_of_detail.h): the blocks shown as counts; inactive when
    // every event of the run is in `events`.
    LevelOfDetail detail;
    // A plain CUDA run: the elements of each global buffer (index = the buffer's number in events, 0 = in, 1 = out,
    // 2 = tmp, ...; at most kMaxTraceBuffers), as the runner allocated them; empty when not known (older traces).
    std::vector<uint64_t> buffer_elements;
    // A plain run's Atomic events whose element index does not fit Event::detail (8192 and above): (event, element),
    // sorted by event. atomic_element() reads them; everything that renumbers events renumbers these.
    std::vector<std::pair<uint32_t, uint32_t>> wide_atomic_elements;
};

// ---- launches as scopes (a plain CUDA run: Trace::launches non-empty) ----------------------------------
constexpr size_t kMaxLaunches = 16;
// Global buffers of a plain run: 0 = in, 1 = out, 2 = tmp, 3..7 = a program's other buffers. In a trace with
// launches, BlockPartial, FinalStore, PartialLoad and Atomic carry theirs in Event::detail bits 13..15; a PartialLoad
// of an index outside its buffer has bit 12 set (its k-th-load count keeps bits 0..11, saturated); an Atomic keeps
// its element index in bits 0..12, modulo 8192: the full index of one at 8192 or above is in Trace::wide_atomic_elements.
constexpr uint32_t kDetailBufferShift = 13;
constexpr uint16_t kDetailOutside = 1u << 12;
constexpr uint32_t kBufferOut = 1;
constexpr size_t kMaxTraceBuffers = 8;               // buffer numbers fit the 3 bits above
constexpr uint32_t kDetailAtomicElement = 0x1fffu;   // an Atomic's element index modulo 8192 (Trace::wide_atomic_elements)
inline uint32_t event_buffer(const Event& e) { return e.detail >> kDetailBufferShift; }
// The element an Atomic of a plain run updated, in full (its detail bits, or the trace's wide_atomic_elements).
uint32_t atomic_element(const Trace& t, uint32_t event);
// "" when t's buffer_elements and wide_atomic_elements are well formed and agree with the events (a plain run's stores
// and loads inside their buffers, loads marked outside outside them; wide elements on Atomic events, sorted, matching
// their detail bits), else one line naming the first that is not.
std::string buffers_problem(const Trace& t);
std::string buffer_name(uint32_t buffer);  // "in", "out", "tmp", "buffer 5"
// "" when the launches are well formed (at most kMaxLaunches; each grid and block at least 1, blocks at most
// limits::kBlockThreads; first_block the sum of the grids before it; the kernel's name at most 256 bytes), else one
// line naming the first launch that is not.
std::string launches_problem(const std::vector<LaunchScope>& launches);
// The launch a trace block belongs to (index into t.launches; 0 when the trace has none).
size_t launch_of_block(const Trace& t, uint32_t block);
// All the blocks of a trace's launches (t.grid when it has none).
uint64_t launch_blocks(const Trace& t);
// "launch 2, block 0" (1-based launch, block within it) in a trace with several launches; "block 3" otherwise.
std::string block_name(const Trace& t, uint32_t block);
// The same for a picture's label: "launch 2 · block 0", or "block 3".
std::string block_label(const Trace& t, uint32_t block);
// A lane mask as ranges: "0-15, 20" ("none" for 0).
std::string lane_ranges(uint32_t mask);
// "launch 2, block 0, warp 0, lanes 0-15" (or "lane 7"; "block 3, warp 0, ..." with one launch): a hazard's place.
std::string place_text(const Trace& t, uint32_t block, uint32_t warp, uint32_t lanes);

enum class Scope : uint8_t { Thread, Warp, Block, Grid };
std::string_view to_string(Scope);
Scope scope_of(const Trace& t, const Event& e);

// Packed value as text, with the operator's meaning ("36", "max 7 @ index 3", "[0..7]", "undefined").
std::string format_value(Op op, DType type, uint64_t bits, uint8_t flags = 0);
// Primary numeric part of a value (sum, max, value of argmax; lo of a witness), for plots and JSON.
double numeric_value(Op op, DType type, uint64_t bits);
std::string format_flags(uint8_t flags);

// Event kinds present on a step, as a bit mask (bit k = EventKind k).
using KindMask = uint32_t;
// What happens at a step, in words, from the kinds of events on it ("shfl_down offset 4",
// "__syncthreads()", ...); first_shuffle names the offset. Empty when nothing describes it.
// Shared by the board, row labels and lessons; a student's kernel gets its own words (core/step_words.h).
std::string describe_step(const Trace& t, KindMask kinds, const Event* first_shuffle);
std::string describe_step(const Trace& t, uint16_t step);  // scans the trace for that step
// For each event, whether another event uses its value (a dep names it). Every lane that executes a
// shuffle records its read; pictures draw the reads that are used (the rest is the lane's unused copy).
std::vector<uint8_t> used_values(const Trace& t);
// Kinds whose value is what a thread holds after the event (the board's and lessons' cells).
bool holds_thread_value(EventKind k);

}  // namespace rl
