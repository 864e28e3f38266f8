// app/lab/lesson_player.h — a lesson opened once and played one step at a time: the step shown is played when it is
// shown, and at most two steps' traces are held (the current and the one shown before), so memory follows one step.
#pragma once
#include <cstddef>
#include <deque>
#include <string>
#include <vector>
#include <optional>
#include "core/lesson.h"
#include "core/lesson_recorded.h"
#include "core/quiz.h"

namespace rl::lab {

struct LabState;

class LessonPlayer {
public:
    // Finds the lessons folder, loads NAME.toml and plays its first step. An error line (naming --lesson) or empty;
    // on an error the lesson open before stays open.
    std::string open(const std::string& name);
    // The same for a lesson file anywhere (opened from the desktop or File > Open); errors name the file.
    std::string open_file(const std::string& path);
    bool active() const { return !held_.empty(); }
    const Lesson& lesson() const { return lesson_; }
    size_t current() const { return current_; }
    size_t size() const { return active() ? lesson_.steps.size() : 0; }
    // The current step, played (its trace, filled narrative, checks).
    const PlayedStep& step() const;
    // Step k (clamped), played now unless it is held. Steps before it never played are played first, one at a
    // time, for the quantities their successors name (prev_NAME); only their quantities are kept. The reference
    // stays valid until the next call that plays.
    const PlayedStep& played(size_t k);
    // Which steps' traces are held now (the current one among them), and how many steps were played since open.
    std::vector<size_t> held_steps() const;
    size_t plays() const { return plays_; }
    static constexpr size_t kHeldSteps = 2;

    bool show_answer = false;  // the knowledge check's answer is revealed (the teacher, or an open question's model answer)
    std::optional<size_t> picked;  // the choice the student picked on this step (graded at once)

    // Picks choice k (0-based) of the current step's check; false when there is no such choice.
    bool pick(size_t k);
    // The grade of the pick, when there is one.
    std::optional<Grade> grade() const;
    // The course (lessons/course.txt of the lesson's folder, else the folder by name): name and title in teaching
    // order, and the lesson after this one (empty for the last, or for a lesson the course does not list).
    struct Entry {
        std::string name, title;
    };
    const std::vector<Entry>& course() const { return course_; }
    const std::string& next_lesson() const { return next_; }

    // Recorded GPU traces (lessons/recorded/NAME): shown instead of the emulator's when show_recorded is on and
    // the step has one; label() says where and when ("recorded on NVIDIA H200, 2026-12-01"). Opening a lesson
    // reads none of them: recorded() is the index of which steps have one.
    const RecordedLesson& recorded() const { return recorded_; }
    bool has_recorded(size_t k) const { return recorded_.has(k); }
    // Step k's recorded trace, read now unless it is the one held; the one held before is dropped first, so at
    // most kHeldRecorded are held. nullptr when the step has none or its file does not read (recorded_error()).
    const Trace* recorded_trace(size_t k);
    // Why the last recording read (that of recorded_step()) is not shown, in one line naming the file and the
    // step; empty when it read.
    const std::string& recorded_error() const { return rec_error_; }
    std::optional<size_t> recorded_step() const { return rec_k_; }
    size_t recorded_held() const { return rec_trace_ ? 1 : 0; }
    size_t recorded_reads() const { return rec_reads_; }  // files read since the lesson opened
    static constexpr size_t kHeldRecorded = 1;
    bool show_recorded = false;
    bool showing_recorded() const { return shown_recorded_; }  // the lab shows a recorded trace now

    // Moves the lab to step k (clamped): that step's schedule (run only when it is not the same schedule as shown),
    // its trace step and its event. Nothing when no lesson is open.
    void go(LabState& s, size_t k);
    // Makes step k (clamped) the current one, played, without touching a lab (the classroom shows its trace itself).
    // Clears the pick and the revealed answer.
    void show(size_t k);

private:
    struct Held {
        size_t k;
        PlayedStep step;
    };
    Lesson lesson_;
    std::deque<Held> held_;                        // at most kHeldSteps, the current step always among them
    std::vector<std::optional<Quantities>> values_;  // of each step played so far: the next step's prev_NAME
    size_t current_ = 0, previous_ = 0;  // the step shown, and the one shown before it
    size_t plays_ = 0;
    std::vector<Entry> course_;
    std::string next_;
    RecordedLesson recorded_;
    std::optional<size_t> rec_k_;      // the step whose recording was read last (held in rec_trace_ when it read)
    std::optional<Trace> rec_trace_;
    std::string rec_error_;
    size_t rec_reads_ = 0;
    bool shown_recorded_ = false;
    PlayedStep play(size_t k);
};

}  // namespace rl::lab
