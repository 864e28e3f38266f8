// app/cli/lessons_command.cpp — `rlab lessons`: lists lessons, shows one, or plays all and checks every expectation.
#include "app/cli/lessons_command.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/backend/backend.h"
#include "app/cli/exercise_view.h"
#include "core/emulator.h"
#include "core/course.h"
#include "core/lesson.h"
#include "core/lesson_recorded.h"
#include "core/quiz.h"

namespace rl::cli {

CLI::App* add_lessons_command(CLI::App& app, LessonsArgs& a) {
    auto* c = app.add_subcommand("lessons", "list the lessons; --check plays each on the emulator and verifies its expectations");
    c->add_flag("--check", a.check, "play every step and verify every expectation (exit 1 on a failure, 2 on a malformed file)");
    c->add_option("--show", a.show, "print this lesson's steps with the narrative filled in from the trace");
    c->add_option("--quiz", a.quiz, "ask this lesson's knowledge checks: answer with the choice's number or text "
                                    "(graded, with the explanation); open questions show the model answer when you press Enter");
    c->add_option("--exercise", a.exercise, "print this exercise's task, hint and files, and the rlab run command that grades it "
                                            "(lessons/exercises/NAME; a lesson's --show names its exercises)");
    c->add_option("--record", a.record, "write each step's trace as DIR/NAME/step-K.json with DIR/NAME/recorded.txt "
                                        "(device, date): run with --backend cuda on a GPU, commit under lessons/recorded/");
    c->add_option("--max-events", a.max_events, "--record: leave out steps whose trace has more events")->capture_default_str();
    c->add_option("--lesson", a.only, "only this lesson (its file name without .toml)");
    c->add_option("--backend", a.backend, "cpu (the emulator) or cuda (each step's schedule runs on the GPU)")->capture_default_str();
    c->add_option("--dir", a.dir, "the lessons folder (default: $RLAB_LESSONS_DIR, else ../share/reduction-lab/lessons next to rlab, else the source tree's)");
    return c;
}

namespace {

void print_next(const Course& course, const std::string& name) {
    const std::string next = course.next(name);
    std::cout << "\n" << (next.empty() ? std::string("This is the last lesson of the course.")
                                         : "Next lesson: " + next + "  (rlab lessons --show " + next + ")") << "\n";
}

// Asks each knowledge check on stdout and reads one answer per line from stdin (a script can pipe them in).
// Choices: the number or the text, graded with the explanation; a reply that names no choice is asked again.
// Open questions: any line (Enter alone too) shows the model answer. Returns the number of graded questions.
int run_quiz(const Lesson& l, const Course& course, const ScheduleRunner& runner) {
    std::cout << l.title << " — knowledge check\n";
    const auto played = play_lesson(l, runner);
    int asked = 0, graded = 0, right = 0;
    for (size_t k = 0; k < played.size(); ++k) {
        const PlayedStep& p = played[k];
        if (p.question.empty()) continue;
        std::cout << "\nQuestion " << ++asked << " (step " << k + 1 << "): " << p.question << "\n";
        std::string line;
        if (p.choices.empty()) {
            std::cout << "  (an open question: think, write your answer, then press Enter for the model answer)\n> " << std::flush;
            if (!std::getline(std::cin, line)) break;
            std::cout << "Model answer: " << p.answer << "\n";
            continue;
        }
        for (size_t c = 0; c < p.choices.size(); ++c) std::cout << "  " << c + 1 << ". " << p.choices[c] << "\n";
        std::optional<size_t> pick;
        while (!pick) {
            std::cout << "answer 1-" << p.choices.size() << "> " << std::flush;
            if (!std::getline(std::cin, line)) break;
            pick = parse_choice(p, line);
            if (!pick) std::cout << "\"" << line << "\" names no choice: type its number (1-" << p.choices.size() << ") or its text\n";
        }
        if (!pick) break;
        const Grade g = grade_choice(p, *pick);
        ++graded;
        right += g.correct;
        std::cout << g.verdict << " " << g.explanation << "\n";
    }
    if (asked == 0) std::cout << "This lesson has no knowledge check.\n";
    else std::cout << "\n" << right << " of " << graded << " graded answer(s) right.\n";
    print_next(course, l.name);
    return graded;
}

}  // namespace

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
    const Course course = load_course(dir);
    if (!a.exercise.empty()) return show_exercise(std::cout, dir, a.exercise, set);
    if (!a.show.empty() && !a.quiz.empty()) throw Error("--show and --quiz: pick one lesson view");
    if (!a.only.empty() || !a.show.empty() || !a.quiz.empty()) {
        const std::string want = !a.show.empty() ? a.show : !a.quiz.empty() ? a.quiz : a.only;
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
        print_lesson_exercises(std::cout, l);
        print_next(course, l.name);
        return malformed ? 2 : 0;
    }
    if (!a.quiz.empty()) {
        run_quiz(set.lessons.front(), course, runner);
        return malformed ? 2 : 0;
    }
    if (!a.record.empty()) {
        for (const Lesson& l : set.lessons)
            for (const std::string& line : record_lesson(l, runner, a.record + "/" + l.name, a.max_events))
                std::cout << line << "\n";
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
        std::vector<Quantities> step_values(l.steps.size());  // each step's values: a recording's prev_NAME reads them
        play_lesson_steps(l, runner, [&](size_t k, const PlayedStep& p) {
            step_values[k] = p.values;
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
        // The recorded GPU traces (lessons/recorded/NAME): each must still satisfy its step's expectations. Read
        // one step at a time and dropped before the next, like the steps themselves.
        const RecordedLesson rec = find_recorded(l);
        for (const std::string& e : rec.errors) {
            std::cout << e << "\n";
            ++lesson_failures;
        }
        size_t recorded = 0;
        for (size_t k = 0; k < l.steps.size(); ++k) {
            if (!rec.has(k)) continue;
            RecordedStep got = read_recorded_step(l, rec, k);
            if (!got.trace) {  // one line naming the file and the step
                std::cout << got.error << "\n";
                ++lesson_failures;
                continue;
            }
            ++recorded;
            const PlayedStep p = play_step(l, k, k ? &step_values[k - 1] : nullptr,
                                           [&](const Schedule&) { return std::move(*got.trace); });
            for (auto& pr : p.problems) {
                std::cout << l.file << ":" << l.steps[k].line << ": step " << k + 1 << " (" << rec.label() << "): " << pr << "\n";
                ++lesson_failures;
            }
            for (auto& r : p.results) {
                ++checks;
                if (r.ok) continue;
                std::cout << l.file << ":" << r.line << ":" << r.column << ": step " << k + 1 << " (" << rec.label()
                          << "): " << r.message << "\n";
                ++lesson_failures;
            }
        }
        std::cout << (lesson_failures ? "FAIL " : "ok   ") << l.name << " (" << l.steps.size() << " steps"
                  << (recorded ? ", " + std::to_string(recorded) + " step(s) " + rec.label() : std::string()) << ")\n";
        failures += lesson_failures;
    }
    std::cout << set.lessons.size() << " lesson(s), " << checks << " expectation(s), " << failures << " failure(s)"
              << (malformed ? ", " + std::to_string(set.errors.size()) + " error(s) in malformed files" : "") << "\n";
    if (malformed) return 2;
    return failures ? 1 : 0;
}

}  // namespace rl::cli
