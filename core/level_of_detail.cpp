// core/level_of_detail.cpp — checks and words a trace's level-of-detail summary (core/level_of_detail.h).
#include "core/level_of_detail.h"
#include <algorithm>
#include <array>
#include <iterator>
#include "core/trace.h"

namespace rl {

static_assert(sizeof(SummarisedBlocks::kinds) / sizeof(uint64_t) == kEventKindCount, "one count per event kind");

namespace {

// 70912345 -> "70,912,345"
std::string grouped(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

}  // namespace

bool is_global_memory_kind(EventKind k) {
    return k == EventKind::BlockPartial || k == EventKind::FinalStore || k == EventKind::Atomic || k == EventKind::Ticket ||
           k == EventKind::Fence || k == EventKind::GridSync;
}

bool orders_a_ticket(EventKind k) { return k == EventKind::Barrier || k == EventKind::WarpSync; }

std::string level_of_detail_problem(const Trace& t) {
    const LevelOfDetail& d = t.detail;
    if (!d.active()) {
        if (!d.summarised.empty() || d.events_total != 0) return "level of detail: summarised blocks without a detail window";
        return {};
    }
    if (t.launches.empty()) return "level of detail: only a plain CUDA run (with launches) is summarised";
    const uint64_t blocks = launch_blocks(t);
    auto name = [&](size_t i) {
        const SummarisedBlocks& s = d.summarised[i];
        return "level of detail: summarised range " + std::to_string(i + 1) + " (blocks " + std::to_string(s.first_block) + " + " +
               std::to_string(s.blocks) + ")";
    };
    // A file's counts are any 64-bit numbers: every sum is checked for overflow, so no wrapped sum can pass for a match.
    uint64_t summarised_events = 0, kept = 0, next = 0;
    for (size_t i = 0; i < d.summarised.size(); ++i) {
        const SummarisedBlocks& s = d.summarised[i];
        const std::string which = name(i);
        if (s.blocks == 0 || s.first_block < next || uint64_t(s.first_block) + s.blocks > blocks)
            return which + ": ranges are ascending, not empty, apart and inside the launches' " + std::to_string(blocks) + " blocks";
        if (launch_of_block(t, s.first_block) != launch_of_block(t, s.first_block + s.blocks - 1))
            return which + ": a range lies inside one launch";
        uint64_t sum = 0;
        for (uint64_t k : s.kinds)
            if (__builtin_add_overflow(sum, k, &sum)) return which + ": its counts per kind add up to more than 2^64";
        if (sum != s.events) return which + ": its counts per kind add up to " + std::to_string(sum) + ", not its " + std::to_string(s.events) + " events";
        if (s.kept > s.events) return which + ": it keeps more events than it has";
        if (s.first_step > s.last_step || (s.events && s.last_step >= t.step_count))
            return which + ": its steps " + std::to_string(s.first_step) + ".." + std::to_string(s.last_step) + " are outside the trace's " +
                   std::to_string(t.step_count);
        if (!std::is_sorted(s.lines.begin(), s.lines.end()) || std::adjacent_find(s.lines.begin(), s.lines.end()) != s.lines.end())
            return which + ": its lines are not ascending";
        next = uint64_t(s.first_block) + s.blocks;
        if (__builtin_add_overflow(summarised_events, s.events, &summarised_events))
            return which + ": the summarised events add up to more than 2^64";
        kept += s.kept;  // (at most the trace's events: checked below, range by range)
    }
    // The events the trace holds in each range's blocks: only kinds a summarised block keeps, at most its count of that
    // kind, and as many as the range says it keeps (a range over a block kept in full holds its other events).
    std::vector<std::array<uint64_t, kEventKindCount>> held(d.summarised.size());
    for (const Event& e : t.events) {
        auto r = std::upper_bound(d.summarised.begin(), d.summarised.end(), e.block,
                                  [](uint32_t b, const SummarisedBlocks& s) { return b < s.first_block; });
        if (r == d.summarised.begin() || e.block >= std::prev(r)->first_block + uint64_t(std::prev(r)->blocks)) continue;
        const size_t i = size_t(std::prev(r) - d.summarised.begin());
        if (size_t(e.kind) >= kEventKindCount) continue;  // (the readers refuse an unknown kind themselves)
        if (!is_global_memory_kind(e.kind) && !orders_a_ticket(e.kind))
            return name(i) + ": block " + std::to_string(e.block) + " has a " + std::string(to_string(e.kind)) +
                   " event, which a summarised block never keeps (only global-memory events and their block's barriers)";
        ++held[i][size_t(e.kind)];
    }
    for (size_t i = 0; i < d.summarised.size(); ++i) {
        const SummarisedBlocks& s = d.summarised[i];
        uint64_t n = 0;
        for (int k = 0; k < kEventKindCount; ++k) {
            if (held[i][size_t(k)] > s.kinds[k])
                return name(i) + ": the trace holds " + std::to_string(held[i][size_t(k)]) + " " + std::string(to_string(EventKind(k))) +
                       " events of its blocks, more than its count " + std::to_string(s.kinds[k]);
            n += held[i][size_t(k)];
        }
        if (n != s.kept)
            return name(i) + ": it says it keeps " + std::to_string(s.kept) + " events, but the trace holds " + std::to_string(n) +
                   " of its blocks";
    }
    // kept <= t.events.size() now (each range's kept is events of the trace, the ranges apart).
    uint64_t shown = 0;
    if (__builtin_add_overflow(t.events.size() - kept, summarised_events, &shown) || d.events_total < shown)
        return "level of detail: " + std::to_string(d.events_total) + " events in all, fewer than the kept and the summarised ones";
    return {};
}

std::string level_of_detail_line(const Trace& t) {
    const LevelOfDetail& d = t.detail;
    if (!d.active()) return {};
    uint64_t summarised_blocks = 0, summarised_events = 0, kept = 0;
    for (const SummarisedBlocks& s : d.summarised) {
        summarised_blocks += s.blocks;
        summarised_events += s.events;
        kept += s.kept;
    }
    // The blocks in full, per launch, as ranges: those no summarised range covers.
    std::string full;
    size_t r = 0;
    for (size_t l = 0; l < t.launches.size(); ++l) {
        const LaunchScope& L = t.launches[l];
        std::string ranges;
        uint32_t count = 0;
        auto add = [&](uint32_t a, uint32_t b) {  // launch-relative [a, b)
            if (a >= b) return;
            count += b - a;
            ranges += (ranges.empty() ? "" : ", ") + std::to_string(a) + (b - a > 1 ? "-" + std::to_string(b - 1) : "");
        };
        uint32_t at = 0;
        for (; r < d.summarised.size() && d.summarised[r].first_block < L.first_block + L.grid; ++r) {
            add(at, d.summarised[r].first_block - L.first_block);
            at = d.summarised[r].first_block + d.summarised[r].blocks - L.first_block;
        }
        add(at, L.grid);
        if (count == 0) continue;
        full += (full.empty() ? "" : "; ") + (t.launches.size() > 1 ? "launch " + std::to_string(l + 1) + " " : std::string()) +
                (count == 1 ? "block " : "blocks ") + ranges;
    }
    return "level of detail: " + grouped(d.events_total) + " events in " + grouped(launch_blocks(t)) + " blocks; in full (" +
           grouped(t.events.size() - std::min<uint64_t>(kept, t.events.size())) + " events): " + (full.empty() ? "none" : full) + "; the other " + grouped(summarised_blocks) +
           " blocks as counts (" + grouped(summarised_events) + " events, of them " + grouped(kept) +
           " kept: global memory's events and the barriers ordering them); hazards are found in every block; depth and"
           " cost notes count the kept events only";
}

}  // namespace rl
