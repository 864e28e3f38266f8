// app/imgui/panel_details.cpp — the current step's costs, then the clicked event: kind, position, operands, value, flags, time, cone, hazards, notes.
#include <imgui.h>

#include "app/imgui/panels.h"
#include "app/lab/source_view.h"
#include "app/lab/step_costs.h"

namespace rl::lab {
namespace {

std::string where(const Trace& t, const Event& e) {
    std::string b = !t.launches.empty() ? block_name(t, e.block)
                    : e.block == t.grid && t.finisher_block == t.grid ? "second launch" : "block " + std::to_string(e.block);
    return b + ", warp " + std::to_string(e.warp()) + ", lane " + std::to_string(e.lane()) + " (thread " +
           std::to_string(e.thread) + "), step " + std::to_string(e.step);
}

}  // namespace

// The current step's costs (docs/costs.md), read from the report computed once per trace.
static void step_costs(const LabState& s) {
    const std::vector<std::string> lines = step_cost_lines(s.costs, s.cursor.step);
    if (lines.empty()) return;
    ImGui::TextDisabled("step %d costs", s.cursor.step);
    const bool conflict = s.costs.steps[size_t(s.cursor.step)].max_degree > 1;  // calm: a cost, not a hazard
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i == 0 && conflict) ImGui::PushStyleColor(ImGuiCol_Text, kNote);
        ImGui::TextWrapped("%s", lines[i].c_str());
        if (i == 0 && conflict) ImGui::PopStyleColor();
    }
    ImGui::Separator();
}

void details_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("Event", r)) return ImGui::End();
    step_costs(s);
    const Trace& t = s.trace;
    if (s.selected == kNoEvent || s.selected >= t.events.size()) {
        ImGui::TextWrapped("Click a box to see its event and the dependency cone: every input that flows into it.");
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("Keys: space play/pause, arrows step, Home/End, H next hazard, F fit, wheel zoom, drag pan, "
                           "Ctrl +/- text size, S source, D bug diff, Esc clear, F1 help.%s",
                           s.kernel->active() ? " Your kernel: Ctrl+E edit, Ctrl+S save and run." : "");
        ImGui::PopStyleColor();
        ImGui::End();
        return;
    }
    const Event& e = t.events[s.selected];
    const Op op = t.schedule.op;
    const DType ty = t.schedule.type;
    ImGui::Text("#%u  %s", s.selected, std::string(to_string(e.kind)).c_str());
    ImGui::TextWrapped("%s", where(t, e).c_str());
    ImGui::Text("value  %s", format_value(op, ty, e.value, e.flags).c_str());
    if (e.flags) ImGui::Text("flags  %s", format_flags(e.flags).c_str());
    if (e.kind == EventKind::Shuffle)
        ImGui::Text("offset %u from lane %u, mask 0x%08x", e.shuffle_offset(), e.source_lane(), e.aux);
    if (e.kind == EventKind::Load) ImGui::Text("element %u (item %u)", e.aux, e.detail);
    if (e.kind == EventKind::SharedStore || e.kind == EventKind::SharedLoad) ImGui::Text("shared slot %u", e.detail);
    for (int k = 0; k < 2; ++k) {
        if (e.dep[k] == kNoEvent) continue;
        const Event& d = t.events[e.dep[k]];
        ImGui::PushID(k);
        if (ImGui::SmallButton("go")) s.select(e.dep[k]), line_of_selection(s);
        ImGui::PopID();
        ImGui::SameLine();
        ImGui::TextWrapped("operand %d: #%u %s = %s (lane %u, step %u)", k, e.dep[k], std::string(to_string(d.kind)).c_str(),
                           format_value(op, ty, d.value, d.flags).c_str(), d.thread, d.step);
    }
    if (!t.times.empty() && s.selected < t.times.size()) {
        const EventTime& tm = t.times[s.selected];
        ImGui::Text("time   %llu ns (globaltimer), clock %llu, SM %u", (unsigned long long)tm.globaltimer_ns,
                    (unsigned long long)tm.clock, tm.sm);
    } else {
        ImGui::TextDisabled("time   (emulator trace: no timestamps)");
    }
    ImGui::Text("cone   %llu events flow into this value", (unsigned long long)s.cone_size);
    for (const Hazard& h : t.hazards) {
        if (h.event != s.selected) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.94f, 0.89f, 0.26f, 1.0f));
        ImGui::TextWrapped("[%s] %s", std::string(to_string(h.kind)).c_str(), h.what.c_str());
        ImGui::PopStyleColor();
        ImGui::TextDisabled("rule:");
        ImGui::SameLine();
        ImGui::TextWrapped("%s", std::string(rule_of(h.kind)).c_str());
    }
    for (const Hazard& h : t.notes) {  // cost, not correctness: calm, and named a note
        if (h.event != s.selected) continue;
        ImGui::PushStyleColor(ImGuiCol_Text, kNote);
        ImGui::TextWrapped("note (%s): %s", std::string(to_string(h.kind)).c_str(), h.what.c_str());
        ImGui::PopStyleColor();
        ImGui::TextDisabled("%s", std::string(rule_of(h.kind)).c_str());
    }
    ImGui::End();
}

}  // namespace rl::lab
