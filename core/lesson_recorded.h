// core/lesson_recorded.h — GPU traces recorded per lesson step (lessons/recorded/NAME/step-K.json[.gz] + recorded.txt),
// so that a classroom without a GPU plays what the hardware did, labelled with the device and the date.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "core/lesson.h"

namespace rl {

// What was recorded for a lesson, found when it opens; no trace is read then. Each step's trace is read when that
// step is played (read_recorded_step), so a lesson's memory is one recorded trace's, whatever its number of steps,
// and a bad file is reported at its step.
struct RecordedLesson {
    std::string dir;                   // lessons/recorded/NAME
    std::string device, date;          // from recorded.txt
    std::vector<std::string> files;    // per lesson step, the file its recording is read from ("": none recorded)
    std::vector<std::string> errors;   // the folder's own (no recorded.txt); a step's file is judged when read
    bool any() const;
    bool has(size_t k) const { return k < files.size() && !files[k].empty(); }
    std::string label() const;         // "recorded on NVIDIA H200, 2026-12-01"
};

// The folder of a lesson's recordings: recorded/NAME beside the lesson file.
std::string recorded_dir(const Lesson& l);
// Finds what was recorded for l (nothing when the folder is absent): step-K.json[.gz] for step K, or, for a step
// without its own file, the file of an earlier step with the same schedule. Reads recorded.txt only.
RecordedLesson find_recorded(const Lesson& l);

// Step k's recording, read now: the trace, or one line naming the file and the step when the file does not read
// or was recorded for another schedule than the step's (the lesson changed since).
struct RecordedStep {
    std::optional<Trace> trace;
    std::string error;
};
RecordedStep read_recorded_step(const Lesson& l, const RecordedLesson& r, size_t k);

// Records every step of l with run (a GPU runner, or the emulator in tests) into dir: step-K.json (K from 1)
// for steps that may run there (not emulator_only), whose trace has at most max_events events (committed
// files stay small) and whose schedule no earlier step ran (find_recorded gives such a step the earlier
// recording), and recorded.txt with the device and the UTC date. Returns one line per step.
std::vector<std::string> record_lesson(const Lesson& l, const ScheduleRunner& run, const std::string& dir,
                                       size_t max_events);

}  // namespace rl
