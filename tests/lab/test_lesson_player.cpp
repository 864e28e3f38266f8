// tests/lab/test_lesson_player.cpp — a lesson opened once and stepped: the lab follows each step's schedule, trace
// step and event; a step that changes only its input runs again; a missing lesson is one line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include "app/lab/startup.h"
#include "core/course.h"

using namespace rl;
using namespace rl::lab;

namespace {

// RLAB_LESSONS_DIR for one test: the project's lessons, or a folder of the test's own.
struct LessonsDir {
    explicit LessonsDir(const std::string& dir) { setenv("RLAB_LESSONS_DIR", dir.c_str(), 1); }
    ~LessonsDir() { unsetenv("RLAB_LESSONS_DIR"); }
};

std::string value_of(const Trace& t) { return format_value(t.schedule.op, t.schedule.type, t.result_value); }

Options cpu_options() {
    Options o;
    o.backend_choice = BackendChoice::Cpu;
    o.bench_file = std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json";
    return o;
}

// Starts the lab bench on lesson `name` of the project's lessons (the caller keeps RLAB_LESSONS_DIR set).
void start_on(LabState& s, const std::string& name) {
    Options o = cpu_options();
    o.lesson = name;
    REQUIRE(start_lab_bench(s, o) == "");
}

}  // namespace

TEST_CASE("lesson player: each step of eight-threads puts the lab at that step's place") {
    LessonsDir dir(std::string(RLAB_SOURCE_DIR) + "/lessons");
    LabState s;
    Options o = cpu_options();
    o.lesson = "eight-threads";
    REQUIRE(start_lab_bench(s, o) == "");
    const LessonPlayer& p = s.lesson;
    REQUIRE(p.active());
    REQUIRE(p.size() == p.lesson().steps.size());
    REQUIRE(p.size() >= 4);
    for (size_t k = 0; k < p.size(); ++k) {
        s.lesson.go(s, k);
        CAPTURE(k);
        CHECK(p.current() == k);
        CHECK(s.schedule == p.lesson().steps[k].schedule);
        CHECK(s.cursor.step == p.step().cursor_step);
        CHECK(s.selected == (p.step().event < s.trace.events.size() ? p.step().event : kNoEvent));
        CHECK(value_of(s.trace) == value_of(p.step().trace));
    }
    s.lesson.go(s, 999);  // clamped to the last step
    CHECK(p.current() == p.size() - 1);
    CHECK(value_of(s.trace) == "36");  // 1 + 2 + ... + 8, the lesson's own input
}

TEST_CASE("lesson player: a step that changes only its input shows that input's trace") {
    const std::filesystem::path dir = std::filesystem::path(RLAB_TEST_TMP) / "lessons-input-only";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "input-only.toml") << R"(title = "input only"
[schedule]
n = 8
block = 8
type = "i32"
input = [1, 2, 3, 4, 5, 6, 7, 8]
[[step]]
at = "start"
text = "the first input"
[[step]]
at = "start"
schedule = { input = [10, 20, 30, 40, 50, 60, 70, 80] }
text = "the same schedule on another input"
)";
    LessonsDir env(dir.string());
    LabState s;
    Options o = cpu_options();
    o.lesson = "input-only";
    REQUIRE(start_lab_bench(s, o) == "");
    CHECK(value_of(s.trace) == "36");
    s.lesson.go(s, 1);
    CHECK(s.trace.inputs.front() == 10);
    CHECK(value_of(s.trace) == "360");
    s.lesson.go(s, 0);
    CHECK(value_of(s.trace) == "36");
}

TEST_CASE("lesson player: a lesson that is not there is one line naming --lesson, and nothing opens") {
    LessonsDir dir(std::string(RLAB_SOURCE_DIR) + "/lessons");
    LessonPlayer p;
    const std::string err = p.open("no-such-lesson");
    CHECK(err.rfind("--lesson no-such-lesson: ", 0) == 0);
    CHECK(err.find('\n') == std::string::npos);
    CHECK_FALSE(p.active());
    LabState s;
    Options o = cpu_options();
    o.lesson = "no-such-lesson";
    CHECK(start_lab_bench(s, o) == err);
}

TEST_CASE("lesson player: the lab bench's course list follows lessons/course.txt and names the next lesson") {
    LessonsDir dir(std::string(RLAB_SOURCE_DIR) + "/lessons");
    LabState s;
    start_on(s, "eight-threads");
    const Course course = load_course(std::string(RLAB_SOURCE_DIR) + "/lessons");
    REQUIRE(course.found);
    const auto& list = s.lesson.course();
    REQUIRE(list.size() == course.order.size());
    for (size_t i = 0; i < list.size(); ++i) CHECK(list[i].name == course.order[i]);
    CHECK(list.front().name == "eight-threads");
    CHECK(s.lesson.next_lesson() == course.order[1]);
    // The last lesson of the course has no next one.
    REQUIRE(s.lesson.open(course.order.back()) == "");
    CHECK(s.lesson.next_lesson().empty());
}

