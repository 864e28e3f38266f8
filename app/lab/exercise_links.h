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

// The file a student edits for an exercise's kernel: the exercise's own when this user may write it (a source
// checkout), else a copy under data_dir()/exercises/NAME made on first use (an installed, read-only lesson tree).
// An existing copy is kept: it holds the student's work. `note` gets a line naming the copy; when no copy can be
// made, the original (its saves will fail with their reason) and a line saying why.
std::string exercise_working_kernel(const Exercise& ex, std::string* note);
// The same with the original's writability given (tests: root may write any file).
std::string exercise_working_kernel(const Exercise& ex, std::string* note, bool original_writable);

// The kernel of an exercise (its working copy, above) or its solution with the exercise's own run flags. `note`
// gets the working copy's line and the backend's, joined by "; ". Throws rl::Error with one line.
student::KernelRequest exercise_request(const Exercise& ex, bool solution, BackendChoice backend, std::string* note);

}  // namespace rl::lab
