// app/cli/exercise_view.cpp — an exercise in the terminal: title, the lessons that link it, task, hint, files, commands.
#include "app/cli/exercise_view.h"

#include <iostream>

#include "core/exercise.h"

namespace rl::cli {

int show_exercise(std::ostream& out, const std::string& lessons_dir, const std::string& name, const LessonSet& lessons) {
    std::vector<LessonError> errors;
    const std::optional<Exercise> ex = load_exercise(lessons_dir, name, errors);
    if (!ex) {
        std::vector<LessonError> ignored;
        std::string names;
        for (const Exercise& e : load_exercises(lessons_dir, ignored)) names += (names.empty() ? "" : ", ") + e.name;
        std::cerr << "rlab: " << (errors.empty() ? "no exercise " + name : errors.front().str())
                  << (names.empty() ? std::string() : " (exercises: " + names + ")") << "\n";
        return 2;
    }
    std::string flags;
    // Quoted for the shell unless every character is plain: an --input list, a --launch plan (<<<, ;, parentheses).
    for (const std::string& f : ex->run)
        flags += " " + (!f.empty() && f.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+/=:") ==
                                          std::string::npos
                            ? f
                            : "'" + f + "'");
    out << ex->title << "\n" << std::string(ex->title.size(), '=') << "\n";
    for (const Lesson& l : lessons.lessons)
        for (const std::string& e : l.exercises)
            if (e == name) out << "From the lesson " << l.name << " (" << l.title << ").\n";
    out << "\nTask\n" << ex->task << "\nHint\n" << ex->hint << "\n";
    out << "The kernel:    " << ex->kernel_file() << "\n"
        << "The solution:  " << ex->solution_file() << "  (read it after you tried)\n\n"
        << "Copy the kernel, fix your copy, and run it (exit 0: no hazard and the exact result):\n"
        << "  cp " << ex->kernel_file() << " my-" << ex->name << ".cu\n"
        << "  rlab run my-" << ex->name << ".cu" << flags << "\n"
        << "The planted bug makes the checker report: " << to_string(ex->hazard) << "\n";
    return 0;
}

void print_lesson_exercises(std::ostream& out, const Lesson& l) {
    if (l.exercises.empty()) return;
    out << "\nExercise" << (l.exercises.size() > 1 ? "s" : "") << " (write the kernel yourself):";
    for (const std::string& e : l.exercises) out << "  rlab lessons --exercise " << e;
    out << "\n";
}

}  // namespace rl::cli