TEST_CASE("lesson player: a pick is graded against the answer, with the explanation; stepping clears it") {
    LessonsDir dir(std::string(RLAB_SOURCE_DIR) + "/lessons");
    LabState s;
    start_on(s, "eight-threads");
    LessonPlayer& p = s.lesson;
    p.go(s, p.size() - 1);  // the step with the knowledge check
    const PlayedStep& step = p.step();
    REQUIRE(step.choices.size() >= 2);
    const std::optional<size_t> right = answer_index(step);
    REQUIRE(right);
    CHECK_FALSE(p.grade());
    CHECK_FALSE(p.pick(step.choices.size()));  // no such choice (key 4 on a three-choice check)
    REQUIRE(p.pick(*right));
    CHECK(p.grade()->correct);
    CHECK(p.grade()->explanation == step.explanation);
    CHECK_FALSE(step.explanation.empty());
    REQUIRE(p.pick((*right + 1) % step.choices.size()));
    CHECK_FALSE(p.grade()->correct);
    CHECK(p.grade()->verdict.find(step.answer) != std::string::npos);
    p.go(s, 0);
    CHECK_FALSE(p.picked);
}

TEST_CASE("lesson player: a step's recorded GPU trace plays labelled with device and date, time view included") {
    // The H200's trace of the eight-thread example (docs/gpu/traces) as the recording of a one-step lesson.
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(RLAB_TEST_TMP) / "lessons-recorded";
    fs::remove_all(dir);
    fs::create_directories(dir / "recorded" / "on-gpu");
    std::ofstream(dir / "on-gpu.toml") << R"(title = "on a GPU"
[schedule]
n = 8
block = 8
type = "f32"
input = "iota"
[[step]]
at = "level 1"
text = "the first level, {combines_here} combines"
[step.expect]
combines_here = 4
[[step]]
at = "end"
schedule = { type = "i32" }
text = "not recorded"
)";
    fs::copy_file(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json", dir / "recorded" / "on-gpu" / "step-1.json");
    std::ofstream(dir / "recorded" / "on-gpu" / "recorded.txt") << "device: NVIDIA H200\ndate: 2026-12-01T10:00Z\n";
    LessonsDir env(dir.string());
    LabState s;
    start_on(s, "on-gpu");
    LessonPlayer& p = s.lesson;
    REQUIRE(p.recorded().errors.empty());
    REQUIRE(p.recorded().any());
    CHECK(p.recorded().label() == "recorded on NVIDIA H200, 2026-12-01");
    CHECK(p.recorded_trace(0) != nullptr);
    CHECK(p.recorded_trace(1) == nullptr);
    CHECK_FALSE(p.showing_recorded());
    CHECK(s.trace.times.empty());  // the emulator's trace first
    p.show_recorded = true;
    p.go(s, 0);
    CHECK(p.showing_recorded());
    CHECK(s.trace.device.find("H200") != std::string::npos);
    CHECK(s.cursor.step == p.step().cursor_step);
    CHECK(s.set_time_view(true));  // the per-warp time view: GPU timestamps
    CHECK(s.set_time_view(false));
    p.go(s, 1);  // not recorded: the emulator's trace again
    CHECK_FALSE(p.showing_recorded());
    CHECK(s.trace.device.find("H200") == std::string::npos);
    // A recording for another schedule (the lesson changed since) is refused when its step plays, naming the file.
    fs::copy_file(dir / "recorded" / "on-gpu" / "step-1.json", dir / "recorded" / "on-gpu" / "step-2.json");
    REQUIRE(p.open("on-gpu") == "");
    CHECK(p.recorded().errors.empty());
    CHECK(p.recorded_trace(1) == nullptr);
    CHECK(p.recorded_error().find("step-2.json: recorded for") != std::string::npos);
}

