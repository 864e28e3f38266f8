// simt/launch.cpp — one launch: memory and registers set up, blocks one after another, the warps of a block
// interleaved round robin (each runs to its next access of memory other warps see, shuffle, fence or barrier),
// a warp's paths run on alone while one of them waits at a barrier, barriers completed when every live thread
// waits at one, "the kernel hangs" when a warp waits at two, and the exits of threads that skipped a barrier.
#include <algorithm>
#include <new>
#include "core/limits.h"
#include "simt/launch.h"
#include "simt/values.h"

namespace rl::simt {
namespace {

constexpr uint64_t kLocalArenaBytes = 256ull << 20;

uint64_t align8(uint64_t n) { return (n + 7) & ~7ull; }

// Thread ids (ascending) in few words: "thread 5", "threads 0-31", "threads 0, 2, 4, ..., 62", or the first runs
// and the count (the fiber runtime's wording).
std::string thread_list(const std::vector<uint32_t>& ids) {
    if (ids.size() == 1) return "thread " + std::to_string(ids[0]);
    const uint32_t stride = ids[1] - ids[0];
    bool progression = true;
    for (size_t i = 2; i < ids.size(); ++i) progression = progression && ids[i] - ids[i - 1] == stride;
    if (progression && stride == 1) return "threads " + std::to_string(ids.front()) + "-" + std::to_string(ids.back());
    if (progression && ids.size() > 4)
        return "threads " + std::to_string(ids[0]) + ", " + std::to_string(ids[1]) + ", " + std::to_string(ids[2]) + ", ..., " +
               std::to_string(ids.back());
    std::string s;
    int runs = 0;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i + 1;
        while (j < ids.size() && ids[j] == ids[j - 1] + 1) ++j;
        if (++runs > 4) return s + ", ... (" + std::to_string(ids.size()) + " in all)";
        s += (s.empty() ? "threads " : ", ") + std::to_string(ids[i]) + (j - i > 1 ? "-" + std::to_string(ids[j - 1]) : "");
        i = j;
    }
    return s;
}

}  // namespace

Launch::Launch(const Kernel& kernel, const LaunchRequest& request, LaunchResult& result)
    : k_(kernel), in_(request), out_(result), first_(result.records.size()) {
    identity_ = identity_of(in_.type, in_.op);
    poison_ = poison_of(in_.type, in_.op);
}

