// app/imgui/panel_kernel.cpp — the lab bench's kernel panel: a path field to open a student's kernel (Ctrl+O focuses
// it), the run's status ("running…" while the last trace stays shown), the compiler's errors with file and line (a
// click marks the line in the source panel), the kernel field of a plain CUDA file of several kernels, and the
// result and hazards of the trace shown.
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/imgui/panels.h"
#include "app/lab/kernel_request.h"
#include "core/analysis.h"

namespace rl::lab {
namespace {

bool& focus_wanted() {
    static bool want = false;
    return want;
}

void open_path(LabState& s, const std::string& path) {
    try {
        std::string note;
        const student::KernelRequest r = kernel_request_for(path, s.schedule, s.backend, &note);
        if (s.open_kernel(r)) s.backend_note = note;
    } catch (const std::exception& e) {
        s.error = e.what();
    }
}

// Which kernel of a plain CUDA file runs: a field (NAME, or a template's NAME<ARGS>) and a list of the kernels the
// file's text declares, a template with the block size as its example argument. Shown for a plain CUDA file that
// declares any kernel, or once a name is set; Enter or a pick runs that kernel.
void kernel_name_field(LabState& s) {
    KernelSession& k = *s.kernel;
    static char name[256] = "";
    static std::string shown;
    if (shown != k.request().kernel) {  // --kernel-name, or another file opened: the field shows the request's
        shown = k.request().kernel;
        std::snprintf(name, sizeof name, "%s", shown.c_str());
    }
    static std::string listed_text;
    static uint32_t listed_block = 0;
    static std::vector<std::string> choices;
    if (listed_text != k.text || listed_block != k.request().schedule.block) {  // the file's text as last run
        listed_text = k.text;
        listed_block = k.request().schedule.block;
        choices = kernel_choices(listed_text, listed_block);
    }
    if (choices.empty() && shown.empty()) return;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Kernel");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-ImGui::GetFrameHeight() - ImGui::GetStyle().ItemSpacing.x);
    const bool enter = ImGui::InputTextWithHint("##kernel-name", "NAME or NAME<ARGS> (a file of several kernels)", name,
                                                sizeof name, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the __global__ to run; a template with its arguments, e.g. reduce6<256> (Enter runs it)");
    ImGui::SameLine();
    if (ImGui::BeginCombo("##kernel-choices", nullptr, ImGuiComboFlags_NoPreview | ImGuiComboFlags_PopupAlignLeft)) {
        for (const std::string& c : choices)
            if (ImGui::Selectable(c.c_str(), c == shown)) {
                std::snprintf(name, sizeof name, "%s", c.c_str());
                k.set_kernel(c);
            }
        ImGui::EndCombo();
    }
    if (enter) k.set_kernel(name);
}

}  // namespace

void focus_kernel_path() { focus_wanted() = true; }

void kernel_opener(LabState& s) {
    static char path[1024] = "";
    static std::string shown;
    if (shown != s.kernel->file()) {  // --kernel, or a file opened elsewhere: the field shows it
        shown = s.kernel->file();
        std::snprintf(path, sizeof path, "%s", shown.c_str());
    }
    ImGui::TextUnformatted("Your kernel (.cu, docs/student-kernels.md)");
    if (focus_wanted()) ImGui::SetKeyboardFocusHere(), focus_wanted() = false;
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Open").x - ImGui::GetStyle().FramePadding.x * 4);
    const bool enter = ImGui::InputTextWithHint("##kernel-path", "path/to/kernel.cu  (Ctrl+O)", path, sizeof path,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || enter) && path[0]) open_path(s, path);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("run it with the sizes shown; saving the file runs it again");
}

void kernel_panel(LabState& s, const Rect& r) {
    if (!begin_fixed("Your kernel##kernel", r)) return ImGui::End();
    kernel_opener(s);
    kernel_name_field(s);
    KernelSession& k = *s.kernel;
    const student::KernelRequest& q = k.request();
    ImGui::Separator();
    const uint32_t grid = q.schedule.grid ? q.schedule.grid : s.trace.kernel_file.empty() ? 0 : s.trace.grid;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    if (k.program)  // main() chose the sizes and launches: the request's flags say nothing about them
        ImGui::TextWrapped("a program with main(): its own sizes and launches (%zu in the trace), %s", s.trace.launches.size(),
                           q.backend == Backend::Cuda ? "on the GPU" : "on the CPU emulator");
    else if (!q.launch.empty())  // a plan names its own grids and blocks: the request's --block/--grid are not used
        ImGui::TextWrapped("n %llu, launches as the plan says: %s, %s", (unsigned long long)q.schedule.n, q.launch.c_str(),
                           q.backend == Backend::Cuda ? "on the GPU" : "on the CPU emulator");
    else
        ImGui::TextWrapped("n %llu, block %u, grid %s, %s", (unsigned long long)q.schedule.n, q.schedule.block,
                           grid ? std::to_string(grid).c_str() : "ceil(n / block)",
                           q.backend == Backend::Cuda ? "on the GPU" : "on the CPU emulator");
    // Where an exercise's working copy lives, and why the emulator runs it: next to the file, above the hazards.
    if (!s.backend_note.empty()) ImGui::TextWrapped("%s", s.backend_note.c_str());
    ImGui::PopStyleColor();
    if (k.running()) {
        ImGui::TextColored(ImVec4(0.4f, 0.75f, 1.0f, 1.0f), "running…  (the last trace stays until the new one arrives)");
    } else {
        if (ImGui::Button("Run again")) k.start();
        ImGui::SameLine();
        ImGui::TextDisabled("(saving the file runs it)");
    }
    if (!k.error.empty()) {
        ImGui::Separator();
        ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
        ImGui::TextWrapped("%s", k.error.c_str());
        ImGui::PopStyleColor();
        for (size_t i = 0; i < k.diagnostics.size(); ++i) {
            const student::Diagnostic& d = k.diagnostics[i];
            const std::string text = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
            ImGui::PushID(int(i));
            ImGui::PushTextWrapPos(0.0f);
            if (ImGui::Selectable(text.c_str(), d.line == k.error_line)) k.error_line = d.line;  // lit in the source panel
            ImGui::PopTextWrapPos();
            ImGui::PopID();
        }
    } else if (!s.trace.kernel_file.empty()) {
        ImGui::Separator();
        const Analysis& a = s.analysis;
        ImGui::Text("%zu events, %zu hazard(s), %zu note(s)", s.trace.events.size(), s.trace.hazards.size(),
                    s.trace.notes.size());
        // A run summarised by level of detail says what it shows in full and what as counts (core/level_of_detail.h).
        if (s.trace.detail.active()) ImGui::TextWrapped("%s", level_of_detail_line(s.trace).c_str());
        if (s.analysis_ready)
            ImGui::TextWrapped("result %s, reference %s: %s", format_value(s.trace.schedule.op, s.trace.schedule.type, s.trace.result_value).c_str(),
                               format_value(s.trace.schedule.op, s.trace.schedule.type, s.trace.reference_value).c_str(),
                               std::string(to_string(a.verdict)).c_str());
        for (const Hazard& h : s.trace.hazards) {
            ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
            ImGui::TextWrapped("%s: %s", std::string(to_string(h.kind)).c_str(), h.what.c_str());
            ImGui::PopStyleColor();
        }
        for (const Hazard& h : s.trace.notes) {  // cost, not correctness: calm, and named a note
            ImGui::PushStyleColor(ImGuiCol_Text, kNote);
            ImGui::TextWrapped("note (%s): %s", std::string(to_string(h.kind)).c_str(), h.what.c_str());
            ImGui::PopStyleColor();
        }
        if (!k.program_failure.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
            ImGui::TextWrapped("%s", k.program_failure.c_str());
            ImGui::PopStyleColor();
        }
    }
    if (k.program && k.error.empty()) {  // what main() printed, as a terminal would have shown it
        ImGui::Separator();
        ImGui::TextUnformatted("Program output");
        if (k.program_output.empty()) {
            ImGui::TextDisabled("(it printed nothing)");
        } else {
            ImGui::BeginChild("##program-output", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 6), true,
                              ImGuiWindowFlags_HorizontalScrollbar);
            ImGui::TextUnformatted(k.program_output.c_str(), k.program_output.c_str() + k.program_output.size());
            ImGui::EndChild();
        }
    }
    ImGui::End();
}

}  // namespace rl::lab
