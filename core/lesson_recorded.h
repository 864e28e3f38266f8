// core/lesson_recorded.h — GPU traces recorded per lesson step (lessons/recorded/NAME/step-K.json[.gz] + recorded.txt),
// so that a classroom without a GPU plays what the hardware did, labelled with the device and the date.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/lesson.h"

namespace rl {

struct RecordedLesson {
    std::string dir;                          // lessons/recorded/NAME
    std::string device, date;                 // from recorded.txt
    std::vector<std::optional<Trace>> steps;  // one per lesson step; empty where nothing was recorded
    std::vector<std::string> errors;          // a file that does not load, or was recorded for another schedule
    bool any() const;
    std::string label() const;                // "recorded on NVIDIA H200, 2026-12-01"
};

// The folder of a lesson's recordings: recorded/NAME beside the lesson file.
std::string recorded_dir(const Lesson& l);
// Loads what was recorded for l (nothing when the folder is absent). A trace whose schedule differs from its
// step's (the lesson changed since) is left out with an error naming the file.
RecordedLesson load_recorded(const Lesson& l);

// Records every step of l with run (a GPU runner, or the emulator in tests) into dir: step-K.json (K from 1)
// for steps that may run there (not emulator_only), whose trace has at most max_events events (committed
// files stay small) and whose schedule no earlier step ran (load_recorded gives such a step the earlier
// recording), and recorded.txt with the device and the UTC date. Returns one line per step.
std::vector<std::string> record_lesson(const Lesson& l, const ScheduleRunner& run, const std::string& dir,
                                       size_t max_events);

}  // namespace rl
