// tests/lessons/test_exercises.cpp — exercise.toml and a lesson's `exercises` field: the six shipped exercises load
// with their kernel and solution, every one is linked from a lesson, and malformed ones are reported with their place.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unistd.h>

#include "core/exercise.h"
#include "core/lesson.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

// A lessons folder of one's own under the temporary directory, removed at the end of the test.
struct TempLessons {
    fs::path dir = fs::temp_directory_path() / ("rlab-exercises-" + std::to_string(::getpid()));
    TempLessons() { fs::create_directories(dir / "exercises"); }
    ~TempLessons() { fs::remove_all(dir); }
    void write(const fs::path& rel, const std::string& text) const {
        fs::create_directories((dir / rel).parent_path());
        std::ofstream(dir / rel) << text;
    }
};

const char* kGoodToml = "title = \"t\"\ntask = \"do it\"\nhint = \"look\"\nrun = [\"--n\", \"8\"]\nhazard = \"shared-memory-race\"\n";

}  // namespace

TEST_CASE("the shipped exercises load, each with its files, and every one is linked from a lesson") {
    std::vector<LessonError> errors;
    const std::vector<Exercise> all = load_exercises(RLAB_LESSONS_SOURCE, errors);
    for (const LessonError& e : errors) CAPTURE(e.str());
    CHECK(errors.empty());
    CHECK(all.size() >= 6);
    const std::set<std::string> want{"partial-warp-mask", "uninitialised-tail", "missing-barrier",
                                     "wrong-identity", "descending-order", "shuffle-in-branch"};
    std::set<std::string> linked, names;
    for (const Exercise& ex : all) {
        names.insert(ex.name);
        CHECK(fs::is_regular_file(ex.kernel_file()));
        CHECK(fs::is_regular_file(ex.solution_file()));
        CHECK(!ex.task.empty());
        CHECK(!ex.hint.empty());
        CHECK(!ex.run.empty());
        // Plain CUDA as nvcc takes it (issue 32): a student edits the code they would compile, not the lab's dialect.
        for (const std::string& file : {ex.kernel_file(), ex.solution_file()}) {
            CAPTURE(file);
            std::ifstream in(file);
            const std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            CHECK(code.find("__global__ void ") != std::string::npos);
            CHECK(code.find("RL_KERNEL") == std::string::npos);
            CHECK(code.find("rlab/kernel.h") == std::string::npos);
            CHECK(code.find("rl::") == std::string::npos);
        }
        for (const std::string* text : {&ex.task, &ex.hint}) CHECK(text->find("rl::") == std::string::npos);
    }
    for (const std::string& w : want) CHECK(names.count(w) == 1);
    CHECK(names.size() == want.size());
    const LessonSet set = load_lessons(RLAB_LESSONS_SOURCE);
    for (const Lesson& l : set.lessons) linked.insert(l.exercises.begin(), l.exercises.end());
    for (const std::string& n : names) {
        CAPTURE(n);
        CHECK(linked.count(n) == 1);
    }
}

namespace {

// What each exercise's task tells the student about the run (0: the task does not say).
struct TaskSays {
    const char* name;
    uint64_t n;
    uint32_t block;
    const char* op;
    bool one_block;
};
// Every exercise is one block: a plain kernel runs once, K<<<grid, block>>>(in, out, n), and leaves block 0's partial in
// out[0], so only a grid of one block makes out[0] the whole reduction (no exercise needs a --launch plan).
const TaskSays kTaskSays[] = {
    {"descending-order", 32, 32, "witness", true},      // "over 32 elements in one warp with --op witness"
    {"missing-barrier", 0, 128, "sum", true},           // "A block of 128 threads"
    {"partial-warp-mask", 40, 40, "sum", true},         // "The block has 40 threads", "the sum of 1..40"
    {"shuffle-in-branch", 40, 64, "sum", true},         // "40 elements, one block of 64 threads"
    {"uninitialised-tail", 40, 64, "sum", true},        // "40 elements, one block of 64 threads"
    {"wrong-identity", 12, 32, "max", true},            // "the largest of twelve numbers ... one warp of 32 lanes"
};

}  // namespace

