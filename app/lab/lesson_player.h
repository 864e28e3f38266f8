// app/lab/lesson_player.h — a lesson opened once (loaded, every step played on the emulator) and the step shown.
#pragma once
#include <cstddef>
#include <string>
#include <vector>
#include "core/lesson.h"

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
    bool show_answer = false;  // the knowledge check's answer is revealed

    // Moves the lab to step k (clamped): that step's schedule (run only when it is not the same schedule as shown),
    // its trace step and its event. Nothing when no lesson is open.
    void go(LabState& s, size_t k);

private:
    Lesson lesson_;
    std::vector<PlayedStep> played_;  // emulator traces of small schedules: quick, and the checks come with them
    size_t current_ = 0;
};

}  // namespace rl::lab
