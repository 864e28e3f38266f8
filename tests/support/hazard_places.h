// tests/support/hazard_places.h — where a trace's hazards are, in words that two traces of one schedule share
// (a GPU trace and the emulator's), so that a test compares places rather than kinds or counts.
#pragma once
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include "core/trace.h"

namespace rl::test {

// One hazard's place: its kind, the kind and logical step of the event it names, the block (the finishing
// stage marked), the warp and the lanes. Not the event's index: a GPU trace lists each thread's events in
// its own slots, so the index of one event differs between the GPU's trace and the emulator's.
inline std::string hazard_place(const Trace& t, const Hazard& h) {
    std::string at = "event " + std::to_string(h.event) + " (not in the trace)";
    if (h.event < t.events.size()) {
        const Event& e = t.events[h.event];
        at = std::string(to_string(e.kind)) + " at step " + std::to_string(e.step) + ((e.flags & kFinisher) ? " (finish)" : "");
    }
    char lanes[16];
    std::snprintf(lanes, sizeof lanes, "0x%08x", h.lanes);
    return std::string(to_string(h.kind)) + " on " + at + ", block " + std::to_string(h.block) + " warp " +
           std::to_string(h.warp) + " lanes " + lanes;
}

// The places of `hazards` (found on `t`), sorted, each kept once per hazard, as one line each.
inline std::string hazard_places(const Trace& t, const std::vector<Hazard>& hazards) {
    std::vector<std::string> p;
    for (const Hazard& h : hazards) p.push_back(hazard_place(t, h));
    std::sort(p.begin(), p.end());
    std::string out;
    for (const std::string& s : p) out += s + "\n";
    return out;
}
inline std::string hazard_places(const Trace& t) { return hazard_places(t, t.hazards); }

// The places of the hazards of kind k only.
inline std::string hazard_places(const Trace& t, const std::vector<Hazard>& hazards, HazardKind k) {
    std::vector<Hazard> of_kind;
    for (const Hazard& h : hazards)
        if (h.kind == k) of_kind.push_back(h);
    return hazard_places(t, of_kind);
}
inline std::string hazard_places(const Trace& t, HazardKind k) { return hazard_places(t, t.hazards, k); }

}  // namespace rl::test
