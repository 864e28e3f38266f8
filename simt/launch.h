// simt/launch.h — the state of one launch on the SIMT interpreter, shared by its files (internal to simt/):
// warps with their registers (struct of arrays over 32 lanes) and reconvergence stacks, memory, records.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "core/event_flags.h"
#include "simt/interpreter.h"

namespace rl::simt {

constexpr uint32_t kNone = kNoEvent;
constexpr uint32_t kAllLanes = 0xffffffffu;

// A lane's value as records see it: bits, the record that produced it (kNone: index arithmetic, a constant), flags.
struct Val {
    uint64_t bits;
    uint32_t hist;
    uint8_t flags;
};

// One entry of a warp's reconvergence stack (pre-Volta SIMT): the lanes of `mask` run from pc and rejoin the
// entry below when they reach rpc. A parked entry waits at a __syncthreads() (pc is past it, line is its line).
struct Entry {
    uint32_t pc;
    uint32_t mask;
    uint32_t rpc;
    bool parked = false;
    uint32_t line = 0;
};

// The lanes of one warp that run in lock step. A warp starts as one; when its path waits at a __syncthreads() while
// other lanes of it wait to rejoin that path (or to start the other side of its branch), those lanes go on alone as a
// Warp of their own (the same index and registers), as Volta's independent thread scheduling runs them.
struct Warp {
    uint32_t index = 0;
    uint32_t exists = 0;  // the lanes it holds
    uint32_t exited = 0;
    std::vector<Entry> stack;
    uint64_t* bits = nullptr;  // register r of lane l at [r * 32 + l]
    uint32_t* hist = nullptr;
    uint8_t* flags = nullptr;
};

// Memory a pointer's region resolves to: a global buffer of the run (a pointer parameter), a shared array of the
// kernel's elements (followed slot by slot), or plain memory (arenas: local arrays, other shared and __device__
// variables).
enum class Memory : uint8_t { Invalid, Buffer, Shared, Plain };
enum Arena : uint8_t { kGlobalArena, kSharedArena, kLocalArena, kArenas };

struct RegionState {
    Memory memory = Memory::Invalid;
    Space space = Space::None;
    Arena arena = kGlobalArena;
    bool read_only = false;
    uint64_t bytes = 0;
    uint32_t element_bytes = 1;
    uint32_t slot_base = 0;  // Shared: its first slot
    uint64_t base = 0;       // Plain: its first byte in the arena
    GlobalBuffer* buffer = nullptr;  // Buffer
    uint32_t buffer_id = 0;          // Buffer: its index in LaunchRequest::buffers
    std::string name;
};

using ArenaState = Granules;

struct ThreadState {
    void skip() {  // passes its next barrier without reaching it
        if (skipped.empty() || skipped.back().second != barriers) skipped.push_back({barriers, barriers});
        skipped.back().second = ++barriers;
    }
    uint32_t seq = 0, loads = 0, partial_loads = 0, shuffles = 0, warpsyncs = 0;
    uint32_t barriers = 0;  // __syncthreads() passed: reached, or skipped alive (Branch::skips)
    uint8_t predicate = 0;  // __syncthreads_count/_and/_or: this thread's, until the barrier completes
    uint32_t exit_line = 0;
    std::vector<std::pair<uint32_t, uint32_t>> skipped;  // the barriers it skipped, as runs [first, end)
    uint32_t exit_skip = kNone;  // seq when it took a skipping side that leads only to the exit (skip_exits)
};

class Launch {
public:
    Launch(const Kernel& kernel, const LaunchRequest& request, LaunchResult& result);
    void run();

    // Ends the launch: thrown after `result.error` is set.
    struct Stop {};

private:
    const Kernel& k_;
    const LaunchRequest& in_;
    LaunchResult& out_;
    size_t first_ = 0;  // this launch's first record in out_.records (record_base when it appends to the run's array)
    uint64_t identity_ = 0, poison_ = 0;
    uint32_t block_ = 0;
    uint32_t warps_ = 0;
    std::vector<Warp> warp_;
    std::vector<uint64_t> reg_bits_;
    std::vector<uint32_t> reg_hist_;
    std::vector<uint8_t> reg_flags_;
    std::vector<ThreadState> threads_;
    std::vector<RegionState> regions_;  // the kernel's regions [0, locals_first); locals are resolved per thread
    std::vector<uint64_t> local_offset_;  // each local array's offset in a thread's frame
    uint64_t frame_bytes_ = 0;
    uint32_t shared_slots_ = 0;
    std::vector<Slot> shared_;  // the block's shared slots (the kernel's element type)
    std::vector<uint32_t> reached_;  // the barriers (by number passed) some thread of the block reached, ascending
    std::vector<uint8_t> apart_;     // per warp: its paths went apart at a barrier (split) in this block
    std::vector<uint32_t> past_shuffles_, past_warpsyncs_;  // per warp: group numbers used so far
    ArenaState arena_[kArenas];

    // ---- launch.cpp: blocks, barriers, hangs ---------------------------------------------------------------
    void prepare_regions();
    void prepare_registers();
    void run_block(uint32_t b);
    bool split(size_t warp);
    bool all_live_parked() const;
    void release_barrier();
    std::string lines_of_two_barriers() const;
    void finish_block(size_t first_record);

