// app/lab/exercise_links.cpp — exercises of a lesson, and their run flags parsed as rlab run parses them.
#include "app/lab/exercise_links.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include "app/lab/kernel_request.h"
#include "app/lab/user_dirs.h"
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

std::string exercise_working_kernel(const Exercise& ex, std::string* note) {
    return exercise_working_kernel(ex, note, ::access(ex.kernel_file().c_str(), W_OK) == 0);
}

std::string exercise_working_kernel(const Exercise& ex, std::string* note, bool original_writable) {
    namespace fs = std::filesystem;
    const std::string original = ex.kernel_file();
    if (original_writable) return original;
    auto say = [&](const std::string& line) {
        if (note) *note = line;
    };
    const std::string base = data_dir();
    if (base.empty()) {
        say(original + " is read-only and no folder for your copy can be named (set HOME): edits cannot be saved");
        return original;
    }
    const fs::path copy = fs::path(base) / "exercises" / ex.name / "kernel.cu";
    std::error_code ec;
    if (!fs::exists(copy, ec)) {
        fs::create_directories(copy.parent_path(), ec);
        if (!ec) fs::copy_file(original, copy, ec);
        // An installed original is read-only, and copy_file keeps its permissions: the copy must be the student's.
        if (!ec) fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add, ec);
        if (ec) {
            say(original + " is read-only and " + copy.string() + " cannot be made (" + ec.message() +
                "): edits cannot be saved");
            return original;
        }
    }
    say("your copy of exercise " + ex.name + ": " + copy.string() + " (the installed one is read-only; delete the copy "
        "to start again from it)");
    return copy.string();
}

student::KernelRequest exercise_request(const Exercise& ex, bool solution, BackendChoice backend, std::string* note) {
    KernelSettings k;
    std::string copy_note;
    k.file = solution ? ex.solution_file() : exercise_working_kernel(ex, &copy_note);
    CLI::App app{"exercise"};
    add_size_options(app, k.sizes);
    app.add_option("--launch", k.launch);  // a plain CUDA exercise of several launches (in, out, tmp, n), as rlab run
    app.add_option("--kernel", k.kernel);
    std::vector<std::string> args(ex.run.rbegin(), ex.run.rend());  // CLI11 takes them last first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        throw Error(ex.dir + "/exercise.toml: run: " + e.what() +
                    " (rlab run's --n --block --grid --input --seed --op --launch --kernel)");
    }
    k.backend = backend == BackendChoice::Cpu ? "cpu" : backend == BackendChoice::Cuda ? "cuda" : "auto";
    std::string backend_note;
    student::KernelRequest r = kernel_request(k, &backend_note);
    if (note) *note = copy_note.empty() || backend_note.empty() ? copy_note + backend_note : copy_note + "; " + backend_note;
    return r;
}

}  // namespace rl::lab
