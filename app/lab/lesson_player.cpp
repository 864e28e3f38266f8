// app/lab/lesson_player.cpp — the one place a front end calls the lesson loader and player (core/lesson.*).
#include "app/lab/lesson_player.h"

#include <algorithm>
#include "app/lab/lab_state.h"

namespace rl::lab {

std::string LessonPlayer::open(const std::string& name) {
    const std::string dir = find_lessons_dir();
    if (dir.empty()) return "--lesson " + name + ": no lessons folder found (set RLAB_LESSONS_DIR)";
    std::vector<LessonError> errors;
    std::optional<Lesson> l = load_lesson_file(dir + "/" + name + ".toml", errors);
    if (!l) return "--lesson " + name + ": " + (errors.empty() ? "no such lesson in " + dir : errors.front().str());
    std::vector<PlayedStep> played = play_lesson(*l);
    if (played.empty()) return "--lesson " + name + ": the lesson has no steps";
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
