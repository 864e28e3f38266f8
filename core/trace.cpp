// core/trace.cpp — names of event and hazard kinds, the CUDA rules, value formatting and launch scopes in words.
#include "core/trace.h"

#include "core/step_words.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>

#include "core/limits.h"

namespace rl {
namespace {

constexpr std::array<std::string_view, kEventKindCount> kKindNames{"load", "identity-fill", "combine", "shuffle",
    "shared-store", "shared-load", "barrier", "warp-sync", "block-partial", "atomic", "ticket", "grid-sync",
    "partial-load", "final-store", "fence", "exit"};

constexpr std::array<std::string_view, kHazardKindCount> kHazardNames{"mask-names-inactive-lanes",
    "read-from-non-participating-lane", "uninitialised-tail", "wrong-identity", "shared-memory-race", "divergent-barrier",
    "order-violation", "atomic-contention", "implicit-warp-sync", "missing-threadfence", "stale-partial-read",
    "shared-slot-never-written", "out-of-bounds-read", "mask-omits-own-lane", "global-memory-race",
    "race-check-incomplete"};

constexpr std::array<std::string_view, kHazardKindCount> kRules{
    "Every non-exited lane named in a `__shfl_*_sync` mask must execute that same call with the same mask "
    "(CUDA Programming Guide, warp shuffle functions). Lanes never launched count as exited, so naming them "
    "breaks no rule; lanes that exist and skip the call (a shuffle inside `if (i < n)`) break it. Lanes whose masks "
    "name only lanes with the same mask may use different masks in one step (0x0000ffff and 0xffff0000).",
    "A shuffle that reads a lane which did not execute the call (never launched, exited, or skipped it) or is "
    "not named in the mask returns an undefined value; the mask does not make that read valid.",
    "A register that is never assigned holds an unspecified value; lanes without input must hold the operator's identity.",
    "A starting value e (a thread's before or instead of its elements, or the output's before its first atomic) is "
    "combined into the result, so it must not change it: e ⊕ r = r for the reduction r of the data the result combines. "
    "The operator's identity never changes it; 0 as the start of a max over negative values, or of a product, does; "
    "−FLT_MAX as the start of a max over finite values does not. A value that never reaches the result (a flag, a "
    "counter, a ticket) is no starting value.",
    "A shared-memory load in one warp is ordered after a store in another only through `__syncthreads()` "
    "(or another barrier or fence) between them; without it the read races with the write.",
    "`__syncthreads()` is allowed in conditional code only when the condition is the same for every thread of the block.",
    "Regrouping needs associativity; reordering needs commutativity. A non-commutative operator must merge "
    "ranges in their original left-to-right order.",
    "Atomics to one address are serialised by the memory system: correct, but each waits for the previous one.",
    "Since Volta, lanes of a warp are scheduled independently: warp-synchronous shared-memory code needs "
    "`__syncwarp()` (or shuffles) between dependent steps; volatile is not enough.",
    "A block's result becomes visible to another block only in order: store it, `__threadfence()`, then signal "
    "(the ticket atomic); without the fence the last block may see the ticket before the partial.",
    "A block partial read by the finishing block must be the one its block stored; a read that ran ahead of "
    "that store's visibility returns a stale value.",
    "Shared memory is not initialised at launch: a load of a slot that no thread of the block stored in this "
    "launch returns an unspecified value.",
    "A kernel may read only the elements it was given: an index outside [0, n) reads memory that is not the "
    "input (another allocation, or a fault), so its value is undefined.",
    "Each thread that calls `__shfl_*_sync(mask, ...)` or `__syncwarp(mask)` must have its own bit set in the mask "
    "(CUDA Programming Guide, warp shuffle functions and __syncwarp); a call whose mask leaves out the calling lane is "
    "undefined.",
    "CUDA gives the blocks of one launch no order: a global element that one block stores and another block stores or "
    "loads, with neither ordered before the other (by a later launch, or by the last-block pattern's ticket), is a data "
    "race; combine the blocks' values with atomics, or store one partial per block and combine them in another launch.",
    "Not a rule broken: the checker compares a bounded number of pairs of global accesses, and a trace past that bound "
    "is checked only in part; a race on the elements the note names would not be reported."};

constexpr std::array<std::string_view, 4> kScopeNames{"thread", "warp", "block", "grid"};

std::string number(double v) {
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", v);
    } else {
        snprintf(buf, sizeof buf, "%.9g", v);
    }
    return buf;
}

double primary(DType type, uint32_t lo_bits, uint64_t bits) {
    if (type == DType::F64) return unpack_value<double>(bits);
    if (type == DType::I32) return double(int32_t(lo_bits));
    return double(unpack_value<float>(lo_bits));
}

}  // namespace

