// app/imgui/panel_depth.cpp — serial chain vs ideal tree vs this schedule's span, per scope, as bars and numbers.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <cmath>
#include "app/imgui/panels.h"

namespace rl::lab {
namespace {

// Okabe–Ito colours for the four scopes (thread, warp, block, grid).
const ImU32 kScope[4] = {IM_COL32(86, 180, 233, 255), IM_COL32(0, 158, 115, 255), IM_COL32(204, 121, 167, 255),
                         IM_COL32(230, 159, 0, 255)};

}  // namespace

void depth_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("Depth: how many steps one after another", r)) return ImGui::End();
    if (!s.analysis_ready) {
        ImGui::TextDisabled("measuring work and span of %zu events...", s.trace.events.size());
        ImGui::End();
        return;
    }
    const Analysis& a = s.analysis;
    const double serial = double(a.serial_depth), tree = double(a.tree_depth), span = double(a.span);
    const bool log_scale = serial > 64.0;
    const auto scale = [&](double v) {
        const double top = std::max({serial, span, 1.0});
        return log_scale ? std::log10(1.0 + v) / std::log10(1.0 + top) : v / top;
    };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float label_w = fs * 6.5f, num_w = fs * 4.5f;
    const float bar_w = std::max(20.0f, ImGui::GetContentRegionAvail().x - label_w - num_w);
    const float bar_h = fs * 1.1f;
    const ImU32 grey = IM_COL32(150, 156, 166, 255), text = ImGui::GetColorU32(ImGuiCol_Text);
    auto row = [&](const char* label, double value, bool stacked) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddText(ImVec2(p.x, p.y + bar_h * 0.05f), text, label);
        const float x0 = p.x + label_w;
        const float w = float(scale(value)) * bar_w;
        if (!stacked) {
            dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x0 + std::max(w, 2.0f), p.y + bar_h), grey, 3.0f);
        } else {
            // Per-scope segments of this schedule's critical path, in proportion to their combines.
            float x = x0;
            for (int k = 0; k < 4; ++k) {
                const float seg = span > 0 ? w * float(a.span_by_scope[k] / span) : 0.0f;
                if (seg <= 0) continue;
                dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + seg, p.y + bar_h), kScope[k]);
                x += seg;
            }
        }
        char num[32];
        snprintf(num, sizeof num, "%.0f", value);
        dl->AddText(ImVec2(x0 + std::max(w, 2.0f) + fs * 0.4f, p.y + bar_h * 0.05f), text, num);
        ImGui::Dummy(ImVec2(label_w + bar_w + num_w, bar_h + fs * 0.35f));
    };
    row("serial chain", serial, false);
    row("ideal tree", tree, false);
    row("this schedule", span, true);
    ImGui::TextDisabled("n = %llu%s", (unsigned long long)s.schedule.n, log_scale ? "   (bars on a log scale)" : "");
    // Legend with per-scope numbers: combines on the critical path / all combines of that scope.
    for (int k = 0; k < 4; ++k) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(ImVec2(p.x, p.y + fs * 0.2f), ImVec2(p.x + fs * 0.8f, p.y + fs), kScope[k], 2.0f);
        ImGui::Dummy(ImVec2(fs, fs));
        ImGui::SameLine();
        ImGui::Text("%-6s depth %u   combines %llu", std::string(to_string(Scope(k))).c_str(), a.span_by_scope[k], (unsigned long long)a.work_by_scope[k]);
    }
    ImGui::Separator();
    ImGui::Text("work %llu combines (serial: %llu)", (unsigned long long)a.work, (unsigned long long)a.serial_depth);
    if (a.identity_combines) ImGui::TextDisabled("+ %llu with the identity", (unsigned long long)a.identity_combines);
    if (a.redundant_combines) ImGui::TextDisabled("+ %llu never reach the result", (unsigned long long)a.redundant_combines);
    const Trace& t = s.trace;
    ImGui::Text("result %s", format_value(t.schedule.op, t.schedule.type, t.result_value, t.result_flags).c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("reference %s", format_value(t.schedule.op, t.schedule.type, t.reference_value).c_str());
    // A run with hazards is never shown in the all-clear colour, even when its value happens to be exact.
    const bool bad = a.verdict == Verdict::Wrong || a.verdict == Verdict::Undefined || a.verdict == Verdict::OrderViolated ||
                     !t.hazards.empty();
    ImGui::TextColored(bad ? ImVec4(0.96f, 0.45f, 0.2f, 1) : ImVec4(0.0f, 0.75f, 0.55f, 1), "verdict: %s%s",
                       std::string(to_string(a.verdict)).c_str(),
                       t.hazards.empty() ? "" : ("   " + std::to_string(t.hazards.size()) + " hazard(s)").c_str());
    if (!t.notes.empty()) {  // cost findings: beside the verdict, in a calm colour, never as a failure
        ImGui::SameLine();
        ImGui::TextColored(kNote, "   %zu note(s) about cost", t.notes.size());
    }
    ImGui::End();
}

}  // namespace rl::lab
