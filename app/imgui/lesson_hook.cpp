// app/imgui/lesson_hook.cpp — the one place the lab bench calls the lesson loader and player (core/lesson.*).
#include "app/imgui/lesson_hook.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace rl::lab {

LessonView& lesson_view() {
    static LessonView v;
    return v;
}

std::string open_lesson(const std::string& name, Schedule& schedule, int& step) {
    const DataSearch found = search_lessons_dir();
    const std::string& dir = found.found;
    if (dir.empty()) return "--lesson " + name + ": " + found.not_found("lessons folder");
    std::vector<LessonError> errors;
    auto lesson = load_lesson_file(dir + "/" + name + ".toml", errors);
    if (!lesson) return "--lesson " + name + ": " + (errors.empty() ? "cannot load" : errors.front().str());
    LessonView& v = lesson_view();
    v.lesson = std::move(*lesson);
    v.played = play_lesson(v.lesson);  // emulator traces of small schedules: quick, and the checks come with them
    v.current = 0;
    v.active = true;
    schedule = v.lesson.steps.front().schedule;
    step = v.played.front().cursor_step;
    return {};
}

void goto_lesson_step(LabState& s, size_t k) {
    LessonView& v = lesson_view();
    if (!v.active || v.played.empty()) return;
    v.current = std::min(k, v.played.size() - 1);
    v.show_answer = false;
    const LessonStep& st = v.lesson.steps[v.current];
    const PlayedStep& p = v.played[v.current];
    if (describe(st.schedule) != describe(s.schedule) || st.schedule.input.values != s.schedule.input.values) {
        s.schedule = st.schedule;
        s.rerun();
        s.finish_analysis();
    }
    s.playing = false;
    s.set_step(p.cursor_step);
    s.select(p.event);
}

void lesson_shortcuts(LabState& s) {
    LessonView& v = lesson_view();
    if (!v.active || ImGui::GetIO().WantTextInput) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown), false)) goto_lesson_step(s, v.current + 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp), false) && v.current > 0) goto_lesson_step(s, v.current - 1);
}

}  // namespace rl::lab
