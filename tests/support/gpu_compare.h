// tests/support/gpu_compare.h — a GPU trace against the emulator's, event for event in canonical order.
#pragma once
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>
#include "core/analysis.h"
#include "core/trace.h"

namespace rl::test {

// The first difference between two traces of one schedule in canonical order (GPU against emulator), or ""
// when every event is equal. The hazard flag is left aside: hazards are judged by the rules, not recorded.
inline std::string first_difference(const std::vector<Event>& a, const std::vector<Event>& b) {
    if (a.size() != b.size())
        return "event count " + std::to_string(a.size()) + " on the GPU, " + std::to_string(b.size()) + " emulated";
    for (size_t i = 0; i < a.size(); ++i) {
        Event x = a[i], y = b[i];
        x.flags &= uint8_t(~kHazard);
        y.flags &= uint8_t(~kHazard);
        if (std::memcmp(&x, &y, sizeof(Event)) != 0) {
            std::ostringstream o;
            o << "event " << i << ": gpu " << to_string(x.kind) << " b" << x.block << " t" << x.thread << " s" << x.step
              << " d" << x.detail << " a" << x.aux << " deps " << x.dep[0] << "," << x.dep[1] << " v" << std::hex << x.value
              << " f" << int(x.flags) << std::dec << " | emu " << to_string(y.kind) << " b" << y.block << " t" << y.thread
              << " s" << y.step << " d" << y.detail << " a" << y.aux << " deps " << y.dep[0] << "," << y.dep[1] << " v"
              << std::hex << y.value << " f" << int(y.flags);
            return o.str();
        }
    }
    return "";
}
inline std::string first_difference(const Trace& gpu, const Trace& emu) {
    return first_difference(canonical_events(gpu), canonical_events(emu));
}
inline bool same_events(const Trace& gpu, const Trace& emu) { return first_difference(gpu, emu).empty(); }

}  // namespace rl::test
