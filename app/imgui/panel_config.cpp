// app/imgui/panel_config.cpp — every schedule knob, operator, type, input and bug; a change re-runs at once.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "app/imgui/panels.h"
#include "core/emulator.h"

namespace rl::lab {
namespace {

std::vector<std::string> split_names(std::string all) {
    if (auto p = all.find(" ("); p != std::string::npos) all.resize(p);
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= all.size()) {
        size_t bar = all.find('|', start);
        if (bar == std::string::npos) bar = all.size();
        if (bar > start) out.push_back(all.substr(start, bar - start));
        start = bar + 1;
    }
    return out;
}

// A combo over one schedule field's names; returns true when the schedule changed.
bool field_combo(const char* label, const char* field, std::string_view current, Schedule& s, std::string& error) {
    bool changed = false;
    const std::string cur(current);
    if (ImGui::BeginCombo(label, cur.c_str())) {
        for (const std::string& name : split_names(allowed_values(field))) {
            if (ImGui::Selectable(name.c_str(), name == cur) && name != cur) {
                Schedule next = s;
                if (std::string err = set_field(next, field, name); err.empty()) {
                    s = next;
                    changed = true;
                } else {
                    error = err;
                }
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

bool number_field(const char* label, uint64_t& v, uint64_t lo, uint64_t hi) {
    uint64_t tmp = v;
    const uint64_t step = 1, fast = 32;
    if (ImGui::InputScalar(label, ImGuiDataType_U64, &tmp, &step, &fast, "%llu", ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit())) {
        tmp = std::clamp(tmp, lo, hi);
        if (tmp != v) {
            v = tmp;
            return true;
        }
    }
    return false;
}

void section(const char* title) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", title);
    ImGui::Separator();
}

}  // namespace

void config_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("Configuration", r)) return ImGui::End();
    // The backend in use is always in view.
    ImGui::TextDisabled("Backend");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.34f, 0.71f, 0.91f, 1.0f), "%s", s.backend_line().c_str());
    const GpuStatus& gpu = gpu_status();
    if (!gpu.usable && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", gpu.reason.c_str());
    Schedule next = s.schedule;
    bool changed = false;
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 6.5f);
    {
        const char* names[] = {"auto", "cpu", "cuda"};
        int b = int(s.backend);
        if (ImGui::Combo("backend", &b, names, 3)) {
            s.backend = BackendChoice(b);
            changed = true;
        }
    }
    section("Sizes");
    uint64_t n = next.n, block = next.block, grid = next.grid, items = next.items, seed = next.input.seed;
    if (number_field("n", n, 1, 0xffffffffull)) next.n = n, changed = true;
    if (number_field("block", block, 1, 1024)) next.block = uint32_t(block), changed = true;
    if (number_field("grid (0 auto)", grid, 0, 0x7fffffff)) next.grid = uint32_t(grid), changed = true;
    if (number_field("items", items, 1, 1u << 20)) next.items = uint32_t(items), changed = true;
    section("Stages");
    changed |= field_combo("assign", "assign", to_string(next.assign), next, s.error);
    changed |= field_combo("warp", "warp", to_string(next.warp), next, s.error);
    changed |= field_combo("block stage", "block-stage", to_string(next.block_stage), next, s.error);
    changed |= field_combo("grid stage", "grid-stage", to_string(next.grid_stage), next, s.error);
    section("Operator and data");
    changed |= field_combo("operator", "op", to_string(next.op), next, s.error);
    changed |= field_combo("type", "type", to_string(next.type), next, s.error);
    const std::string input_name = next.input.kind == InputKind::Values ? "values" : std::string(to_string(next.input.kind));
    if (ImGui::BeginCombo("input", input_name.c_str())) {
        for (const std::string& name : split_names(allowed_values("input"))) {
            if (ImGui::Selectable(name.c_str(), name == input_name) && name != input_name)
                changed |= set_field(next, "input", name).empty();
        }
        if (ImGui::Selectable("values", input_name == "values") && input_name != "values") {
            std::string list;
            for (uint64_t i = 0; i < std::min<uint64_t>(next.n, 16); ++i) list += (i ? "," : "") + std::to_string(i + 1);
            changed |= set_field(next, "input", list).empty();
        }
        ImGui::EndCombo();
    }
    if (next.input.kind == InputKind::Values) {
        static char buf[1024];
        static const void* owner = nullptr;
        if (owner != &s || !ImGui::IsAnyItemActive()) {
            std::string list;
            for (size_t i = 0; i < next.input.values.size() && list.size() < 900; ++i) {
                char v[32];
                snprintf(v, sizeof v, "%s%g", i ? "," : "", next.input.values[i]);
                list += v;
            }
            std::snprintf(buf, sizeof buf, "%s", list.c_str());
            owner = &s;
        }
        if (ImGui::InputText("values", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) {
            Schedule tmp = next;
            if (std::string err = set_field(tmp, "input", buf); err.empty()) {
                tmp.n = tmp.input.values.size();
                next = tmp;
                changed = true;
            } else {
                s.error = err;
            }
        }
    } else if (number_field("seed", seed, 0, ~0ull)) {
        next.input.seed = seed;
        changed = true;
    }
    ImGui::PopItemWidth();
    section("Bugs to inject");
    for (int i = 0; i < kBugCount; ++i) {
        const Bug b = Bug(1u << i);
        bool on = next.has(b);
        const std::string name(to_string(b));
        if (ImGui::Checkbox(name.c_str(), &on)) {
            next.bugs = on ? uint16_t(next.bugs | uint16_t(b)) : uint16_t(next.bugs & ~uint16_t(b));
            changed = true;
        }
    }
    if (changed) {
        const Schedule old = s.schedule;
        s.schedule = next;
        if (!s.rerun()) s.schedule = old;
    }
    if (!s.error.empty()) {
        ImGui::Separator();
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.96f, 0.45f, 0.2f, 1.0f));
        ImGui::TextWrapped("%s", s.error.c_str());
        ImGui::PopStyleColor();
    }
    if (!s.backend_note.empty()) ImGui::TextWrapped("%s", s.backend_note.c_str());
    ImGui::TextDisabled("%zu events, run in %.0f ms", s.trace.events.size(), s.run_ms);
    ImGui::Separator();
    kernel_opener(s);
    ImGui::End();
}

}  // namespace rl::lab