std::string_view to_string(EventKind k) { return kKindNames[size_t(k)]; }
std::string_view to_string(HazardKind k) { return kHazardNames[size_t(k)]; }
std::string_view rule_of(HazardKind k) { return kRules[size_t(k)]; }
bool is_note(HazardKind k) { return k == HazardKind::AtomicContention || k == HazardKind::RaceCheckIncomplete; }
std::string_view to_string(Scope s) { return kScopeNames[size_t(s)]; }

bool parse_event_kind(std::string_view s, EventKind& out) {
    for (size_t i = 0; i < kKindNames.size(); ++i)
        if (kKindNames[i] == s) {
            out = EventKind(i);
            return true;
        }
    return false;
}

bool parse_hazard_kind(std::string_view s, HazardKind& out) {
    for (size_t i = 0; i < kHazardNames.size(); ++i)
        if (kHazardNames[i] == s) {
            out = HazardKind(i);
            return true;
        }
    return false;
}

Scope scope_of(const Trace& t, const Event& e) {
    if (e.flags & kFinisher) return Scope::Grid;
    if (e.kind == EventKind::Atomic) return Scope::Grid;
    for (int s = 3; s > 0; --s)
        if (e.step >= t.scope_start[s]) return Scope(s);
    return Scope::Thread;
}

double numeric_value(Op op, DType type, uint64_t bits) {
    uint32_t lo = uint32_t(bits);
    switch (op) {
        case Op::Witness: return lo >= kWitnessViolated ? -1.0 : double(lo);
        case Op::ArgMax:
        case Op::SumCount: return primary(type == DType::F64 ? DType::F32 : type, lo, lo);
        default: return primary(type, lo, bits);
    }
}

std::string format_value(Op op, DType type, uint64_t bits, uint8_t flags) {
    if (flags & kUndefined) return "undefined";
    uint32_t lo = uint32_t(bits), hi = uint32_t(bits >> 32);
    switch (op) {
        case Op::Witness:
            if (lo == kWitnessEmpty) return "[]";
            if (lo == kWitnessViolated) return "order violated";
            return "[" + std::to_string(lo) + ".." + std::to_string(hi) + "]";
        case Op::ArgMax:
            if (hi == 0xffffffffu) return "-inf @ none";
            return number(numeric_value(op, type, bits)) + " @ " + std::to_string(hi);
        case Op::SumCount:
            return number(numeric_value(op, type, bits)) + " / " + std::to_string(hi);
        default: return number(numeric_value(op, type, bits));
    }
}

std::string format_flags(uint8_t flags) {
    static constexpr std::array<std::string_view, 7> names{"undefined", "identity", "stale", "order-violated",
                                                           "hazard", "identity-combine", "finisher"};
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        if (flags & (1u << i)) {
            if (!out.empty()) out += ',';
            out += names[i];
        }
    return out;
}

std::string describe_step(const Trace& t, KindMask kinds, const Event* first_shuffle, StepLines lines) {
    const std::string words = describe_step(t, kinds, first_shuffle);
    if (t.kernel_file.empty() || lines.lo == 0) return words;
    return std::to_string(lines.lo) + (lines.hi > lines.lo ? "-" + std::to_string(lines.hi) : "") + ": " + words;
}