void Launch::prepare_regions() {
    regions_.assign(k_.locals_first, RegionState{});
    uint64_t global_bytes = 0, shared_bytes = 0;
    const uint32_t element = type_bytes(k_.element);
    for (uint32_t r = 1; r < k_.locals_first; ++r) {
        const Region& src = k_.regions[r];
        RegionState& s = regions_[r];
        s.space = src.space;
        s.name = src.name;
        s.read_only = src.read_only;
        s.element_bytes = type_bytes(src.element);
        s.bytes = src.dynamic ? in_.dynamic_shared_bytes : src.bytes;
        switch (src.space) {
            case Space::Param: {
                // A pointer parameter points into the buffer its argument names (at the argument's offset, which the
                // parameter's register carries): two parameters bound to one buffer share its contents.
                s.element_bytes = element;
                const Argument& a = in_.args[src.param];
                if (a.kind != ArgKind::Buffer) break;
                if (!in_.buffers || a.buffer >= in_.buffers->size())
                    fail("parameter " + std::to_string(src.param + 1) + " of " + k_.name + " is bound to buffer " + std::to_string(a.buffer) +
                         ", which the run does not have");
                s.memory = Memory::Buffer;
                s.buffer = &(*in_.buffers)[a.buffer];
                s.buffer_id = a.buffer;
                s.bytes = s.buffer->size;
                s.name = s.buffer->name;
                break;
            }
            case Space::Global:
                s.memory = Memory::Plain;
                s.arena = kGlobalArena;
                s.base = global_bytes;
                global_bytes += align8(s.bytes);
                break;
            case Space::Shared:
                // Shared arrays of the kernel's elements are followed slot by slot: static ones first, in declaration
                // order, then the dynamic one. Others (a flag, indices) are plain memory.
                if (k_.has_element && src.element == k_.element) {
                    s.memory = Memory::Shared;
                    s.slot_base = shared_slots_;
                    shared_slots_ += uint32_t(std::min<uint64_t>(s.bytes / s.element_bytes, 1u << 30));
                } else {
                    s.memory = Memory::Plain;
                    s.arena = kSharedArena;
                    s.base = shared_bytes;
                    shared_bytes += align8(s.bytes);
                }
                break;
            default: break;
        }
    }
    if (shared_slots_ > limits::kStudentSharedSlots)
        fail("the kernel's shared arrays of " + std::string(type_name(k_.element)) + " hold " + std::to_string(shared_slots_) +
             " elements per block, more than the lab's " + std::to_string(limits::kStudentSharedSlots) + " slots");
    for (uint32_t r = k_.locals_first; r < k_.regions.size(); ++r) {
        local_offset_.push_back(frame_bytes_);
        frame_bytes_ += align8(k_.regions[r].bytes);
    }
    if (frame_bytes_ * in_.block > kLocalArenaBytes)
        fail("the kernel's local arrays take " + std::to_string(frame_bytes_) + " bytes per thread: more than the lab's emulator holds");
    arena_[kGlobalArena].assign(global_bytes, 0);
    for (uint32_t r = 1; r < k_.locals_first; ++r) {
        if (k_.regions[r].space != Space::Global) continue;
        // A __device__ variable holds what the run's last launch left in it (a program's counter), else its initialiser.
        const std::vector<uint8_t>* kept = nullptr;
        if (in_.device_variables) {
            auto it = in_.device_variables->find(k_.regions[r].name);
            if (it != in_.device_variables->end() && it->second.size() == k_.regions[r].init.size()) kept = &it->second;
        }
        const std::vector<uint8_t>& from = kept ? *kept : k_.regions[r].init;
        std::copy(from.begin(), from.end(), arena_[kGlobalArena].bytes.begin() + std::ptrdiff_t(regions_[r].base));
    }
    arena_[kSharedArena].assign(shared_bytes, kUndefined);
    arena_[kLocalArena].assign(frame_bytes_ * in_.block, kUndefined);
}

// Constants and parameters never change: they are written once, in every lane of every warp.
void Launch::prepare_registers() {
    warps_ = (in_.block + 31) / 32;
    const size_t per_warp = size_t(k_.registers) * 32;
    reg_bits_.assign(per_warp * warps_, 0);
    reg_hist_.assign(per_warp * warps_, kNone);
    reg_flags_.assign(per_warp * warps_, 0);
    warp_.assign(warps_, Warp{});
    for (uint32_t w = 0; w < warps_; ++w) {
        Warp& warp = warp_[w];
        warp.index = w;
        warp.bits = reg_bits_.data() + per_warp * w;
        warp.hist = reg_hist_.data() + per_warp * w;
        warp.flags = reg_flags_.data() + per_warp * w;
        for (const Constant& c : k_.constants)
            for (uint32_t l = 0; l < 32; ++l) {
                warp.bits[size_t(c.reg) * 32 + l] = c.bits;
                warp.flags[size_t(c.reg) * 32 + l] = c.undefined ? kUndefined : 0;
            }
        for (size_t p = 0; p < k_.params.size(); ++p) {
            uint64_t bits = in_.args[p].bits;
            if (k_.params[p].pointer) bits = make_pointer(uint32_t(1 + p), int64_t(in_.args[p].offset));
            for (uint32_t l = 0; l < 32; ++l) warp.bits[size_t(k_.params[p].reg) * 32 + l] = bits;
        }
    }
}

bool Launch::all_live_parked() const {
    for (const Warp& w : warp_) {
        uint32_t parked = 0;
        for (const Entry& e : w.stack)
            if (e.parked) parked |= e.mask & ~w.exited;
        if (parked != (w.exists & ~w.exited)) return false;
    }
    return true;
}

