// tests/lab/test_lesson_player.cpp — a lesson opened once and stepped: the lab follows each step's schedule, trace
// step and event; a step that changes only its input runs again; a missing lesson is one line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "app/lab/startup.h"

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
        CHECK(s.cursor.step == p.played()[k].cursor_step);
        CHECK(s.selected == (p.played()[k].event < s.trace.events.size() ? p.played()[k].event : kNoEvent));
        CHECK(value_of(s.trace) == value_of(p.played()[k].trace));
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
