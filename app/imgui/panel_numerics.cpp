// app/imgui/panel_numerics.cpp — the numerics comparison of the shown schedule (core/numerics.h), over the canvas:
// every order's result bits, error in ULPs, guaranteed bound and whether it stayed within it. What it draws is written
// down in s.drawn.numerics as it is drawn (--dump-scene).
#include <imgui.h>

#include <string>

#include "app/imgui/panels.h"

namespace rl::lab {

void numerics_panel(LabState& s, const Rect& r) {
    ImGui::SetNextWindowBgAlpha(1.0f);  // opaque over the canvas
    if (!begin_fixed("Numerics: one input, many orders (N closes)", r)) return ImGui::End();
    render::DrawnNumerics& drawn = s.drawn.numerics.emplace();
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    drawn.window = {at.x, at.y, at.x + size.x, at.y + size.y};
    auto say = [&](const std::string& line) {  // the line above the table, or the one shown instead of it
        ImGui::TextWrapped("%s", line.c_str());
        drawn.summary = line;
    };
    NumericsState& n = s.numerics;
    n.update(s.schedule);
    if (!n.unsupported.empty()) {
        say("No numerics comparison for this schedule: " + n.unsupported);
        ImGui::End();
        return;
    }
    if (!n.error.empty()) {
        say("The comparison failed: " + n.error);
        ImGui::End();
        return;
    }
    if (n.waiting) {
        say("n = " + std::to_string(s.schedule.n) +
            ": the comparison runs the schedule about twenty times in the emulator.");
        if (ImGui::Button("Compare now")) n.update(s.schedule, true);
        ImGui::End();
        return;
    }
    if (n.computing) {
        say("Comparing the orders of n = " + std::to_string(s.schedule.n) +
            " (the schedule runs about twenty times in the emulator)...");
        ImGui::End();
        return;
    }
    say(n.table.summary);
    const render::NumericsTable& t = n.table;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX;
    if (ImGui::BeginTable("numerics", int(t.header.size()), flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        for (const std::string& h : t.header) ImGui::TableSetupColumn(h.c_str());
        ImGui::TableHeadersRow();
        drawn.header = t.header;
        const ImU32 chosen_bg = s.dark ? IM_COL32(0, 90, 140, 255) : IM_COL32(190, 225, 250, 255);
        const ImU32 bad_bg = IM_COL32(213, 94, 0, 255);
        for (const render::NumericsCellRow& row : t.rows) {
            ImGui::TableNextRow();
            render::DrawnRow& rec = drawn.rows.emplace_back();
            if (row.chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, chosen_bg);
            rec.chosen = row.chosen;
            for (size_t c = 0; c < row.cells.size(); ++c) {
                ImGui::TableSetColumnIndex(int(c));
                if (c == 6 && !row.within_bound) {
                    ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, bad_bg);
                    rec.outside_bound = true;
                }
                ImGui::TextUnformatted(row.cells[c].c_str());
                rec.cells.push_back(row.cells[c]);
                if (c == 0) rec.visible = ImGui::IsItemVisible();
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.tooltip.c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

}  // namespace rl::lab
