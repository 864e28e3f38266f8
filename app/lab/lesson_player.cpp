// app/lab/lesson_player.cpp — the one place a front end calls the lesson loader and player (core/lesson.*), one step
// at a time.
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
    if (l->steps.empty()) return path + ": the lesson has no steps";
    install_lesson_lines();  // {line:SITE} placeholders resolve against the generated source
    lesson_ = std::move(*l);
    held_.clear();
    values_.assign(lesson_.steps.size(), std::nullopt);
    plays_ = 0;
    current_ = previous_ = 0;
    held_.push_back({0, play(0)});
    show_answer = false;
    picked.reset();
    // The course of the folder the lesson came from (a lesson opened from elsewhere has none).
    const std::string dir = std::filesystem::path(path).parent_path().string();
    const LessonSet set = load_lessons(dir.empty() ? "." : dir);
    course_.clear();
    for (const Lesson& x : set.lessons) course_.push_back({x.name, x.title});
    next_ = load_course(dir.empty() ? "." : dir).next(lesson_.name);
    recorded_ = find_recorded(lesson_);
    rec_k_.reset();
    rec_trace_.reset();
    rec_error_.clear();
    rec_reads_ = 0;
    shown_recorded_ = false;
    return {};
}

PlayedStep LessonPlayer::play(size_t k) {
    // The quantities of the step before: steps never played are played first, each dropped but for its quantities.
    size_t from = k;
    while (from > 0 && !values_[from - 1]) --from;
    for (size_t j = from; j <= k; ++j) {
        PlayedStep p = play_step(lesson_, j, j ? &*values_[j - 1] : nullptr);
        ++plays_;
        values_[j] = p.values;
        if (j == k) return p;
    }
    return {};  // not reached: the loop returns step k
}

const PlayedStep& LessonPlayer::played(size_t k) {
    k = std::min(k, lesson_.steps.size() - 1);
    for (const Held& h : held_)
        if (h.k == k) return h.step;
    PlayedStep p = play(k);
    // Room for it: the oldest held step other than the current one goes, the one shown before last of all (a
    // panel drawing the step it showed may still hold it while a button moves on).
    while (held_.size() >= kHeldSteps) {
        auto old = std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.k != current_ && h.k != previous_; });
        if (old == held_.end()) old = std::find_if(held_.begin(), held_.end(), [&](const Held& h) { return h.k != current_; });
        held_.erase(old);
    }
    held_.push_back({k, std::move(p)});
    return held_.back().step;
}

const Trace* LessonPlayer::recorded_trace(size_t k) {
    if (!recorded_.has(k)) return nullptr;
    // A step playing an earlier step's recording (the same schedule, one file) keeps the trace already read.
    const bool same_file = rec_k_ && rec_trace_ && recorded_.files[*rec_k_] == recorded_.files[k];
    if (same_file) rec_k_ = k;
    if (rec_k_ != k) {
        rec_trace_.reset();  // the one held before goes first: one recorded trace in memory, not two
        rec_error_.clear();
        RecordedStep r = read_recorded_step(lesson_, recorded_, k);
        ++rec_reads_;
        rec_k_ = k;
        rec_trace_ = std::move(r.trace);
        rec_error_ = std::move(r.error);
    }
    return rec_trace_ ? &*rec_trace_ : nullptr;
}

const PlayedStep& LessonPlayer::step() const {
    for (const Held& h : held_)
        if (h.k == current_) return h.step;
    return held_.back().step;  // not reached while active(): show() holds the current step
}

std::vector<size_t> LessonPlayer::held_steps() const {
    std::vector<size_t> out;
    for (const Held& h : held_) out.push_back(h.k);
    return out;
}

void LessonPlayer::show(size_t k) {
    if (!active()) return;
    previous_ = current_;
    current_ = std::min(k, lesson_.steps.size() - 1);
    played(current_);
    show_answer = false;
    picked.reset();
}

bool LessonPlayer::pick(size_t k) {
    if (!active() || k >= step().choices.size()) return false;
    picked = k;
    return true;
}

std::optional<Grade> LessonPlayer::grade() const {
    if (!active() || !picked) return std::nullopt;
    return grade_choice(step(), *picked);
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
    const PlayedStep& p = step();
    s.playing = false;
    s.set_step(p.cursor_step);
    s.select(p.event);
}

}  // namespace rl::lab
