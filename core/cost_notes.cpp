// core/cost_notes.cpp — the words and the JSON of a CostReport: what each number is, said once, calmly.
#include "core/cost_notes.h"

#include <cstdio>

namespace rl {
namespace {

std::string count(uint64_t v) {  // 12,345
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

std::string percent(uint64_t part, uint64_t whole) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.0f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return buf;
}

}  // namespace

std::vector<std::string> cost_note_lines(const CostReport& c) {
    std::vector<std::string> out;
    if (c.shared_accesses) {
        std::string s = "note: bank conflicts: ";
        if (c.conflicted == 0) {
            s += "none; each of the " + count(c.shared_accesses) + " shared-memory accesses by a warp is served in one pass";
        } else {
            s += count(c.conflicted) + " of " + count(c.shared_accesses) + " shared-memory accesses by a warp put several words in one bank, up to " +
                 std::to_string(c.max_degree) + "-way" + (c.has_lines && c.worst_line ? " at line " + std::to_string(c.worst_line) : std::string()) +
                 ": " + count(c.passes) + " passes where " + count(c.shared_accesses) + " would do";
        }
        s += " (32 banks of 4 bytes; a slot is " + std::to_string(c.slot_bytes) + " bytes)";
        out.push_back(s);
    }
    {
        std::string s = "note: divergence: ";
        if (c.divergent_warp_steps == 0) {
            s += "none; on every step the live lanes of a warp record at the same lines";
        } else {
            s += "warps split on " + count(c.divergent_warp_steps) + " warp-steps (some live lanes record at a line, others of the warp do not)";
            if (c.has_lines) {
                std::string by;
                int shown = 0;
                for (const LineCost& l : c.lines) {
                    if (!l.divergent_warp_steps) continue;
                    if (++shown > 6) {
                        by += ", ...";
                        break;
                    }
                    by += (by.empty() ? "" : ", ") + std::string("line ") + std::to_string(l.line) + ": " + count(l.divergent_warp_steps);
                }
                s += "; " + by;
            }
        }
        out.push_back(s);
    }
    if (c.lane_steps) {
        const uint64_t idle = c.lane_steps - c.active_lane_steps, waiting = c.live_lane_steps - c.active_lane_steps;
        out.push_back("note: idle lanes: " + count(idle) + " of " + count(c.lane_steps) + " lane-steps (" + percent(idle, c.lane_steps) +
                      ") record nothing: " + count(waiting) + " alive but waiting or on the other side of a branch, " +
                      count(idle - waiting) + " finished or never launched");
    }
    return out;
}

nlohmann::json costs_json(const CostReport& c) {
    using nlohmann::json;
    json lines = json::array();
    for (const LineCost& l : c.lines)
        lines.push_back({{"line", l.line}, {"accesses", l.accesses}, {"conflicted", l.conflicted}, {"passes", l.passes},
                         {"max_degree", l.max_degree}, {"divergent_warp_steps", l.divergent_warp_steps}});
    json steps = json::array();
    for (size_t s = 0; s < c.steps.size(); ++s) {
        const StepCosts& k = c.steps[s];
        steps.push_back({{"step", s}, {"accesses", k.accesses}, {"conflicted", k.conflicted}, {"max_degree", k.max_degree},
                         {"worst_line", k.worst_line}, {"divergent_warps", k.divergent_warps}, {"lanes", k.lanes},
                         {"live", k.live}, {"active", k.active}, {"idle", k.idle()}});
    }
    return {{"banks", kSharedBanks},
            {"bank_bytes", kBankWordBytes},
            {"slot_bytes", c.slot_bytes},
            {"has_lines", c.has_lines},
            {"shared", {{"accesses", c.shared_accesses}, {"conflicted", c.conflicted}, {"passes", c.passes},
                        {"max_degree", c.max_degree}, {"worst_line", c.worst_line}}},
            {"divergent_warp_steps", c.divergent_warp_steps},
            {"lane_steps", c.lane_steps},
            {"live_lane_steps", c.live_lane_steps},
            {"active_lane_steps", c.active_lane_steps},
            {"idle_lane_steps", c.lane_steps - c.active_lane_steps},
            {"lines", lines},
            {"steps", steps}};
}

}  // namespace rl
