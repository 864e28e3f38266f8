// app/imgui/lesson_hook.h — `--lesson NAME`: the lab bench plays a lesson (core/lesson.*), one step at a time.
#pragma once
#include <string>
#include "app/imgui/lab_state.h"
#include "core/lesson.h"
#include "core/schedule.h"

namespace rl::lab {

// The lesson being shown (one per window; the lab state itself stays lesson-free).
struct LessonView {
    bool active = false;
    Lesson lesson;
    std::vector<PlayedStep> played;  // every step played once on the emulator: narrative and checks
    size_t current = 0;
    bool show_answer = false;
};
LessonView& lesson_view();

// Loads and plays the named lesson, fills the schedule and trace step of its first step; returns an error line.
std::string open_lesson(const std::string& name, Schedule& schedule, int& step);
// Moves the lab bench to lesson step k (0-based, clamped): that step's schedule, trace step and event.
void goto_lesson_step(LabState& s, size_t k);
// PageDown / PageUp: next / previous lesson step.
void lesson_shortcuts(LabState& s);

}  // namespace rl::lab
