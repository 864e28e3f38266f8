// app/imgui/lesson_hook.h — where `--lesson NAME` will turn into a schedule once core/lesson.* exists.
#pragma once
#include <string>
#include "core/schedule.h"

namespace rl::lab {

// Fills the schedule (and the step to open at) from the named lesson; returns an error line when it cannot.
std::string open_lesson(const std::string& name, Schedule& schedule, int& step);

}  // namespace rl::lab
