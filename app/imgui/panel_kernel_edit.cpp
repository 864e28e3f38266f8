// app/imgui/panel_kernel_edit.cpp — the lab bench's kernel editor inside the source panel: an Edit toggle (Ctrl+E),
// the student's text in a multi-line field that grows with it, Save and run (Ctrl+S while typing) and Revert, and
// the editor's message (a failed save, the file changed on disk). The buffer and the save are app/lab/kernel_editor's.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>
#include <string>

#include "app/imgui/panels.h"
#include "app/lab/cuda_syntax.h"

namespace rl::lab {
namespace {

ImVec4 color4(uint32_t rgb) {
    return ImVec4(float((rgb >> 16) & 255) / 255.0f, float((rgb >> 8) & 255) / 255.0f, float(rgb & 255) / 255.0f, 1.0f);
}

// ImGui writes into the std::string's own storage and asks for more room through this callback.
int grow(ImGuiInputTextCallbackData* d) {
    if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(d->UserData);
        text->resize(size_t(d->BufTextLen));
        d->Buf = text->data();
    }
    return 0;
}

// The compile error's line lit in the field, as the read-only view lights it: a translucent band drawn over the
// field's own text (the field is a child window: its scroll and draw list are ImGui's internals, read here only).
void light_error_line(const KernelSession& k, const SourceColors& sc) {
    if (k.error.empty() || k.error_line <= 0) return;
    const ImGuiContext& g = *GImGui;
    const ImGuiWindow* parent = g.CurrentWindow;
    ImGuiWindow* field = nullptr;
    for (ImGuiWindow* w : g.Windows)
        if (w->ParentWindow == parent && w->LastFrameActive == g.FrameCount && std::strstr(w->Name, "##kernel-edit")) field = w;
    if (!field) return;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float line_h = ImGui::GetFontSize();
    const float y = a.y + ImGui::GetStyle().FramePadding.y + float(k.error_line - 1) * line_h - field->Scroll.y;
    if (y + line_h < a.y || y > b.y) return;
    const uint32_t c = sc.error_line;
    field->DrawList->PushClipRect(a, b, true);
    field->DrawList->AddRectFilled(ImVec2(a.x, y), ImVec2(b.x, y + line_h), IM_COL32((c >> 16) & 255, (c >> 8) & 255, c & 255, 110));
    field->DrawList->PopClipRect();
}

}  // namespace

void toggle_kernel_editor(LabState& s) {
    KernelEditor& ed = s.kernel_editor;
    if (!s.kernel->active()) return;
    if (!ed.editing && ed.file() != s.kernel->file()) ed.load(s.kernel->file());
    ed.editing = !ed.editing;
    s.source_open = true;
}

bool kernel_edit_bar(LabState& s) {
    KernelEditor& ed = s.kernel_editor;
    if (!s.kernel->active()) return false;
    bool editing = ed.editing;
    if (ImGui::Checkbox("Edit (Ctrl+E)", &editing) && editing != ed.editing) toggle_kernel_editor(s);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("edit your kernel here; again: back to this step's lines lit");
    ImGui::SameLine();
    if (!ed.editing) return false;
    if (ImGui::Button("Save and run (Ctrl+S)")) ed.save(*s.kernel);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write the text over the file and run it; the new trace replaces the shown one");
    ImGui::SameLine();
    if (ImGui::Button("Revert")) ed.revert();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("drop the edits: the file as it is on disk");
    ImGui::SameLine();
    if (!ed.message().empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", ed.message().c_str());
        ImGui::PopStyleColor();
    } else if (!s.kernel->error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", s.kernel->status().c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextDisabled("%s", ed.modified() ? "edited: Ctrl+S saves and runs" : "Ctrl+S saves and runs · Ctrl+E: back to the lit lines");
    }
    return true;
}

void kernel_editor_field(LabState& s) {
    KernelEditor& ed = s.kernel_editor;
    // A change from outside the field (Revert, the file reloaded from disk) while ImGui holds its own copy of the
    // text: a new field id drops that copy.
    static std::string seen;
    static int generation = 0;
    if (ed.buffer != seen) ++generation;
    const SourceColors& sc = source_colors(s.dark);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, color4(sc.background));
    ImGui::PushStyleColor(ImGuiCol_Text, color4(sc.text));
    if (source_font()) ImGui::PushFont(source_font());
    ImGui::PushID(generation);
    ImGui::InputTextMultiline("##kernel-edit", ed.buffer.data(), ed.buffer.capacity() + 1, ImVec2(-1, -1),
                              ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_AllowTabInput, grow, &ed.buffer);
    const bool typing = ImGui::IsItemActive();
    light_error_line(*s.kernel, sc);
    ImGui::PopID();
    if (source_font()) ImGui::PopFont();
    ImGui::PopStyleColor(2);
    ed.buffer.resize(std::char_traits<char>::length(ed.buffer.c_str()));  // the text's end, should ImGui not have said
    seen = ed.buffer;
    // handle_shortcuts stays out of a focused text field: the editor's own keys are read here.
    const ImGuiIO& io = ImGui::GetIO();
    if (typing && io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false)) ed.save(*s.kernel);
    if (typing && io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_E, false)) ed.editing = false;
}

CloseChoice unsaved_edits_dialog(LabState& s, bool ask) {
    constexpr const char* kTitle = "Unsaved edits";
    if (ask) ImGui::OpenPopup(kTitle);
    CloseChoice choice = CloseChoice::kNone;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("%s has edits that are not saved.", s.kernel_editor.file().c_str());
        if (!s.kernel_editor.error.empty()) {  // a save that failed: the edits are still in the buffer
            ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
            ImGui::TextUnformatted(s.kernel_editor.error.c_str());
            ImGui::PopStyleColor();
        }
        if (ImGui::Button("Save and quit")) choice = CloseChoice::kSave;
        ImGui::SameLine();
        if (ImGui::Button("Discard and quit")) choice = CloseChoice::kDiscard;
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGuiKey_Escape)) choice = CloseChoice::kCancel;
        if (choice != CloseChoice::kNone) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    return choice;
}

}  // namespace rl::lab