TEST_CASE("lesson player: recorded GPU traces are read one step at a time, one held, a bad file named at its step") {
    // Twelve steps of one schedule, each with its own recording (the H200's eight-thread trace, each copy naming its
    // step in the device string, so the trace shown can only have come from that step's file); step 7's is broken.
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(RLAB_TEST_TMP) / "lessons-recorded-lazy";
    fs::remove_all(dir);
    const fs::path rec = dir / "recorded" / "many";
    fs::create_directories(rec);
    constexpr size_t kSteps = 12, kBad = 6;
    std::string lesson = "title = \"many recorded steps\"\n[schedule]\nn = 8\nblock = 8\ntype = \"f32\"\ninput = \"iota\"\n";
    for (size_t k = 0; k < kSteps; ++k) lesson += "[[step]]\nat = \"end\"\ntext = \"step " + std::to_string(k + 1) + "\"\n";
    std::ofstream(dir / "many.toml") << lesson;
    std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json");
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string device = "NVIDIA H200 (driver 13.0, CUDA runtime 13.0)";
    REQUIRE(json.find(device) != std::string::npos);
    for (size_t k = 0; k < kSteps; ++k) {
        std::string mine = json;
        mine.replace(mine.find(device), device.size(), "NVIDIA H200 recording #" + std::to_string(k + 1));
        if (k == kBad) mine = mine.substr(0, mine.size() / 2);  // cut in the middle of the events
        std::ofstream(rec / ("step-" + std::to_string(k + 1) + ".json")) << mine;
    }
    std::ofstream(rec / "recorded.txt") << "device: NVIDIA H200\ndate: 2026-12-01T10:00Z\n";
    LessonsDir env(dir.string());
    LabState s;
    start_on(s, "many");  // opening reads no recording, so the broken one does not stop the lesson
    LessonPlayer& p = s.lesson;
    CHECK(p.recorded().errors.empty());
    CHECK(p.recorded().any());
    CHECK(p.recorded_reads() == 0);
    CHECK(p.recorded_held() == 0);
    p.show_recorded = true;
    size_t reads = 0;
    for (size_t k = 0; k < kSteps; ++k) {
        CAPTURE(k);
        p.go(s, k);
        ++reads;
        CHECK(p.recorded_reads() == reads);  // read when shown, once
        CHECK(p.recorded_step() == k);
        CHECK(p.recorded_held() <= LessonPlayer::kHeldRecorded);
        if (k == kBad) {  // one line naming the file and the step; the emulator's trace is shown instead
            CHECK(p.recorded_held() == 0);
            CHECK_FALSE(p.showing_recorded());
            const std::string& e = p.recorded_error();
            CHECK(e.find("step-7.json: step 7") != std::string::npos);
            CHECK(e.find('\n') == std::string::npos);
            CHECK(s.trace.device.find("H200") == std::string::npos);
            CHECK(s.trace.events.size() > 0);
        } else {
            CHECK(p.recorded_error().empty());
            CHECK(p.showing_recorded());
            CHECK(s.trace.device == "NVIDIA H200 recording #" + std::to_string(k + 1));
        }
    }
    p.go(s, 11);  // the step held: not read again
    CHECK(p.recorded_reads() == reads);
    p.go(s, 2);   // a step shown before was dropped: read again
    CHECK(p.recorded_reads() == reads + 1);
    CHECK(s.trace.device == "NVIDIA H200 recording #3");
    CHECK(p.recorded_held() == 1);
}

TEST_CASE("lesson player: one step at a time, at most two steps held, the text as if every step were played") {
    // Playing every step at open, as the player once did, held every step's trace (a lesson of 64 steps of
    // n = 65,536 each, within the limits, held 64); now the shown step and the one before, each played when shown.
    const std::filesystem::path dir = std::filesystem::path(RLAB_TEST_TMP) / "lessons-one-step";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "big-steps.toml") << R"(title = "big steps"
[schedule]
n = 262144
block = 256
items = 16
type = "i32"
input = "iota"
[[step]]
at = "result"
text = "sum {result}"
[[step]]
at = "result"
schedule = { block = 128 }
text = "sum {result}, before {prev_result}, span {span} after {prev_span}"
[[step]]
at = "result"
schedule = { block = 512 }
text = "span {span} after {prev_span}"
[[step]]
at = "result"
schedule = { block = 64 }
text = "span {span} after {prev_span}"
)";
    std::vector<LessonError> errors;
    const std::optional<Lesson> lesson = load_lesson_file((dir / "big-steps.toml").string(), errors);
    REQUIRE(lesson);
    LessonPlayer p;
    REQUIRE(p.open_file((dir / "big-steps.toml").string()) == "");
    CHECK(p.plays() == 1);  // opening plays the first step only
    CHECK(p.held_steps() == std::vector<size_t>{0});
    CHECK(p.step().trace.events.size() > 262144);
    // The text of every step as playing the lesson from its start gives it (core's player, independently).
    std::vector<std::string> expected;
    play_lesson_steps(*lesson, nullptr, [&](size_t, const PlayedStep& ps) { expected.push_back(ps.narrative); });
    REQUIRE(expected.size() == 4);
    // Step 3 needs steps 1 and 2 first (their quantities, for prev_*); a held step plays nothing again.
    const std::vector<size_t> visits = {3, 2, 3, 0, 1, 1, 2};
    const size_t plays_expected[] = {4, 5, 5, 6, 7, 7, 8};
    for (size_t v = 0; v < visits.size(); ++v) {
        const size_t k = visits[v];
        CAPTURE(k);
        p.show(k);
        CHECK(p.current() == k);
        CHECK(p.plays() == plays_expected[v]);
        const std::vector<size_t> held = p.held_steps();
        CHECK(held.size() <= LessonPlayer::kHeldSteps);
        CHECK(std::find(held.begin(), held.end(), k) != held.end());
        CHECK(p.step().narrative == expected[k]);
        CHECK(p.step().narrative.find('?') == std::string::npos);  // every prev_* found
    }
}
