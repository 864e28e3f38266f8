// app/lab/lesson_player.cpp — the one place a front end calls the lesson loader and player (core/lesson.*).
#include "app/lab/lesson_player.h"

#include <algorithm>
#include <filesystem>
#include "app/lab/lab_state.h"
#include "codegen/lesson_lines.h"
#include "core/course.h"

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
    picked.reset();
    // The course of the folder the lesson came from (a lesson opened from elsewhere has none).
    const std::string dir = std::filesystem::path(path).parent_path().string();
    const LessonSet set = load_lessons(dir.empty() ? "." : dir);
    course_.clear();
    for (const Lesson& x : set.lessons) course_.push_back({x.name, x.title});
    next_ = load_course(dir.empty() ? "." : dir).next(lesson_.name);
    recorded_ = load_recorded(lesson_);
    shown_recorded_ = false;
    return {};
}

void LessonPlayer::show(size_t k) {
    if (!active()) return;
    current_ = std::min(k, played_.size() - 1);
    show_answer = false;
    picked.reset();
}

bool LessonPlayer::pick(size_t k) {
    if (!active() || k >= played_[current_].choices.size()) return false;
    picked = k;
    return true;
}

std::optional<Grade> LessonPlayer::grade() const {
    if (!active() || !picked) return std::nullopt;
    return grade_choice(played_[current_], *picked);
}

void LessonPlayer::go(LabState& s, size_t k) {
    if (!active()) return;
    show(k);
    const Schedule& step_schedule = lesson_.steps[current_].schedule;
    if (const Trace* rec = show_recorded ? recorded_trace(current_) : nullptr) {
        s.schedule = step_schedule;  // the GPU's trace of this step: the same events, what the hardware returned
        s.trace = *rec;
        s.adopt_trace();
        s.finish_analysis();
        shown_recorded_ = true;
    } else if (step_schedule != s.schedule || s.trace.events.empty() || shown_recorded_) {
        s.schedule = step_schedule;
        s.rerun();
        s.finish_analysis();
        shown_recorded_ = false;
    }
    const PlayedStep& p = played_[current_];
    s.playing = false;
    s.set_step(p.cursor_step);
    s.select(p.event);
}

}  // namespace rl::lab
