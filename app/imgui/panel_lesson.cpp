// app/imgui/panel_lesson.cpp — the lesson's current step: narrative (filled from the trace), checks, knowledge check.
#include <imgui.h>

#include <optional>
#include <string>

#include "app/imgui/panels.h"
#include "app/lab/exercise_links.h"

namespace rl::lab {
namespace {

// The default font atlas holds Latin-1 only: typographic symbols become ASCII so nothing shows as '?'.
std::string ascii_symbols(std::string s) {
    static const char* const kMap[][2] = {{"\u2014", "-"}, {"\u2013", "-"}, {"\u2212", "-"}, {"\u2248", "~"},
                                          {"\u2264", "<="}, {"\u2265", ">="}, {"\u2295", "(+)"}, {"\u2308", "ceil("},
                                          {"\u2309", ")"}, {"\u2082", "2"}, {"\u03b3", "gamma"}, {"\u03a3", "sum "},
                                          {"\u2026", "..."}, {"\u2192", "->"}};
    for (auto& m : kMap)
        for (size_t at = s.find(m[0]); at != std::string::npos; at = s.find(m[0], at)) {
            s.replace(at, std::string(m[0]).size(), m[1]);
            at += std::string(m[1]).size();
        }
    return s;
}

// Markdown to plain wrapped text: lines of a paragraph joined, emphasis and code marks dropped, quotes
// indented, table rules skipped.
void markdown(const std::string& raw) {
    const std::string text = ascii_symbols(raw);
    std::string para;
    auto flush = [&] {
        if (!para.empty()) ImGui::TextWrapped("%s", para.c_str());
        para.clear();
    };
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string clean;
        for (char c : text.substr(pos, end - pos))
            if (c != '*' && c != '`') clean += c;
        pos = end + 1;
        if (clean.empty()) {
            flush();
            ImGui::Spacing();
        } else if (clean.rfind("|---", 0) == 0) {
            continue;
        } else if (clean.rfind("> ", 0) == 0) {
            flush();
            ImGui::Indent();
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram));
            ImGui::TextWrapped("%s", clean.substr(2).c_str());
            ImGui::PopStyleColor();
            ImGui::Unindent();
        } else if (clean.front() == '|') {
            flush();
            std::string row;
            for (char c : clean.substr(1)) row += c == '|' ? std::string("   ") : std::string(1, c);
            ImGui::TextUnformatted(row.c_str());
        } else {
            para += (para.empty() ? "" : " ") + clean;
        }
    }
    flush();
}

// The knowledge check: choices as buttons (keys 1-4), the pick graded with the explanation; an open question's
// model answer on request.
void knowledge_check(LessonPlayer& v, const PlayedStep& p) {
    ImGui::Separator();
    ImGui::TextWrapped("Check: %s", ascii_symbols(p.question).c_str());
    if (p.choices.empty()) {
        if (v.show_answer)
            ImGui::TextWrapped("Model answer: %s", ascii_symbols(p.answer).c_str());
        else if (ImGui::SmallButton("show the model answer"))
            v.show_answer = true;
        return;
    }
    for (size_t k = 0; k < p.choices.size(); ++k) {
        const bool chosen = v.picked == k;
        if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        const std::string label = std::to_string(k + 1) + ". " + ascii_symbols(p.choices[k]);
        if (ImGui::Button(label.c_str())) v.pick(k);
        if (chosen) ImGui::PopStyleColor();
    }
    if (const std::optional<Grade> g = v.grade()) {
        ImGui::TextColored(g->correct ? ImVec4(0.3f, 0.75f, 0.4f, 1) : ImVec4(0.95f, 0.55f, 0.2f, 1), "%s",
                           ascii_symbols(g->verdict).c_str());
        ImGui::TextWrapped("%s", ascii_symbols(g->explanation).c_str());
    } else {
        ImGui::TextDisabled("pick an answer (keys 1-%zu)", p.choices.size());
    }
}

