// app/lab/lesson_player.h — a lesson opened once (loaded, every step played on the emulator) and the step shown.
#pragma once
#include <cstddef>
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
    // Finds the lessons folder, loads NAME.toml and plays every step. An error line (naming --lesson) or empty;
    // on an error the lesson open before stays open.
    std::string open(const std::string& name);
    // The same for a lesson file anywhere (opened from the desktop or File > Open); errors name the file.
    std::string open_file(const std::string& path);
    bool active() const { return !played_.empty(); }
    const Lesson& lesson() const { return lesson_; }
    const std::vector<PlayedStep>& played() const { return played_; }
    size_t current() const { return current_; }
    size_t size() const { return played_.size(); }
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
    // the step has one; label() says where and when ("recorded on NVIDIA H200, 2026-12-01").
    const RecordedLesson& recorded() const { return recorded_; }
    const Trace* recorded_trace(size_t k) const {
        return k < recorded_.steps.size() && recorded_.steps[k] ? &*recorded_.steps[k] : nullptr;
    }
    bool show_recorded = false;
    bool showing_recorded() const { return shown_recorded_; }  // the lab shows a recorded trace now

    // Moves the lab to step k (clamped): that step's schedule (run only when it is not the same schedule as shown),
    // its trace step and its event. Nothing when no lesson is open.
    void go(LabState& s, size_t k);
    // Makes step k (clamped) the current one without touching a lab: the classroom keeps its own traces per page.
    // Clears the pick and the revealed answer.
    void show(size_t k);

private:
    Lesson lesson_;
    std::vector<PlayedStep> played_;  // emulator traces of small schedules: quick, and the checks come with them
    size_t current_ = 0;
    std::vector<Entry> course_;
    std::string next_;
    RecordedLesson recorded_;
    bool shown_recorded_ = false;
};

}  // namespace rl::lab