// The lines at which the threads of each warp wait: "" when every warp waits at one line, else the hang message.
std::string Launch::lines_of_two_barriers() const {
    bool split = false;
    std::vector<int64_t> waits_at(warps_, -1);  // per warp, whichever of its paths waits
    for (const Warp& w : warp_)
        for (const Entry& e : w.stack)
            if (e.parked && (e.mask & ~w.exited)) {
                int64_t& l = waits_at[w.index];
                split = split || (l >= 0 && l != int64_t(e.line));
                l = e.line;
            }
    if (!split) return {};
    std::vector<std::pair<uint32_t, uint32_t>> at;  // (thread, line)
    for (const Warp& w : warp_)
        for (const Entry& e : w.stack)
            if (e.parked)
                each_lane(e.mask & ~w.exited, [&](uint32_t l) { at.push_back({tid_of(w, l), e.line}); });
    std::sort(at.begin(), at.end());
    std::vector<uint32_t> lines;  // in the order of their first (lowest) thread
    for (const auto& [tid, line] : at)
        if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
    std::string what;
    for (size_t k = 0; k < lines.size(); ++k) {
        std::vector<uint32_t> ids;
        for (const auto& [tid, line] : at)
            if (line == lines[k]) ids.push_back(tid);
        what += (k == 0 ? "" : k + 1 == lines.size() ? " and " : ", ") + thread_list(ids) +
                (k == 0 ? " wait at __syncthreads() on line " : " on line ") + std::to_string(lines[k]);
    }
    return "the kernel hangs: in block " + std::to_string(block_) + (in_.scope.empty() ? "" : " of " + in_.scope) + ", " +
           what + ": the threads of a warp must all reach the same __syncthreads()";
}

// Every live thread waits at a barrier: __syncthreads_count/_and/_or get their block-wide answer, all go on.
void Launch::release_barrier() {
    uint32_t arrived = 0, yes = 0;
    for (Warp& w : warp_)
        for (Entry& e : w.stack)
            if (e.parked && BarrierKind(k_.code[e.pc - 1].aux) != BarrierKind::Plain)
                each_lane(e.mask & ~w.exited, [&](uint32_t l) {
                    ++arrived;
                    yes += threads_[tid_of(w, l)].predicate;
                });
    for (Warp& w : warp_)
        for (Entry& e : w.stack) {
            if (!e.parked) continue;
            e.parked = false;
            const Inst& in = k_.code[e.pc - 1];
            const BarrierKind kind = BarrierKind(in.aux);
            if (kind == BarrierKind::Plain) continue;
            const uint64_t v = kind == BarrierKind::Count ? yes : kind == BarrierKind::And ? yes == arrived : yes > 0;
            each_lane(e.mask & ~w.exited, [&](uint32_t l) { set(w, in.dst, l, {v, kNone, 0}); });
        }
}

// Lanes of warp u that wait where a branch rejoins (or to start the branch's other side) while the path they wait
// for waits at __syncthreads(): on a GPU since Volta a warp's diverged paths are scheduled independently, so they
// go on alone, as a Warp of their own that holds the stack below that point with their lanes only. One level at a
// time, the deepest first. False: no lane of it waits so.
bool Launch::split(size_t u) {
    Warp& w = warp_[u];
    uint32_t above = 0;  // lanes of the entries above: they wait at a barrier, or run a side not yet rejoined
    for (size_t i = w.stack.size(); i-- > 0;) {
        const Entry& e = w.stack[i];
        const uint32_t waiting = e.mask & ~w.exited & ~above;
        above |= e.mask;
        if (e.parked || !waiting) continue;
        Warp alone = w;
        alone.exists = waiting;
        alone.exited = 0;
        alone.stack.clear();
        for (size_t j = 0; j <= i; ++j) {
            if (w.stack[j].mask & waiting) {
                alone.stack.push_back(w.stack[j]);
                alone.stack.back().mask &= waiting;
            }
            w.stack[j].mask &= ~waiting;
        }
        w.exists &= ~waiting;
        apart_[w.index] = 1;
        warp_.push_back(std::move(alone));  // w is not used after this
        return true;
    }
    return false;
}

