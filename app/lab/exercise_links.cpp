// app/lab/exercise_links.cpp — exercises of a lesson, and their run flags parsed as rlab run parses them.
#include "app/lab/exercise_links.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include "app/lab/kernel_request.h"
#include "core/error.h"

namespace rl::lab {

std::vector<Exercise> lesson_exercises(const Lesson& lesson, std::vector<std::string>* problems) {
    std::vector<Exercise> out;
    if (lesson.exercises.empty()) return out;
    const std::string dir = std::filesystem::path(lesson.file).parent_path().string();
    std::vector<LessonError> errors;
    for (const std::string& name : lesson.exercises)
        if (auto ex = load_exercise(dir.empty() ? "." : dir, name, errors)) out.push_back(std::move(*ex));
    if (problems)
        for (const LessonError& e : errors) problems->push_back(e.str());
    return out;
}

student::KernelRequest exercise_request(const Exercise& ex, bool solution, BackendChoice backend, std::string* note) {
    KernelSettings k;
    k.file = solution ? ex.solution_file() : ex.kernel_file();
    CLI::App app{"exercise"};
    add_size_options(app, k.sizes);
    std::vector<std::string> args(ex.run.rbegin(), ex.run.rend());  // CLI11 takes them last first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        throw Error(ex.dir + "/exercise.toml: run: " + e.what() + " (rlab run's --n --block --grid --input --seed --op)");
    }
    k.backend = backend == BackendChoice::Cpu ? "cpu" : backend == BackendChoice::Cuda ? "cuda" : "auto";
    return kernel_request(k, note);
}

}  // namespace rl::lab
