// app/imgui/panel_source.cpp — the lab bench's source panel: the schedule's CUDA kernel under the canvas, coloured by
// app/lab/cuda_syntax, the current step's lines lit and kept in view, the bug's lines marked (D: the diff), and a
// click on a line marks its events in the canvas.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/imgui/panels.h"
#include "app/lab/cuda_syntax.h"
#include "app/lab/source_view.h"
#include "app/render/glyph_atlas.h"

namespace rl::lab {

namespace {

ImU32 color(uint32_t rgb) { return IM_COL32((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, 255); }

// The line background: the picked line over the current step over the diff's tint.
uint32_t row_background(const SourceRow& r, const SourceColors& c) {
    if (r.error) return c.error_line;
    if (r.picked) return c.picked_line;
    if (r.step) return c.step_line;
    if (r.op == '-') return c.removed_line;
    if (r.bug) return c.bug_line;
    return c.background;
}

// Keeps `row` in view when what is focused changed (a new step, a click, the diff toggled), not on every frame,
// so the teacher can scroll elsewhere while paused.
void scroll_to(int row, float line_h, uint64_t key) {
    static uint64_t last_key = ~uint64_t(0);
    if (key == last_key || row < 0) return;
    last_key = key;
    // Near an edge counts as out of view: the lines above the lit ones give them their context.
    const float top = float(row) * line_h, view_h = ImGui::GetWindowHeight(), y = ImGui::GetScrollY();
    const float margin = std::min(2.0f * line_h, view_h * 0.25f);
    if (top < y + margin || top + line_h > y + view_h - margin) ImGui::SetScrollY(std::max(0.0f, top - view_h * 0.3f));
}

}  // namespace

ImFont*& source_font() {
    static ImFont* font = nullptr;
    return font;
}

ImFont* add_source_font(float font_scale) {
    static const std::string path = render::mono_font_path();
    if (path.empty()) return nullptr;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), std::round(16.0f * font_scale), nullptr,
                                                    text_glyph_ranges());
}

void source_panel(LabState& s, const Rect& r) {
    const std::string file = s.kernel_editor.file() == s.kernel->file() ? s.kernel_editor.title() : s.kernel->file();
    const std::string title = (s.kernel->active() ? file + " (S hides)" : std::string("CUDA source of this schedule (S hides)")) + "##source";
    if (!begin_fixed(title.c_str(), r, ImGuiWindowFlags_NoScrollbar)) return ImGui::End();
    if (kernel_edit_bar(s)) {  // a student's kernel in edit mode: the editor instead of the lit lines
        kernel_editor_field(s);
        return ImGui::End();
    }
    const bool bug = has_bug_diff(s);
    if (bug) {
        ImGui::Checkbox("diff against the clean kernel (D)", &s.source_diff);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("D: the bug's lines (red, +) beside the clean lines they replace (green, -)");
        ImGui::SameLine();
    }
    ImGui::TextDisabled("lit: this step's lines · click a line: its events in the canvas%s",
                        bug && !s.source_diff ? " · red: the bug's lines" : "");

    const std::vector<SourceRow> rows = source_rows(s);
    const SourceColors& sc = source_colors(s.dark);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, color(sc.background));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
    ImGui::BeginChild("##code", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
    if (source_font()) ImGui::PushFont(source_font());
    const float fpx = ImGui::GetFontSize(), line_h = std::round(fpx * 1.3f), cw = ImGui::CalcTextSize("0").x;
    size_t longest = 0;
    for (const SourceRow& row : rows) longest = std::max(longest, row.text.size());
    const int digits = int(std::to_string(std::max<size_t>(rows.size(), 1)).size());
    const float gutter = cw * float(digits + 3);
    const float width = std::max(ImGui::GetContentRegionAvail().x, gutter + cw * float(longest + 1));
    // Block comments carry across lines: the state at each row's start, for the rows the clipper skips.
    std::vector<char> in_comment(rows.size() + 1, 0);
    for (size_t i = 0; i < rows.size(); ++i) {
        bool b = in_comment[i];
        cuda_tokens(rows[i].text, &b);
        in_comment[i + 1] = b;
    }
    const int focus = focus_row(rows);
    scroll_to(focus, line_h, (uint64_t(s.cursor.step) << 32) ^ (uint64_t(s.source_line) << 1) ^ uint64_t(s.source_diff) ^
                                 (uint64_t(s.trace.events.size()) << 40));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGuiListClipper clip;
    clip.Begin(int(rows.size()), line_h);
    while (clip.Step()) {
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const SourceRow& row = rows[size_t(i)];
            const ImVec2 p = ImGui::GetCursorScreenPos();
            ImGui::PushID(i);
            if (ImGui::InvisibleButton("##line", ImVec2(width, line_h)) && row.line > 0) pick_line(s, row.line);
            if (ImGui::IsItemHovered() && row.line > 0)
                ImGui::SetTooltip("line %d: %zu events; click to mark them in the canvas", row.line,
                                  s.source.events_of_line(row.line).size());
            ImGui::PopID();
            const uint32_t bg = row_background(row, sc);
            if (bg != sc.background) dl->AddRectFilled(p, ImVec2(p.x + width, p.y + line_h), color(bg));
            const float ty = p.y + (line_h - fpx) * 0.5f;
            if (row.line > 0) {
                const std::string num = std::to_string(row.line);
                dl->AddText(ImVec2(p.x + cw * float(digits - int(num.size())), ty), color(sc.line_number), num.c_str());
            }
            if (row.op != ' ') {
                const char op[2] = {row.op, 0};
                dl->AddText(ImVec2(p.x + cw * float(digits + 1), ty), color(row.op == '+' ? sc.bug_mark : sc.text), op);
            } else if (row.bug) {  // the bug's line outside the diff: a bar in the gutter
                dl->AddRectFilled(ImVec2(p.x + cw * float(digits) + cw * 0.6f, p.y + 2),
                                  ImVec2(p.x + cw * float(digits) + cw * 1.4f, p.y + line_h - 2), color(sc.bug_mark));
            }
            float x = p.x + gutter;
            bool b = in_comment[size_t(i)];
            for (const Token& t : cuda_tokens(row.text, &b)) {
                const std::string_view w = t.text(row.text);
                dl->AddText(ImVec2(x, ty), color(token_color(t.kind, s.dark)), w.data(), w.data() + w.size());
                x += ImGui::CalcTextSize(w.data(), w.data() + w.size()).x;
            }
        }
    }
    if (source_font()) ImGui::PopFont();
    ImGui::EndChild();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    ImGui::End();
}

}  // namespace rl::lab