// The end of a block. A thread that passed a barrier some thread of the block reached, without reaching it, skipped
// it alive: it records its exit (its last record, with the number of the block's barriers it passed), which places
// it after that barrier, where the checker finds it missing (divergent-barrier). Threads that only reached barriers,
// or skipped ones no thread reached (a loop every thread leaves together), record none. Barriers are numbered by
// the ones the block reached, as the fiber runtime numbers them: the numbers of barriers only skipped are dropped.
void Launch::finish_block(size_t first_record) {
    auto number = [&](uint32_t passed) { return uint32_t(std::lower_bound(reached_.begin(), reached_.end(), passed) - reached_.begin()); };
    if (!reached_.empty() && reached_.back() + 1 != reached_.size())
        for (size_t i = first_record; i < out_.records.size(); ++i)
            if (out_.records[i].kind == EventKind::Barrier) out_.records[i].group = number(out_.records[i].group);
    for (uint32_t tid = 0; tid < in_.block; ++tid) {
        const ThreadState& t = threads_[tid];
        bool alive = false;
        for (const auto& [first, end] : t.skipped) alive = alive || number(first) < number(end);
        if (!alive) continue;
        const uint32_t ev = record(EventKind::Exit, 0, 0, 0, kNone, kNone, identity_, t.exit_line, tid);
        at(ev).group = number(t.barriers);
    }
}

void Launch::run_block(uint32_t b) {
    block_ = b;
    threads_.assign(in_.block, ThreadState{});
    shared_.assign(shared_slots_, Slot{0, 0, kNone});
    if (b > 0) {
        arena_[kSharedArena].assign(arena_[kSharedArena].bytes.size(), kUndefined);
        arena_[kLocalArena].assign(arena_[kLocalArena].bytes.size(), kUndefined);
    }
    reached_.clear();
    apart_.assign(warps_, 0);
    past_shuffles_.assign(warps_, 0);
    past_warpsyncs_.assign(warps_, 0);
    const size_t first_record = out_.records.size();
    warp_.resize(warps_);  // the paths a warp split into in the block before are gone
    for (Warp& w : warp_) {
        const uint32_t lanes = std::min<uint32_t>(32, in_.block - 32 * w.index);
        w.exists = lanes == 32 ? kAllLanes : (1u << lanes) - 1;
        w.exited = 0;
        w.stack.assign(1, Entry{0, w.exists, kNoPc});
    }
    for (;;) {
        bool ran = false, live = false;
        for (size_t u = 0; u < warp_.size(); ++u) {  // split appends: indices, not references
            if (warp_[u].stack.empty()) continue;
            const bool moved = run_warp(warp_[u]) || split(u);
            ran = ran || moved;
            live = live || !warp_[u].stack.empty();
        }
        if (!live) break;
        if (ran) continue;
        // Nothing moves: every live thread waits at a barrier (a path that waits for another has gone on alone).
        if (!all_live_parked()) fail("the lab's emulator lost track of the threads of block " + std::to_string(block_) + " that wait");
        if (std::string two = lines_of_two_barriers(); !two.empty()) fail(two);
        release_barrier();
    }
    finish_block(first_record);
}

