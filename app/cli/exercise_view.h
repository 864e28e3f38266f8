// app/cli/exercise_view.h — `rlab lessons --exercise NAME`: an exercise's task, hint, files and the command that grades it.
#pragma once
#include <iosfwd>
#include <string>
#include "core/lesson.h"

namespace rl::cli {

// Prints the exercise (0), or one line naming what is wrong and the exercises there are (2).
int show_exercise(std::ostream& out, const std::string& lessons_dir, const std::string& name, const LessonSet& lessons);
// The lines `rlab lessons --show` ends a lesson with: its exercises and how to open each.
void print_lesson_exercises(std::ostream& out, const Lesson& l);

}  // namespace rl::cli
