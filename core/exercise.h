// core/exercise.h — the exercises of the lessons: a student kernel with a planted bug, its solution, a task and a hint
// (lessons/exercises/NAME/exercise.toml), and the hazard the checker must find in the buggy kernel. Graded by rlab run.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/lesson.h"
#include "core/trace.h"

namespace rl {

struct Exercise {
    std::string name;               // the folder's name: what `rlab lessons --exercise NAME` and a lesson's `exercises` take
    std::string dir;                // lessons/exercises/NAME
    std::string title, task, hint;
    std::vector<std::string> run;   // the rlab run flags both kernels run with ("--n", "40", "--block", "40"): --n --block
                                    // --grid --input --seed --op, or a plain file's --launch plan / --kernel, each with its value
    HazardKind hazard{};            // what the checker finds in kernel.cu (and not in solution.cu)
    std::string kernel_file() const { return dir + "/kernel.cu"; }
    std::string solution_file() const { return dir + "/solution.cu"; }
};

// Loads lessons_dir/exercises/NAME; nullopt with the problems (file:line:column) appended when it is missing or
// malformed (an unknown key, a run flag rlab run does not take for a kernel or one without its value, a hazard kind
// that does not exist, a missing kernel.cu or solution.cu).
std::optional<Exercise> load_exercise(const std::string& lessons_dir, const std::string& name, std::vector<LessonError>& errors);
// Every folder of lessons_dir/exercises, by name; malformed ones are left out with their errors.
std::vector<Exercise> load_exercises(const std::string& lessons_dir, std::vector<LessonError>& errors);

}  // namespace rl