// The course: a list of every lesson in teaching order at the top; at the last step (last_step) the next lesson.
void course_controls(LabState& s, bool last_step) {
    LessonPlayer& v = s.lesson;
    const std::string here = v.lesson().name;
    if (last_step) {
        ImGui::Separator();
        if (v.next_lesson().empty()) {
            ImGui::TextDisabled("This is the last lesson of the course.");
        } else {
            std::string title = v.next_lesson();
            for (const auto& e : v.course())
                if (e.name == v.next_lesson()) title = e.title;
            if (ImGui::Button(("Next lesson: " + ascii_symbols(title)).c_str())) {
                s.error = v.open(v.next_lesson());
                if (s.error.empty()) v.go(s, 0);
            }
        }
        return;
    }
    if (v.course().size() < 2) return;
    ImGui::SetNextItemWidth(-1);
    if (!ImGui::BeginCombo("##course", ("Course: " + here).c_str())) return;
    for (size_t i = 0; i < v.course().size(); ++i) {
        const auto& e = v.course()[i];
        const std::string item = std::to_string(i + 1) + ". " + ascii_symbols(e.title);
        if (ImGui::Selectable(item.c_str(), e.name == here) && e.name != here) {
            s.error = v.open(e.name);
            if (s.error.empty()) v.go(s, 0);
            break;
        }
    }
    ImGui::EndCombo();
}

}  // namespace

namespace {

// The lesson's exercises: the task, and a button that opens the kernel with the exercise's flags (the kernel panel
// takes over; saving the file runs it again).
void exercise_links(LabState& s) {
    static std::string for_lesson;
    static std::vector<Exercise> exercises;
    static std::vector<std::string> problems;
    if (for_lesson != s.lesson.lesson().file) {  // loaded once per lesson, not every frame
        for_lesson = s.lesson.lesson().file;
        problems.clear();
        exercises = lesson_exercises(s.lesson.lesson(), &problems);
    }
    if (exercises.empty() && problems.empty()) return;
    ImGui::Separator();
    ImGui::TextDisabled("write it yourself:");
    for (const std::string& pr : problems) ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.3f, 1), "%s", pr.c_str());
    for (const Exercise& ex : exercises) {
        ImGui::PushID(ex.name.c_str());
        if (ImGui::SmallButton("open")) {
            try {
                std::string note;
                if (s.open_kernel(exercise_request(ex, false, s.backend, &note))) s.backend_note = note;
            } catch (const std::exception& e) {
                s.error = e.what();
            }
        }
        ImGui::SameLine();
        ImGui::TextWrapped("Exercise: %s", ascii_symbols(ex.title).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ascii_symbols(ex.task).c_str());
        ImGui::PopID();
    }
}

}  // namespace

void lesson_panel(LabState& s, const Rect& r) {
    LessonPlayer& v = s.lesson;
    if (!begin_fixed("Lesson", r)) return ImGui::End();
    if (!v.active()) {
        ImGui::TextWrapped("No lesson open (reduction-lab --lesson NAME).");
        ImGui::End();
        return;
    }
    course_controls(s, false);
    const PlayedStep& p = v.step();
    ImGui::TextWrapped("%s", ascii_symbols(v.lesson().title).c_str());
    ImGui::TextDisabled("step %zu of %zu  -  PageDown / PageUp", v.current() + 1, v.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("<") && v.current() > 0) v.go(s, v.current() - 1);
    ImGui::SameLine();
    if (ImGui::SmallButton(">")) v.go(s, v.current() + 1);
    ImGui::TextDisabled("at trace step %d: %s", p.cursor_step, p.where.c_str());
    if (v.recorded().any()) {  // wrapped: the device's name is long and the panel narrow
        const bool unreadable = v.show_recorded && v.recorded_step() == v.current() && !v.recorded_error().empty();
        const std::string g = v.showing_recorded()          ? "showing the trace " + v.recorded().label()
                              : unreadable                  ? "the emulator's trace instead: " + v.recorded_error()
                              : v.has_recorded(v.current()) ? "the emulator's trace; a GPU trace " + v.recorded().label() + " too"
                                                            : "the emulator's trace (this step was not recorded on a GPU)";
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("G: %s", g.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
    ImGui::BeginChild("narrative", ImVec2(0, 0), false);
    markdown(p.narrative);
    if (!p.question.empty()) knowledge_check(v, p);
    if (!p.results.empty() || !p.problems.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("checked against this trace:");
        for (const ExpectationResult& e : p.results)
            ImGui::TextColored(e.ok ? ImVec4(0.3f, 0.75f, 0.4f, 1) : ImVec4(0.9f, 0.3f, 0.3f, 1), "%s %s",
                               e.ok ? "ok  " : "FAIL", e.message.c_str());
        for (const std::string& pr : p.problems) ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.3f, 1), "FAIL %s", pr.c_str());
    }
    exercise_links(s);
    if (v.current() + 1 == v.size()) course_controls(s, true);  // last: it may open another lesson (p is stale after)
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace rl::lab
