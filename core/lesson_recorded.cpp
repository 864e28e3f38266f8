// core/lesson_recorded.cpp — writing and reading the recorded GPU trace of each lesson step.
#include "core/lesson_recorded.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <algorithm>
#include <fstream>

#include "core/emulator.h"
#include "core/file_io.h"
#include "core/trace_io.h"

namespace rl {
namespace fs = std::filesystem;

namespace {

std::string step_file(const std::string& dir, size_t k) { return (fs::path(dir) / ("step-" + std::to_string(k + 1) + ".json")).string(); }

std::string utc_now() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%MZ", &tm);
    return buf;
}

// The same schedule as a saved trace carries it: the trace format writes the grid launched, not 0 for "sized".
bool same_schedule(Schedule a, Schedule b) {
    a.grid = a.grid_size();
    b.grid = b.grid_size();
    return a == b;
}

}  // namespace

bool RecordedLesson::any() const {
    return std::any_of(files.begin(), files.end(), [](const std::string& f) { return !f.empty(); });
}

std::string RecordedLesson::label() const {
    return "recorded on " + (device.empty() ? std::string("an unnamed device") : device) + ", " +
           (date.empty() ? std::string("undated") : date.substr(0, 10));
}

std::string recorded_dir(const Lesson& l) {
    return (fs::path(l.file).parent_path() / "recorded" / l.name).string();
}

RecordedLesson find_recorded(const Lesson& l) {
    RecordedLesson r;
    r.dir = recorded_dir(l);
    r.files.resize(l.steps.size());
    std::error_code ec;
    if (!fs::is_directory(r.dir, ec)) return r;
    if (std::ifstream meta(fs::path(r.dir) / "recorded.txt"); meta) {
        std::string line;
        while (std::getline(meta, line)) {
            if (line.rfind("device: ", 0) == 0) r.device = line.substr(8);
            if (line.rfind("date: ", 0) == 0) r.date = line.substr(6);
        }
    } else {
        r.errors.push_back(r.dir + ": no recorded.txt (device and date), so its traces are not shown");
        return r;
    }
    for (size_t k = 0; k < l.steps.size(); ++k) {
        std::string path = step_file(r.dir, k);
        std::error_code exists_ec;
        if (!fs::exists(path, exists_ec)) path += ".gz";  // committed compressed (scripts/gpu-run.sh lessons)
        if (fs::exists(path, exists_ec)) {
            r.files[k] = path;
            continue;
        }
        // A step that runs an earlier step's schedule plays that step's recording (written once).
        for (size_t j = 0; j < k; ++j)
            if (r.has(j) && same_schedule(l.steps[j].schedule, l.steps[k].schedule)) {
                r.files[k] = r.files[j];
                break;
            }
    }
    return r;
}

RecordedStep read_recorded_step(const Lesson& l, const RecordedLesson& r, size_t k) {
    RecordedStep out;
    if (!r.has(k) || k >= l.steps.size()) return out;
    const std::string& path = r.files[k];
    const std::string step = "step " + std::to_string(k + 1);
    try {
        Trace t = read_trace_file(path);
        if (same_schedule(t.schedule, l.steps[k].schedule)) out.trace = std::move(t);
        else
            out.error = path + ": recorded for " + describe(t.schedule) + ", but " + step + " runs " +
                        describe(l.steps[k].schedule) + " (record the lesson again)";
    } catch (const std::exception& ex) {
        out.error = path + ": " + step + "'s recording does not read: " + ex.what();
    }
    std::replace(out.error.begin(), out.error.end(), '\n', ' ');  // one line, whatever the reader said
    return out;
}

std::vector<std::string> record_lesson(const Lesson& l, const ScheduleRunner& run, const std::string& dir,
                                       size_t max_events) {
    std::vector<std::string> lines;
    fs::create_directories(dir);
    std::string device;
    std::vector<size_t> recorded;  // the steps written, each with a schedule no earlier step had
    for (size_t k = 0; k < l.steps.size(); ++k) {
        const LessonStep& st = l.steps[k];
        const std::string what = l.name + " step " + std::to_string(k + 1) + ": ";
        if (!st.emulator_only.empty()) {
            lines.push_back(what + "not recorded (emulator only: " + st.emulator_only + ")");
            continue;
        }
        const auto same = std::find_if(recorded.begin(), recorded.end(),
                                       [&](size_t j) { return same_schedule(l.steps[j].schedule, st.schedule); });
        if (same != recorded.end()) {
            lines.push_back(what + "the schedule of step " + std::to_string(*same + 1) + ", whose recording it plays");
            continue;
        }
        Trace t = run ? run(st.schedule) : emulate(st.schedule);
        if (t.events.size() > max_events) {
            lines.push_back(what + "not recorded (" + std::to_string(t.events.size()) + " events, over " +
                            std::to_string(max_events) + ")");
            continue;
        }
        device = t.device;
        recorded.push_back(k);
        write_file_atomically(step_file(dir, k), [&](std::ostream& out) { write_trace_json(out, t); });
        lines.push_back(what + "recorded on " + t.device + " (" + std::to_string(t.events.size()) + " events)");
    }
    write_file_atomically((fs::path(dir) / "recorded.txt").string(), "device: " + device + "\ndate: " + utc_now() + "\n");
    return lines;
}

}  // namespace rl
