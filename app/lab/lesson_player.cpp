// app/lab/lesson_player.cpp — the one place a front end calls the lesson loader and player (core/lesson.*).
#include "app/lab/lesson_player.h"

#include <algorithm>
#include <filesystem>
#include "app/lab/lab_state.h"
#include "codegen/lesson_lines.h"

namespace rl::lab {

std::string LessonPlayer::open(const std::string& name) {
    const DataSearch found = search_lessons_dir();
    const std::string& dir = found.found;
    if (dir.empty()) return "--lesson " + name + ": " + found.not_found("lessons folder");
    std::error_code ec;
    if (!std::filesystem::exists(dir + "/" + name + ".toml", ec)) return "--lesson " + name + ": no such lesson in " + dir;
    const std::string err = open_file(dir + "/" + name + ".toml");
    return err.empty() ? err : "--lesson " + name + ": " + err;
}

std::string LessonPlayer::open_file(const std::string& path) {
    std::vector<LessonError> errors;
    std::optional<Lesson> l = load_lesson_file(path, errors);
    if (!l) return errors.empty() ? path + ": cannot load the lesson" : errors.front().str();
    install_lesson_lines();  // {line:SITE} placeholders resolve against the generated source
    std::vector<PlayedStep> played = play_lesson(*l);
    if (played.empty()) return path + ": the lesson has no steps";
    lesson_ = std::move(*l);
    played_ = std::move(played);
    current_ = 0;
    show_answer = false;
    return {};
}

void LessonPlayer::go(LabState& s, size_t k) {
    if (!active()) return;
    current_ = std::min(k, played_.size() - 1);
    show_answer = false;
    const Schedule& step_schedule = lesson_.steps[current_].schedule;
    if (step_schedule != s.schedule || s.trace.events.empty()) {
        s.schedule = step_schedule;
        s.rerun();
        s.finish_analysis();
    }
    const PlayedStep& p = played_[current_];
    s.playing = false;
    s.set_step(p.cursor_step);
    s.select(p.event);
}

}  // namespace rl::lab
