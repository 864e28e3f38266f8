// tests/test_hardening.cpp — issue 19 in core: bounded readers (nesting, size, special files, launch geometry,
// operand DAG), checked atomic writes, and the exact reference with infinities and overflow in linear time.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include "core/emulator.h"
#include "core/exact_sum.h"
#include "core/file_io.h"
#include "core/lesson.h"
#include "core/lesson_recorded.h"
#include "core/limits.h"
#include "core/trace_io.h"
#include "support/helpers.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

std::string mutated(const std::function<void(nlohmann::ordered_json&)>& fn) {
    auto j = nlohmann::ordered_json::parse(test::eight_threads_json());
    fn(j);
    return test::trace_json_error(j.dump());
}

std::string data(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/data/hostile/" + name; }

std::string file_error(const std::string& path) {
    return test::thrown_error([&] { read_trace_file(path); });
}

}  // namespace

TEST_CASE("trace reader: the committed hostile traces are refused with the reason named") {
    CHECK(file_error(data("trace-step-65535.json")).find("\"step\" is 65535, at most 65534") != std::string::npos);
    CHECK(file_error(data("trace-step-past-count.json")).find("not below \"step_count\" 5") != std::string::npos);
    CHECK(file_error(data("trace-dep-self.json")).find("event 20 names itself") != std::string::npos);
    CHECK(file_error(data("trace-dep-cycle.json")).find("event 10 operand 30 points to a later event") != std::string::npos);
    CHECK(file_error(data("trace-dep-forward.json")).find("event 20 operand 32 points to a later event") != std::string::npos);
    CHECK(file_error(data("trace-block-past-grid.json")).find("event 3 \"block\" is 7") != std::string::npos);
    CHECK(file_error(data("trace-thread-past-block.json")).find("event 3 is thread 20 of a block of 8") != std::string::npos);
    CHECK(file_error(data("trace-hazard-outside.json")).find("hazard 0 names block 9") != std::string::npos);
    CHECK(file_error(data("trace-grid-mismatch.json")).find("\"grid\" is 3") != std::string::npos);
    CHECK(file_error(data("trace-times-partial.json")).find("on every event or on none") != std::string::npos);
}

TEST_CASE("trace reader: every recorded GPU trace reads (rewritten once so that operands point earlier)") {
    size_t read = 0;
    for (const auto& dir : {"/tests/data/gpu-corpus", "/docs/gpu/traces", "/lessons/recorded"})
        for (const auto& f : fs::recursive_directory_iterator(std::string(RLAB_SOURCE_DIR) + dir))
            if (f.path().extension() == ".json" || f.path().string().ends_with(".json.gz")) {
                INFO(f.path().string());
                CHECK(file_error(f.path().string()) == "");
                ++read;
            }
    // Every file is a recording some manifest owns: each corpus file a line of the corpus's recorded.txt that says
    // "ok", each lesson file the recording of a lesson step whose schedule it holds (read_recorded_step refuses a
    // file recorded for another schedule), and the two traces docs/gpu/traces shows.
    size_t corpus_ok = 0;
    std::ifstream manifest(std::string(RLAB_SOURCE_DIR) + "/tests/data/gpu-corpus/recorded.txt");
    for (std::string line; std::getline(manifest, line);)
        if (line.find(" ok ") != std::string::npos) ++corpus_ok;
    std::set<std::string> lesson_files;
    const LessonSet set = load_lessons(std::string(RLAB_SOURCE_DIR) + "/lessons");
    CHECK(set.errors.empty());
    for (const Lesson& l : set.lessons) {
        const RecordedLesson r = find_recorded(l);
        for (size_t k = 0; k < r.files.size(); ++k) {
            if (!r.has(k)) continue;
            INFO(l.name << " step " << k + 1 << ": " << r.files[k]);
            CHECK(read_recorded_step(l, r, k).error == "");
            lesson_files.insert(fs::path(r.files[k]).filename().string() + "@" + l.name);
        }
    }
    CHECK(corpus_ok >= 50);
    CHECK(lesson_files.size() >= 50);
    CHECK(read == corpus_ok + 2 + lesson_files.size());
}

