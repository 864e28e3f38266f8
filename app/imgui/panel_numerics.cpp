// app/imgui/panel_numerics.cpp — the numerics comparison of the shown schedule (core/numerics.h), over the canvas:
// every order's result bits, error in ULPs, guaranteed bound and whether it stayed within it.
#include <imgui.h>

#include "app/imgui/panels.h"

namespace rl::lab {

void numerics_panel(LabState& s, const Rect& r) {
    ImGui::SetNextWindowBgAlpha(1.0f);  // opaque over the canvas
    if (!begin_fixed("Numerics: one input, many orders (N closes)", r)) return ImGui::End();
    NumericsState& n = s.numerics;
    n.update(s.schedule);
    if (!n.unsupported.empty()) {
        ImGui::TextWrapped("No numerics comparison for this schedule: %s", n.unsupported.c_str());
        ImGui::End();
        return;
    }
    if (!n.error.empty()) {
        ImGui::TextWrapped("The comparison failed: %s", n.error.c_str());
        ImGui::End();
        return;
    }
    if (n.waiting) {
        ImGui::TextWrapped("n = %llu: the comparison runs the schedule about twenty times in the emulator.",
                           static_cast<unsigned long long>(s.schedule.n));
        if (ImGui::Button("Compare now")) n.update(s.schedule, true);
        ImGui::End();
        return;
    }
    if (n.computing) {
        ImGui::TextWrapped("Comparing the orders of n = %llu (the schedule runs about twenty times in the emulator)...",
                           static_cast<unsigned long long>(s.schedule.n));
        ImGui::End();
        return;
    }
    ImGui::TextWrapped("%s", n.table.summary.c_str());
    const render::NumericsTable& t = n.table;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX;
    if (ImGui::BeginTable("numerics", int(t.header.size()), flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        for (const std::string& h : t.header) ImGui::TableSetupColumn(h.c_str());
        ImGui::TableHeadersRow();
        const ImU32 chosen_bg = s.dark ? IM_COL32(0, 90, 140, 255) : IM_COL32(190, 225, 250, 255);
        const ImU32 bad_bg = IM_COL32(213, 94, 0, 255);
        for (const render::NumericsCellRow& row : t.rows) {
            ImGui::TableNextRow();
            if (row.chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, chosen_bg);
            for (size_t c = 0; c < row.cells.size(); ++c) {
                ImGui::TableSetColumnIndex(int(c));
                if (c == 6 && !row.within_bound) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, bad_bg);
                ImGui::TextUnformatted(row.cells[c].c_str());
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.tooltip.c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

}  // namespace rl::lab
