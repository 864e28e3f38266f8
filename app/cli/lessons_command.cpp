// app/cli/lessons_command.cpp — `rlab lessons`: lists lessons, shows one, or plays all and checks every expectation.
#include "app/cli/lessons_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/backend/backend.h"
#include "core/emulator.h"
#include "core/lesson.h"

namespace rl::cli {

CLI::App* add_lessons_command(CLI::App& app, LessonsArgs& a) {
    auto* c = app.add_subcommand("lessons", "list the lessons; --check plays each on the emulator and verifies its expectations");
    c->add_flag("--check", a.check, "play every step and verify every expectation (exit 1 on a failure, 2 on a malformed file)");
    c->add_option("--show", a.show, "print this lesson's steps with the narrative filled in from the trace");
    c->add_option("--lesson", a.only, "only this lesson (its file name without .toml)");
    c->add_option("--backend", a.backend, "cpu (the emulator) or cuda (each step's schedule runs on the GPU)")->capture_default_str();
    c->add_option("--dir", a.dir, "the lessons folder (default: $RLAB_LESSONS_DIR, else ../share/reduction-lab/lessons next to rlab, else the source tree's)");
    return c;
}

int run_lessons(const LessonsArgs& a) {
    BackendChoice choice;
    if (!parse_backend(a.backend, choice) || choice == BackendChoice::Auto)
        throw Error("--backend " + a.backend + ": expected cpu or cuda");
    ScheduleRunner runner;
    if (choice == BackendChoice::Cuda) {
        if (!gpu_status().usable) throw Error("--backend cuda: " + gpu_status().reason);
        runner = [](const Schedule& s) { return run_backend(s, BackendChoice::Cuda).trace; };
    }
    const DataSearch found = a.dir.empty() ? search_lessons_dir() : DataSearch{a.dir, {}};
    const std::string& dir = found.found;
    if (dir.empty()) {
        std::cerr << "rlab: " << found.not_found("lessons folder") << " (pass --dir FOLDER)\n";
        return 2;
    }
    LessonSet set = load_lessons(dir);
    for (const LessonError& e : set.errors) std::cerr << e.str() << "\n";
    const bool malformed = !set.errors.empty();
    if (!a.only.empty() || !a.show.empty()) {
        const std::string want = a.show.empty() ? a.only : a.show;
        std::erase_if(set.lessons, [&](const Lesson& l) { return l.name != want; });
        if (set.lessons.empty()) {
            std::cerr << "rlab: no lesson named " << want << " in " << dir << (malformed ? " (or it is malformed)" : "") << "\n";
            return 2;
        }
    }
    if (!a.show.empty()) {
        const Lesson& l = set.lessons.front();
        std::cout << l.title << "\n" << std::string(l.title.size(), '=') << "\n";
        if (!l.summary.empty()) std::cout << l.summary << "\n";
        play_lesson_steps(l, runner, [&](size_t k, const PlayedStep& p) {
            std::cout << "\n--- step " << k + 1 << " of " << l.steps.size() << " (trace step " << p.cursor_step << ", "
                      << p.where << "; " << describe(l.steps[k].schedule) << ")\n"
                      << p.narrative;
            if (!p.narrative.empty() && p.narrative.back() != '\n') std::cout << "\n";
            if (!p.question.empty()) {
                std::cout << "  Q: " << p.question << "\n";
                for (auto& c : p.choices) std::cout << "   - " << c << "\n";
                std::cout << "  A: " << p.answer << "\n";
            }
            for (auto& r : p.results) std::cout << (r.ok ? "  [ok]   " : "  [FAIL] ") << r.message << "\n";
            for (auto& pr : p.problems) std::cout << "  [FAIL] " << pr << "\n";
        });
        return malformed ? 2 : 0;
    }
    if (!a.check) {
        for (const Lesson& l : set.lessons)
            std::cout << l.name << std::string(l.name.size() < 24 ? 24 - l.name.size() : 1, ' ') << l.steps.size()
                      << (l.steps.size() == 1 ? " step   " : " steps  ") << l.title << "\n";
        std::cout << set.lessons.size() << " lesson(s) in " << dir << (malformed ? ", and malformed files (above)" : "") << "\n";
        return malformed ? 2 : 0;
    }
    size_t failures = 0, checks = 0;
    for (const Lesson& l : set.lessons) {
        size_t lesson_failures = 0;
        play_lesson_steps(l, runner, [&](size_t k, const PlayedStep& p) {
            if (!p.played_on_emulator.empty())
                std::cout << l.file << ":" << l.steps[k].line << ": step " << k + 1
                          << ": played on the emulator: " << p.played_on_emulator << "\n";
            for (auto& pr : p.problems) {
                std::cout << l.file << ":" << l.steps[k].line << ": step " << k + 1 << ": " << pr << "\n";
                ++lesson_failures;
            }
            for (auto& r : p.results) {
                ++checks;
                if (r.ok) continue;
                std::cout << l.file << ":" << r.line << ":" << r.column << ": step " << k + 1 << ": " << r.message << "\n";
                ++lesson_failures;
            }
        });
        std::cout << (lesson_failures ? "FAIL " : "ok   ") << l.name << " (" << l.steps.size() << " steps)\n";
        failures += lesson_failures;
    }
    std::cout << set.lessons.size() << " lesson(s), " << checks << " expectation(s), " << failures << " failure(s)"
              << (malformed ? ", " + std::to_string(set.errors.size()) + " error(s) in malformed files" : "") << "\n";
    if (malformed) return 2;
    return failures ? 1 : 0;
}

}  // namespace rl::cli