TEST_CASE("trace reader: nesting, special files, folders and sizes are bounded before parsing") {
    std::string deep = test::eight_threads_json();
    const std::string nest = std::string(100000, '[') + std::string(100000, ']');
    deep.replace(deep.find("\"bug\": []"), 9, "\"bug\": " + nest);
    CHECK(test::trace_json_error(deep).find("nested deeper than 64") != std::string::npos);
    CHECK(test::trace_json_error("{\"version\":1,\"events\":[{},{}]}").find("event 0 has no \"kind\"") != std::string::npos);
    CHECK(file_error("/dev/zero").find("not a regular file") != std::string::npos);
    CHECK(file_error(RLAB_SOURCE_DIR).find("is a folder") != std::string::npos);
    CHECK(file_error("/no/such/file.json").find("cannot open") != std::string::npos);
    // Messages stay one line, whatever the file held.
    const std::string nl = mutated([](auto& j) { j["events"][2]["kind"] = "a\nb"; });
    CHECK(nl.find("a\\nb") != std::string::npos);
    CHECK(nl.find('\n') == std::string::npos);
}

TEST_CASE("nesting scans: JSON and TOML depth as the parsers would recurse") {
    CHECK(json_nesting_depth("{\"a\": [1, {\"b\": \"[[[[\"}]}", 64) == 3);  // brackets in strings do not count
    CHECK(json_nesting_depth(std::string(70, '['), 64) == 65);               // stops counting past the limit
    CHECK(toml_nesting_depth("title = \"x\"\n[schedule]\nn = 8\n[[step]]\ntext = \"a.b.c [[[\"\n", 32) == 1);
    CHECK(toml_nesting_depth("x = 1.5\nschedule = { grid-stage = \"atomic-block\" }\n", 32) == 2);
    CHECK(toml_nesting_depth("a.b.c = 1\n", 32) == 3);
    CHECK(toml_nesting_depth("[a.b.c.d]\n", 32) == 4);
    CHECK(toml_nesting_depth("v = [[1], [2, [3]]]\n", 32) == 4);
    CHECK(toml_nesting_depth("# [[[[[[\ns = '''[[[[\n[[[['''\n", 32) == 0);
    std::string lessons_deepest;
    for (const auto& f : fs::directory_iterator(std::string(RLAB_SOURCE_DIR) + "/lessons"))
        if (f.path().extension() == ".toml") {
            std::ifstream in(f.path());
            std::stringstream ss;
            ss << in.rdbuf();
            CHECK(toml_nesting_depth(ss.str(), limits::kTomlDepth) <= 3);
        }
}

TEST_CASE("lessons: nesting, step count, n and type errors are refused with what was expected") {
    auto errors_of = [](const std::string& text) {
        std::vector<LessonError> errors;
        auto l = parse_lesson(text, "x", "x.toml", errors);
        std::string all;
        for (auto& e : errors) all += e.what + "|";
        return std::make_pair(l.has_value(), all);
    };
    std::string dotted = "title = \"x\"\n";
    for (int i = 0; i < 50000; ++i) dotted += "a.";
    dotted += "a = 1\n";
    CHECK(errors_of(dotted).second.find("nested deeper than 32") != std::string::npos);
    std::string header = "title = \"x\"\n[";
    for (int i = 0; i < 50000; ++i) header += "a.";
    header += "a]\n";
    CHECK(errors_of(header).second.find("nested deeper than 32") != std::string::npos);
    const auto n_true = errors_of("title = \"x\"\n[schedule]\nn = true\nblock = 8\n[[step]]\ntext = \"a\"\n");
    CHECK(!n_true.first);
    CHECK(n_true.second.find("'n': expected a whole number") != std::string::npos);
    std::vector<LessonError> errors;
    CHECK(!load_lesson_file(data("lesson-200-steps.toml"), errors));
    REQUIRE(!errors.empty());
    CHECK(errors.back().what.find("200 steps: a lesson has at most 64") != std::string::npos);
    errors.clear();
    CHECK(!load_lesson_file(data("lesson-big-n.toml"), errors));
    REQUIRE(!errors.empty());
    CHECK(errors.back().what.find("elements a lesson step may show") != std::string::npos);
    errors.clear();
    CHECK(!load_lesson_file("/dev/zero", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].what.find("not a regular file") != std::string::npos);
}