std::string describe_step(const Trace& t, KindMask kinds, const Event* first_shuffle) {
    // A student's kernel has no schedule: its rows say which of its calls the events are, not the lab's stages.
    const bool own = !t.kernel_file.empty();
    auto pick = [own](const char* schedule, const char* student) { return std::string(own ? student : schedule); };
    auto has = [&](EventKind k) { return ((kinds >> unsigned(k)) & 1u) != 0; };
    if (first_shuffle) {
        const char* name = own ? "shuffle" : t.schedule.effective_warp() == WarpStage::ShflXor ? "shfl_xor" : "shfl_down";
        return std::string(name) + (own ? " " : " offset ") + std::to_string(first_shuffle->shuffle_offset());
    }
    if (has(EventKind::Load)) return pick("load, accumulate", "load in[]");
    if (has(EventKind::PartialLoad)) return pick("load block partials", "load partials");
    if (has(EventKind::Combine) && has(EventKind::SharedLoad)) return pick("shared-memory level", "combine shared");
    if (has(EventKind::SharedLoad)) return pick("load warp partials", "shared load");
    if (has(EventKind::SharedStore)) return pick("store to shared", "shared store");
    if (has(EventKind::Barrier)) return "__syncthreads()";
    if (has(EventKind::WarpSync)) return "__syncwarp()";
    if (has(EventKind::Atomic)) return "atomic";
    if (has(EventKind::BlockPartial)) return pick("block partial out", "store out[]");
    if (has(EventKind::Ticket)) return has(EventKind::Fence) ? "__threadfence(), ticket" : pick("last-block ticket", "ticket");
    if (has(EventKind::Fence)) return "__threadfence()";
    if (has(EventKind::GridSync)) return "grid.sync()";
    if (has(EventKind::FinalStore)) return pick("final store", "store out[]");
    if (has(EventKind::IdentityFill)) return pick("identity fill", "constant");
    if (has(EventKind::Combine)) return "combine";
    if (has(EventKind::Exit)) return "exit";
    return "";
}

std::string describe_step(const Trace& t, uint16_t step) {
    KindMask kinds = 0;
    const Event* shuffle = nullptr;
    StepLines lines;
    for (size_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        if (e.step != step) continue;
        kinds |= 1u << unsigned(e.kind);
        lines.add(t, i);
        if (e.kind == EventKind::Shuffle && !shuffle) shuffle = &e;
    }
    return describe_step(t, kinds, shuffle, lines);
}

std::vector<uint8_t> used_values(const Trace& t) {
    std::vector<uint8_t> used(t.events.size(), 0);
    for (const Event& e : t.events)
        for (uint32_t d : e.dep)
            if (d < used.size()) used[d] = 1;
    return used;
}

bool holds_thread_value(EventKind k) {
    return k == EventKind::Load || k == EventKind::Combine || k == EventKind::IdentityFill || k == EventKind::SharedLoad ||
           k == EventKind::PartialLoad || k == EventKind::FinalStore || k == EventKind::Atomic;
}

std::string buffer_name(uint32_t buffer) {
    switch (buffer) {
        case 0: return "in";
        case 1: return "out";
        case 2: return "tmp";
        default: return "buffer " + std::to_string(buffer);
    }
}

uint32_t atomic_element(const Trace& t, uint32_t event) {
    auto it = std::lower_bound(t.wide_atomic_elements.begin(), t.wide_atomic_elements.end(), std::pair(event, 0u));
    if (it != t.wide_atomic_elements.end() && it->first == event) return it->second;
    return event < t.events.size() ? t.events[event].detail & kDetailAtomicElement : 0;
}

std::string buffers_problem(const Trace& t) {
    const auto& sizes = t.buffer_elements;
    if (sizes.size() > kMaxTraceBuffers)
        return "the trace lists " + std::to_string(sizes.size()) + " buffers, at most " + std::to_string(kMaxTraceBuffers);
    if (t.launches.empty() && !(sizes.empty() && t.wide_atomic_elements.empty()))
        return "buffers and wide atomic elements belong to a plain CUDA run, and the trace has no launches";
    for (size_t b = 0; b < sizes.size(); ++b)
        if (sizes[b] > (1ull << 30))  // a run's buffers hold at most 1 GiB (student::PlainSession)
            return buffer_name(uint32_t(b)) + " has " + std::to_string(sizes[b]) + " elements, more than 2^30";
    uint32_t prev = kNoEvent;
    for (const auto& [event, element] : t.wide_atomic_elements) {
        const std::string which = "the wide atomic element of event " + std::to_string(event);
        if (prev != kNoEvent && event <= prev) return which + " is out of order (events increase)";
        prev = event;
        if (event >= t.events.size()) return which + ": the trace has " + std::to_string(t.events.size()) + " events";
        const Event& e = t.events[event];
        if (e.kind != EventKind::Atomic) return which + ": that event is no atomic";
        if (element <= kDetailAtomicElement || (element & kDetailAtomicElement) != (e.detail & kDetailAtomicElement))
            return which + " (" + std::to_string(element) + ") does not match its detail bits (" +
                   std::to_string(e.detail & kDetailAtomicElement) + ", the element modulo 8192)";
    }
    if (sizes.empty()) return "";
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        uint64_t element = 0;
        bool outside = false;
        switch (e.kind) {
            case EventKind::PartialLoad: element = e.aux, outside = (e.detail & kDetailOutside) != 0; break;
            case EventKind::BlockPartial: case EventKind::FinalStore: element = e.aux; break;
            case EventKind::Atomic: element = atomic_element(t, i); break;
            default: continue;
        }
        const uint32_t b = event_buffer(e);
        if (b >= sizes.size()) continue;  // a buffer whose size the runner did not give
        if (!outside && element >= sizes[b])
            return "event " + std::to_string(i) + " uses " + buffer_name(b) + "[" + std::to_string(element) + "], outside its " +
                   std::to_string(sizes[b]) + " elements";
        if (outside && element < sizes[b])
            return "event " + std::to_string(i) + " is marked outside " + buffer_name(b) + ", and element " + std::to_string(element) +
                   " lies inside its " + std::to_string(sizes[b]) + " elements";
    }
    return "";
}