    // ---- execute.cpp: one warp in lock step ----------------------------------------------------------------
    bool run_warp(Warp& w);
    bool settle(Warp& w);
    void branch(Warp& w, const Inst& in, uint32_t mask);
    void copy_edge(Warp& w, const Edge& e, uint32_t mask);
    void combine(Warp& w, const Inst& in, uint32_t mask);
    void combinable(Warp& w, const Inst& in, uint32_t mask);
    void branch_combine(Warp& w, const Inst& in, uint32_t mask);
    // Under --op argmax: an index value (bits: the kernel's int) recorded as the pair (its value's element, the int).
    uint64_t index_pair(uint32_t hist, uint64_t index_bits);

    // ---- memory.cpp: loads, stores, atomics ---------------------------------------------------------------
    struct Place {
        const RegionState* region;
        RegionState local;  // a local array resolved for its thread
        int64_t offset;
    };
    void resolve(uint64_t pointer, uint32_t tid, const Inst& in, Place& at);
    bool load(Warp& w, const Inst& in, uint32_t mask);    // true when it touched memory other warps see
    bool store(Warp& w, const Inst& in, uint32_t mask);
    bool atomic(Warp& w, const Inst& in, uint32_t mask);
    bool cmpxchg(Warp& w, const Inst& in, uint32_t mask);
    int64_t element_index(const Place& at, const Inst& in, uint32_t tid, const char* what);
    uint8_t* plain_bytes(const Place& at, const Inst& in, uint32_t tid, uint32_t size, const char* what);
    Val read_plain(const Place& at, const Inst& in, uint32_t tid, uint32_t size);
    void write_plain(const Place& at, const Inst& in, uint32_t tid, uint32_t size, Val v);
    Granules& store_of(const RegionState& r) { return r.buffer ? r.buffer->mem : arena_[r.arena]; }
    // Buffers: an access of the kernel's element size, recorded (memory.cpp).
    Val load_buffer(const Place& at, const Inst& in, uint32_t tid);
    // memory_bits: what the buffer's bytes take (v.bits, or an argmax index's int while v.bits is its pair).
    void store_buffer(const Place& at, const Inst& in, uint32_t tid, Val v, uint64_t memory_bits);
    uint32_t followed(const Warp& w, const Inst& in, uint32_t lane, uint32_t own) const;
    Val buffer_value(const GlobalBuffer& b, uint64_t g, uint32_t size) const;
    int64_t buffer_element(const Place& at, const Inst& in, uint32_t tid, const char* what, bool must_fit);
    void save_device_variables();

    // ---- warp_ops.cpp: shuffles, votes, barriers, __syncwarp, fences -----------------------------------------
    void shuffle(Warp& w, const Inst& in, uint32_t mask);
    void vote(Warp& w, const Inst& in, uint32_t mask);
    void arrive(Warp& w, const Inst& in, uint32_t mask);
    void warp_sync(Warp& w, const Inst& in, uint32_t mask);
    uint32_t warp_group(const Warp& w, uint32_t mask, uint32_t ThreadState::*count, std::vector<uint32_t>& past);
    uint32_t lane_group(uint32_t together, uint32_t& count, uint32_t& past);
    void fence(Warp& w, const Inst& in, uint32_t mask);

    // ---- records.cpp ---------------------------------------------------------------------------------------
    uint32_t record(EventKind kind, uint8_t flags, uint32_t detail, uint32_t aux, uint32_t dep0, uint32_t dep1,
                    uint64_t value, uint32_t line, uint32_t tid);
    uint32_t take_seq(uint32_t tid, uint32_t line);  // the thread's next place in its program order (step budget)
    uint64_t events_with_next() const;
    StudentRecord& at(uint32_t ev) { return out_.records[ev - in_.record_base + first_]; }
    Val fill(Warp& w, uint32_t reg, uint32_t lane, uint32_t line);
    void left_to_right(uint32_t a, uint32_t b, uint32_t tid);
    void used(uint8_t combine);
    std::string who(uint32_t tid, uint32_t line) const;
    [[noreturn]] void fail(const std::string& message);

    uint32_t tid_of(const Warp& w, uint32_t lane) const { return w.index * 32 + lane; }
    Val value(const Warp& w, uint32_t reg, uint32_t lane) const {
        const size_t i = size_t(reg) * 32 + lane;
        return {w.bits[i], w.hist[i], w.flags[i]};
    }
    void set(Warp& w, uint32_t reg, uint32_t lane, Val v) {
        const size_t i = size_t(reg) * 32 + lane;
        w.bits[i] = v.bits;
        w.hist[i] = v.hist;
        w.flags[i] = v.flags;
    }
    bool is_value_register(uint32_t reg) const { return reg < k_.values; }
    bool element_typed(const Inst& in) const { return k_.has_element && in.type == k_.element; }
};

template <class F> inline void each_lane(uint32_t mask, F&& f) {
    if (mask == kAllLanes) {
        for (uint32_t l = 0; l < 32; ++l) f(l);
        return;
    }
    while (mask) {
        const uint32_t l = uint32_t(__builtin_ctz(mask));
        mask &= mask - 1;
        f(l);
    }
}

}  // namespace rl::simt
