// app/imgui/lesson_hook.cpp — the one place the lab bench will call the lesson loader (core/lesson.*, not written yet).
#include "app/imgui/lesson_hook.h"

namespace rl::lab {

std::string open_lesson(const std::string& name, Schedule&, int&) {
    return "--lesson " + name + ": lessons are not available in this build yet (the loader belongs in core/lesson.*)";
}

}  // namespace rl::lab