void Launch::run() {
    // Room for the records up front: a reservation costs address space only until it is written, and saves copying
    // a large trace each time the vector would grow (16 records a thread covers the lab's own kernels).
    // The trace limit counts events (records.cpp), and a kernel with barriers makes about two records an event: room
    // for twice the events left until block 0 tells the ratio.
    const uint64_t events_left = limits::kTraceEvents - std::min<uint64_t>(in_.record_base - in_.merged_before, limits::kTraceEvents);
    uint64_t room = 2 * events_left;
    const uint32_t begin = std::min(in_.block_begin, in_.grid);
    const uint32_t end = in_.block_end == 0 ? in_.grid : std::min(in_.block_end, in_.grid);
    const uint32_t blocks = end > begin ? end - begin : 0;
    try {
        out_.records.reserve(first_ + size_t(std::min<uint64_t>(room, uint64_t(blocks) * in_.block * 16 + 4096)));
    } catch (const std::bad_alloc&) {
        // no such room (overcommit off, a small machine): the array grows as it fills
    }
    try {
        prepare_regions();
        prepare_registers();
        for (uint32_t b = begin; b < end; ++b) {
            run_block(b);
            // Block 0 tells what a block records (Harris's kernel 4 at 512 threads: 18 a thread): room for every
            // block as much and a block more, so that a large launch is never copied as it grows (at 2^20 elements
            // a copy of 670 MB took a third of the launch). Room for the later launches' threads at twice this block's
            // records per thread (a reservation not written costs no memory; one too small, a copy of everything).
            if (b != begin || (blocks == 1 && in_.later_threads == 0)) continue;
            const uint64_t block0 = out_.records.size() - first_;
            // The most records the limit lets the run make, at block 0's records per event (and two blocks' slack): a
            // run stopped at the limit must not have doubled its array on the way (at 2^24 elements that was 5.6 GB).
            if (const uint64_t events0 = block0 - out_.merged; events0 > 0) room = events_left * block0 / events0 + 2 * block0 + 4096;
            const uint64_t later = (block0 * in_.later_threads * 2 + in_.block - 1) / in_.block;
            const uint64_t want = std::min<uint64_t>(room, block0 * (uint64_t(blocks) + 1) + later + 4096);
            try {
                if (first_ + want > out_.records.capacity()) out_.records.reserve(first_ + size_t(want));
            } catch (const std::bad_alloc&) {
                // as above: the array grows as it fills
            }
        }
    } catch (const Stop&) {
    }
    save_device_variables();
}

// The run's __device__ variables as this launch leaves them, for its next launch.
void Launch::save_device_variables() {
    if (!in_.device_variables || regions_.empty()) return;
    for (uint32_t r = 1; r < k_.locals_first && r < regions_.size(); ++r) {
        if (k_.regions[r].space != Space::Global || regions_[r].memory != Memory::Plain) continue;
        const uint8_t* first = arena_[kGlobalArena].bytes.data() + regions_[r].base;
        (*in_.device_variables)[k_.regions[r].name].assign(first, first + k_.regions[r].init.size());
    }
}

LaunchResult run_launch(const Kernel& kernel, const LaunchRequest& request) {
    LaunchResult out;
    if (request.args.size() != kernel.params.size()) {
        out.error = kernel.name + " takes " + std::to_string(kernel.params.size()) + " parameters, and the launch passes " +
                    std::to_string(request.args.size());
        return out;
    }
    if (request.block < 1 || request.block > limits::kBlockThreads || request.grid < 1) {
        out.error = "a launch of " + std::to_string(request.grid) + " blocks of " + std::to_string(request.block) +
                    " threads: blocks have 1.." + std::to_string(limits::kBlockThreads) + " threads";
        return out;
    }
    for (size_t p = 0; p < kernel.params.size(); ++p)
        if (kernel.params[p].pointer != (request.args[p].kind == ArgKind::Buffer)) {
            out.error = kernel.name + "'s parameter " + std::to_string(p + 1) + " is " + (kernel.params[p].pointer ? "a pointer" : "a scalar") +
                        ", and the launch passes " + (kernel.params[p].pointer ? "a scalar" : "a buffer");
            return out;
        }
    if (request.records) {
        if (request.records->size() != request.record_base) {
            out.error = "the run's records (" + std::to_string(request.records->size()) + ") do not end where this launch's start (" +
                        std::to_string(request.record_base) + ")";
            return out;
        }
        out.records = std::move(*request.records);
    }
    Launch launch(kernel, request, out);
    launch.run();
    return out;
}

}  // namespace rl::simt