TEST_CASE("exact sum: infinities and overflow give the IEEE result, in linear time") {
    ExactSum over;
    for (int i = 0; i < 3; ++i) over.add(1e308);
    CHECK(over.rounded() == INFINITY);
    CHECK(over.residual() == 0.0);
    ExactSum back;  // overflowing on the way, back in range at the end: exact, no inf
    back.add(1e308), back.add(1e308), back.add(-1e308), back.add(1.0);
    CHECK(back.rounded() == 1e308);
    ExactSum edge;  // DBL_MAX + half an ulp rounds to +inf (ties to even: DBL_MAX is odd), just below stays
    edge.add(std::numeric_limits<double>::max()), edge.add(0x1.0p970);
    CHECK(edge.rounded() == INFINITY);
    ExactSum below;
    below.add(std::numeric_limits<double>::max()), below.add(0x1.0p969);
    CHECK(below.rounded() == std::numeric_limits<double>::max());
    ExactSum mixed;
    mixed.add(INFINITY), mixed.add(-INFINITY);
    CHECK(std::isnan(mixed.rounded()));
    ExactSum neg;
    neg.add(-INFINITY), neg.add(5.0);
    CHECK(neg.rounded() == -INFINITY);
    ExactSum tiny;  // the usual exactness is kept next to large values
    tiny.add(0x1.0p950), tiny.add(1.0), tiny.add(-0x1.0p950);
    CHECK(tiny.rounded() == 1.0);
    // A million infinite inputs cost what a million finite ones do (it was quadratic: a NaN partial per input).
    const auto t0 = std::chrono::steady_clock::now();
    ExactSum many;
    for (int i = 0; i < 1000000; ++i) many.add(i % 2 ? INFINITY : 1.0);
    CHECK(many.rounded() == INFINITY);
    CHECK(many.partials().size() <= 2);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

TEST_CASE("the f64 overflow the tree also reaches is exact, not wrong") {
    Schedule s;
    s.type = DType::F64;
    s.block = 32;
    s.input.kind = InputKind::Values;
    s.input.values = {1e308, 1e308, 1e308};
    s.n = 3;
    Trace t = emulate(s);
    CHECK(t.reference_exact == INFINITY);
    CHECK(analyze(t).verdict == Verdict::Exact);
}

TEST_CASE("atomic writes: the whole file or nothing, and errors say so in one line") {
    const std::string dir = fs::temp_directory_path() / ("rlab-write-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = dir + "/out.txt";
    write_file_atomically(path, std::string_view("hello\n"));
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    CHECK(line == "hello");
    // A writer that fails half-way leaves the old file and no temporary.
    CHECK_THROWS_AS(write_file_atomically(path, [](std::ostream& out) { out << "partial"; throw Error("stop"); }), Error);
    std::ifstream again(path);
    std::getline(again, line);
    CHECK(line == "hello");
    size_t files = 0;
    for (const auto& f : fs::directory_iterator(dir)) files += f.is_regular_file();
    CHECK(files == 1);
    const std::string full = test::thrown_error([] { write_file_atomically("/dev/full", std::string_view("x")); });
    CHECK(full.find("No space left") != std::string::npos);
    CHECK(test::thrown_error([&] { write_file_atomically(dir, std::string_view("x")); }).find("is a folder") != std::string::npos);
    CHECK(test::thrown_error([] { write_file_atomically("/no/such/dir/x", std::string_view("x")); }).find("cannot create") !=
          std::string::npos);
    fs::remove_all(dir);
    CHECK(one_line("a\nb\tc\x1b") == "a\\nb\\tc\\x1b");
}