TEST_CASE("each exercise's run flags form a valid schedule that matches its task") {
    std::vector<LessonError> errors;
    const std::vector<Exercise> all = load_exercises(RLAB_LESSONS_SOURCE, errors);
    REQUIRE(errors.empty());
    REQUIRE(all.size() == std::size(kTaskSays));
    // The flags a student's kernel takes (rlab run): sizes, the input and the operator.
    const std::set<std::string> student_flags{"n", "block", "grid", "input", "seed", "op"};
    for (const TaskSays& want : kTaskSays) {
        CAPTURE(want.name);
        auto ex = std::find_if(all.begin(), all.end(), [&](const Exercise& e) { return e.name == want.name; });
        REQUIRE(ex != all.end());
        REQUIRE(ex->run.size() % 2 == 0);
        Schedule s;
        std::set<std::string> given;
        for (size_t i = 0; i < ex->run.size(); i += 2) {
            const std::string& flag = ex->run[i];
            REQUIRE(flag.rfind("--", 0) == 0);
            const std::string field = flag.substr(2);
            CAPTURE(flag);
            CHECK(student_flags.count(field) == 1);
            CHECK(given.insert(field).second);
            CHECK(set_field(s, field, ex->run[i + 1]) == "");
        }
        CHECK(validate(s) == "");
        if (want.n) CHECK(s.n == want.n);
        if (want.block) CHECK(s.block == want.block);
        CHECK(to_string(s.op) == want.op);
        const uint64_t blocks = s.grid ? s.grid : (s.n + uint64_t(s.block) * s.items - 1) / (uint64_t(s.block) * s.items);
        if (want.one_block) CHECK(blocks == 1);
    }
    // wrong-identity: "all of them negative", so the maximum is negative and a zero identity shows.
    auto wi = std::find_if(all.begin(), all.end(), [](const Exercise& e) { return e.name == "wrong-identity"; });
    REQUIRE(wi != all.end());
    Schedule s;
    for (size_t i = 0; i + 1 < wi->run.size(); i += 2) REQUIRE(set_field(s, wi->run[i].substr(2), wi->run[i + 1]) == "");
    REQUIRE(s.input.values.size() == s.n);
    for (double v : s.input.values) CHECK(v < 0);
}

TEST_CASE("a malformed exercise is reported with its file and place") {
    TempLessons t;
    t.write("exercises/ok/exercise.toml", kGoodToml);
    t.write("exercises/ok/kernel.cu", "");
    t.write("exercises/ok/solution.cu", "");
    std::vector<LessonError> errors;
    REQUIRE(load_exercise(t.dir.string(), "ok", errors));
    CHECK(errors.empty());

    t.write("exercises/bad/exercise.toml", std::string(kGoodToml) + "colour = \"red\"\n");
    t.write("exercises/bad/kernel.cu", "");
    CHECK(!load_exercise(t.dir.string(), "bad", errors));
    REQUIRE(errors.size() == 2);  // the unknown key, and the missing solution.cu
    CHECK(errors[0].line == 6);
    CHECK(errors[0].what.find("unknown field 'colour'") != std::string::npos);
    CHECK(errors[1].file.find("solution.cu") != std::string::npos);

    errors.clear();
    t.write("exercises/kind/exercise.toml", "title = \"t\"\ntask = \"x\"\nhint = \"y\"\nhazard = \"no-such-hazard\"\n");
    CHECK(!load_exercise(t.dir.string(), "kind", errors));
    REQUIRE(!errors.empty());
    CHECK(errors[0].line == 4);
    CHECK(errors[0].what.find("hazard kind") != std::string::npos);

    // run holds rlab run's flags for a kernel, each with its value: a display flag or a lone flag is an error.
    t.write("exercises/flags/kernel.cu", "");
    t.write("exercises/flags/solution.cu", "");
    errors.clear();
    t.write("exercises/flags/exercise.toml", "title = \"t\"\ntask = \"x\"\nhint = \"y\"\nrun = [\"--n\", \"8\", \"--backend\", \"cuda\"]\nhazard = \"shared-memory-race\"\n");
    CHECK(!load_exercise(t.dir.string(), "flags", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 4);
    CHECK(errors[0].what.find("'--backend' is not one an exercise takes") != std::string::npos);
    errors.clear();
    t.write("exercises/flags/exercise.toml", "title = \"t\"\ntask = \"x\"\nhint = \"y\"\nrun = [\"--block\", \"8\", \"--n\"]\nhazard = \"shared-memory-race\"\n");
    CHECK(!load_exercise(t.dir.string(), "flags", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].what.find("'--n' has no value") != std::string::npos);
    errors.clear();
    t.write("exercises/flags/exercise.toml", "title = \"t\"\ntask = \"x\"\nhint = \"y\"\nrun = [\"--n\", \"64\", \"--launch\", \"k<<<2, 32>>>(in, tmp, n); k<<<1, 32>>>(tmp, out, 2)\"]\nhazard = \"shared-memory-race\"\n");
    CHECK(load_exercise(t.dir.string(), "flags", errors));  // a plain exercise of several blocks: a plan with tmp
    CHECK(errors.empty());

    errors.clear();
    CHECK(!load_exercise(t.dir.string(), "../ok", errors));  // a name never leaves the folder
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].what.find("no exercise name") != std::string::npos);
}

TEST_CASE("a lesson that links an exercise that is not there is an error of the lesson set") {
    TempLessons t;
    t.write("one.toml", "title = \"One\"\nexercises = [\"missing\"]\n[schedule]\nn = 8\n[[step]]\ntext = \"x\"\n");
    const LessonSet set = load_lessons(t.dir.string());
    bool found = false;
    for (const LessonError& e : set.errors) found = found || e.what.find("exercise 'missing'") != std::string::npos;
    CHECK(found);
    std::vector<LessonError> errors;
    CHECK(!parse_lesson("title = \"T\"\nexercises = \"one\"\n[schedule]\n[[step]]\ntext = \"x\"\n", "t", "t.toml", errors));
    REQUIRE(!errors.empty());
    CHECK(errors[0].what.find("'exercises' expects a list") != std::string::npos);
}