std::string launches_problem(const std::vector<LaunchScope>& launches) {
    if (launches.size() > kMaxLaunches)
        return std::to_string(launches.size()) + " launches, at most " + std::to_string(kMaxLaunches) + " are allowed";
    uint64_t next = 0;
    for (size_t k = 0; k < launches.size(); ++k) {
        const LaunchScope& l = launches[k];
        const std::string which = "launch " + std::to_string(k + 1) + " (" + l.kernel + ")";
        if (l.kernel.size() > 256)
            return "launch " + std::to_string(k + 1) + ": the kernel's name has " + std::to_string(l.kernel.size()) +
                   " bytes, at most 256";
        if (l.grid < 1 || l.grid > limits::kGridBlocks)
            return which + ": grid " + std::to_string(l.grid) + ", expected 1 to " + std::to_string(limits::kGridBlocks) + " blocks";
        if (l.block < 1 || l.block > limits::kBlockThreads)
            return which + ": block " + std::to_string(l.block) + ", expected 1 to " + std::to_string(limits::kBlockThreads) + " threads";
        if (l.first_block != next)
            return which + ": first_block " + std::to_string(l.first_block) + ", expected " + std::to_string(next) +
                   " (the blocks of the launches before it)";
        next += l.grid;
        if (next > 0xfffffffeull) return which + ": the launches have more than 4294967294 blocks in all";
    }
    return "";
}

size_t launch_of_block(const Trace& t, uint32_t block) {
    if (t.launches.empty()) return 0;
    auto it = std::upper_bound(t.launches.begin(), t.launches.end(), block,
                               [](uint32_t b, const LaunchScope& l) { return b < l.first_block; });
    return it == t.launches.begin() ? 0 : size_t(it - t.launches.begin()) - 1;
}

uint64_t launch_blocks(const Trace& t) {
    if (t.launches.empty()) return t.grid;
    return uint64_t(t.launches.back().first_block) + t.launches.back().grid;
}

std::string block_name(const Trace& t, uint32_t block) {
    if (t.launches.size() <= 1) return "block " + std::to_string(block);  // one launch: its blocks are the trace's
    const size_t k = launch_of_block(t, block);
    return "launch " + std::to_string(k + 1) + ", block " + std::to_string(block - t.launches[k].first_block);
}

std::string block_label(const Trace& t, uint32_t block) {
    if (t.launches.size() <= 1) return "block " + std::to_string(block);
    const size_t k = launch_of_block(t, block);
    return "launch " + std::to_string(k + 1) + " · block " + std::to_string(block - t.launches[k].first_block);
}

std::string lane_ranges(uint32_t mask) {
    std::string out;
    for (int l = 0; l < 32;) {
        if (!(mask >> l & 1u)) { ++l; continue; }
        int r = l;
        while (r + 1 < 32 && (mask >> (r + 1) & 1u)) ++r;
        if (!out.empty()) out += ", ";
        out += r == l ? std::to_string(l) : std::to_string(l) + "-" + std::to_string(r);
        l = r + 1;
    }
    return out.empty() ? "none" : out;
}

std::string place_text(const Trace& t, uint32_t block, uint32_t warp, uint32_t lanes) {
    return block_name(t, block) + ", warp " + std::to_string(warp) + (std::popcount(lanes) == 1 ? ", lane " : ", lanes ") +
           lane_ranges(lanes);
}

}  // namespace rl
