// app/lab/exercise_links.h — a lesson's exercises (its `exercises = [...]`, lessons/exercises/NAME) for the lesson
// panels of both front ends, and the request that opens one's kernel with the flags it is graded with.
#pragma once
#include <string>
#include <vector>
#include "app/backend/backend.h"
#include "core/exercise.h"
#include "student/kernel_run.h"

namespace rl::lab {

// The exercises the lesson links, loaded from the lesson file's folder; problems (a missing or malformed exercise)
// are appended to `problems` as lines.
std::vector<Exercise> lesson_exercises(const Lesson& lesson, std::vector<std::string>* problems = nullptr);

// The kernel of an exercise (or its solution) with the exercise's own run flags. Throws rl::Error with one line.
student::KernelRequest exercise_request(const Exercise& ex, bool solution, BackendChoice backend, std::string* note);

}  // namespace rl::lab
