// tests/lessons/test_lessons.cpp — lessons load, play to the end with every expectation holding, report bad files
// with file:line:column without stopping the others, and fill their numbers from the trace.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "codegen/lesson_lines.h"
#include "core/emulator.h"
#include "core/lesson.h"
#include "core/lesson_bench.h"
#include "core/quiz.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {

const char* kGood = R"(title = "Tiny"
[schedule]
n = 8
block = 8
[[step]]
at = "end"
text = "sum {result}, depth {span} of {serial_depth}"
[step.expect]
span = "tree_depth"
)";

fs::path temp_dir(const char* name) {
    fs::path d = fs::temp_directory_path() / (std::string("rlab_lessons_") + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// Loads one lesson from text; returns the errors.
std::vector<LessonError> errors_of(const std::string& text) {
    std::vector<LessonError> errs;
    auto l = parse_lesson(text, "x", "x.toml", errs);
    CHECK_FALSE(l.has_value());
    return errs;
}

}  // namespace

TEST_CASE("every lesson in lessons/ loads, in the order course.txt lists them") {
    LessonSet set = load_lessons(RLAB_LESSONS_SOURCE);
    for (auto& e : set.errors) FAIL_CHECK(e.str());
    // The course file read here line by line: one name a line, # starts a comment, blank lines skipped.
    std::vector<std::string> course;
    std::ifstream in(fs::path(RLAB_LESSONS_SOURCE) / "course.txt");
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        line.erase(0, line.find_first_not_of(" \t\r"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        if (!line.empty()) course.push_back(line);
    }
    CHECK(course.size() >= 9);
    std::vector<std::string> loaded;
    for (auto& l : set.lessons) {
        CHECK_FALSE(l.title.empty());
        CHECK_FALSE(l.steps.empty());
        loaded.push_back(l.name);
    }
    CHECK(loaded == course);
}

// {line:SITE} placeholders look the line up in the generated source: installed once, as rlab and the front ends do.
const bool lesson_lines_installed = (rl::install_lesson_lines(), true);

TEST_CASE("every lesson plays to the end on the emulator and every expectation holds") {
    LessonSet set = load_lessons(RLAB_LESSONS_SOURCE);
    size_t checked = 0;
    for (auto& l : set.lessons) {
        auto played = play_lesson(l);
        REQUIRE(played.size() == l.steps.size());
        for (size_t k = 0; k < played.size(); ++k) {
            INFO(l.name << " step " << k + 1);
            for (auto& p : played[k].problems) FAIL_CHECK(p);
            for (auto& r : played[k].results) {
                CHECK_MESSAGE(r.ok, r.message);
                ++checked;
            }
            CHECK(played[k].narrative.find('{') == std::string::npos);  // every placeholder filled
            CHECK(played[k].cursor_step < int(played[k].trace.step_count));
        }
    }
    CHECK(checked > 50);
}

TEST_CASE("malformed lessons give file:line:column and what was expected") {
    SUBCASE("missing title") {
        auto errs = errors_of("[schedule]\nn = 8\n[[step]]\ntext = \"x\"\n");
        REQUIRE(!errs.empty());
        CHECK(errs[0].str().find("x.toml:1:1: missing 'title'") == 0);
    }
    SUBCASE("unknown schedule field") {
        auto errs = errors_of("title = \"t\"\n[schedule]\nn = 8\nblokc = 8\n[[step]]\ntext = \"x\"\n");
        REQUIRE(errs.size() == 1);
        CHECK(errs[0].line == 4);
        CHECK(errs[0].column == 1);
        CHECK(errs[0].what.find("unknown schedule field 'blokc'") != std::string::npos);
        CHECK(errs[0].what.find("block") != std::string::npos);
    }
    SUBCASE("bad value") {
        auto errs = errors_of("title = \"t\"\n[schedule]\nn = 8\nop = \"average\"\n[[step]]\ntext = \"x\"\n");
        REQUIRE(errs.size() == 1);
        CHECK(errs[0].line == 4);
        CHECK(errs[0].column == 6);
        CHECK(errs[0].what.find("sum") != std::string::npos);  // names what is allowed
    }
    SUBCASE("TOML syntax error") {
        auto errs = errors_of("title = \"t\"\n[schedule\nn = 8\n");
        REQUIRE(errs.size() == 1);
        CHECK(errs[0].line == 2);
        CHECK(errs[0].column > 0);
        CHECK(errs[0].what.find("TOML syntax") == 0);
    }
    SUBCASE("unknown placeholder and unknown expectation") {
        auto errs = errors_of("title = \"t\"\n[schedule]\nn = 8\n[[step]]\ntext = \"{spam}\"\n[step.expect]\nspna = 3\n");
        REQUIRE(errs.size() == 2);
        const LessonError& ph = errs[0].line == 5 ? errs[0] : errs[1];
        const LessonError& ex = errs[0].line == 5 ? errs[1] : errs[0];
        CHECK(ph.line == 5);
        CHECK(ph.what.find("{spam}") != std::string::npos);
        CHECK(ex.line == 7);
        CHECK(ex.what.find("spna") != std::string::npos);
    }
    SUBCASE("a hazard kind that does not exist") {
        auto errs = errors_of("title = \"t\"\n[schedule]\nn = 8\n[[step]]\ntext = \"x\"\nexpect = { hazard = \"race\" }\n");
        REQUIRE(errs.size() == 1);
        CHECK(errs[0].line == 6);
    }
}

// Each fixture under tests/data/lesson-errors holds one expectation that could never fail; loading it gives
// exactly one error, one line, at the place the expectation is written.
TEST_CASE("an expectation that can never fail is a load error with its file, line and column") {
    const fs::path dir = fs::path(RLAB_LESSONS_SOURCE) / ".." / "tests" / "data" / "lesson-errors";
    auto only_error = [&](const char* name) {
        std::vector<LessonError> errs;
        const std::string path = (dir / name).string();
        CHECK_FALSE(load_lesson_file(path, errs).has_value());
        REQUIRE(errs.size() == 1);
        const std::string line = errs[0].str();
        CHECK(line.find('\n') == std::string::npos);
        CHECK(line.rfind(path + ":", 0) == 0);
        return line.substr(path.size());
    };
    const std::string known_end = ", bench_* as listed in core/lesson_bench.cpp)";
    auto ends_with = [](const std::string& s, const std::string& tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    SUBCASE("an unknown quantity on the right") {
        const std::string m = only_error("unknown-right.toml");
        CHECK(m.rfind(":9:8: unknown quantity 'tree_dpth' (known: n, block, grid, ", 0) == 0);
        CHECK(m.find(" tree_depth,") != std::string::npos);
        CHECK(ends_with(m, known_end));
    }
    SUBCASE("an unknown quantity on the left") {
        const std::string m = only_error("unknown-left.toml");
        CHECK(m.rfind(":8:1: unknown quantity 'spna' (known: n, block, grid, ", 0) == 0);
        CHECK(ends_with(m, known_end));
    }
    SUBCASE("an unknown previous quantity (!= would hold against any text)") {
        const std::string m = only_error("unknown-previous.toml");
        CHECK(m.rfind(":11:10: unknown quantity 'prev_reslt' (known: n, block, grid, ", 0) == 0);
        CHECK(ends_with(m, known_end));
    }
    SUBCASE("a quantity compared with itself") {
        CHECK(only_error("self-comparison.toml") == ":9:8: expectation 'span == span' compares span with itself: it can never fail");
    }
    SUBCASE("a schedule quantity against a number") {
        CHECK(only_error("schedule-literal.toml") ==
              ":8:8: expectation 'grid >= 1' can never fail: grid and 1 are fixed by the schedule, not measured from the "
              "trace (lessons/README.md, Quantities)");
    }
    SUBCASE("two schedule quantities") {
        CHECK(only_error("schedule-both.toml") ==
              ":8:16: expectation 'serial_depth > tree_depth' can never fail: serial_depth and tree_depth are fixed by the "
              "schedule, not measured from the trace (lessons/README.md, Quantities)");
    }
    SUBCASE("a hazard with no place") {
        CHECK(only_error("hazard-no-place.toml") ==
              ":8:10: hazard expectation 'shared-memory-race' names no place: give its step, thread, lane or lanes, e.g. "
              "{ kind = \"shared-memory-race\", step = 3 } (lessons/README.md)");
    }
    SUBCASE("lanes outside a warp") {
        CHECK(only_error("hazard-bad-lanes.toml") ==
              ":8:66: hazard expectation: lanes \"40-63\" is not a set of lanes 0-31 of one warp, such as \"8-31\" or \"0, 4-7\"");
    }
}

TEST_CASE("the words the lab writes as values and texts with spaces or signs stay literal on the right") {
    std::vector<LessonError> errs;
    auto l = parse_lesson(R"(title = "literals"
[schedule]
n = 32
block = 32
type = "i32"
[[step]]
at = "end"
text = "x"
[step.expect]
verdict = "exact"
offsets = "16, 8, 4, 2, 1"
hazard_kinds = "none"
result_bits = "!= undefined"
[[step]]
at = "level 1"
schedule = { n = 8, block = 8 }
text = "y"
[step.expect]
pairs = "x0+x4, x1+x5, x2+x6, x3+x7"
span = "< prev_span"
)", "lit", "lit.toml", errs);
    for (auto& e : errs) FAIL_CHECK(e.str());
    REQUIRE(l);
    auto p = play_lesson(*l);
    for (auto& step : p)
        for (auto& r : step.results) CHECK_MESSAGE(r.ok, r.message);
}

TEST_CASE("a hazard expectation holds only at the place the trace reports it") {
    // 40 elements in a block of 64 with the shuffles inside `if (i < n)`: threads 40-63 exist, skip the shuffle and
    // are named by its full mask. They are warp 1's lanes 40 - 32 = 8 to 31, from the first shuffle (trace step 1).
    const int n = 40, first_lane = n % 32;
    auto check = [&](const std::string& place) {
        std::vector<LessonError> errs;
        auto l = parse_lesson("title = \"places\"\n[schedule]\nn = " + std::to_string(n) +
                                  "\nblock = 64\ntype = \"i32\"\nbug = \"divergent-shuffle\"\n[[step]]\ntext = \"x\"\n"
                                  "[step.expect]\nhazard = { kind = \"mask-names-inactive-lanes\", " + place + " }\n",
                              "p", "p.toml", errs);
        for (auto& e : errs) FAIL_CHECK(e.str());
        REQUIRE(l);
        auto played = play_lesson(*l);
        REQUIRE(played[0].results.size() == 1);
        return played[0].results[0];
    };
    const std::string lanes = std::to_string(first_lane) + "-31";
    CHECK(check("step = 1, warp = 1, lanes = \"" + lanes + "\"").ok);
    CHECK(check("step = 1, block = 0, thread = " + std::to_string(n)).ok);
    CHECK(check("warp = 1, lane = 31").ok);
    CHECK_FALSE(check("step = 0, warp = 1, lanes = \"" + lanes + "\"").ok);               // not before the first shuffle
    CHECK_FALSE(check("step = 1, warp = 0, lanes = \"" + lanes + "\"").ok);               // warp 0 is full
    CHECK_FALSE(check("step = 1, warp = 1, lanes = \"" + std::to_string(first_lane) + "-30\"").ok);  // lanes are exact
    CHECK_FALSE(check("step = 1, thread = " + std::to_string(n - 1)).ok);                 // thread 39 has an element
    CHECK_FALSE(check("step = 1, block = 1, warp = 1, lane = 8").ok);                     // one block only
    const ExpectationResult r = check("step = 1, warp = 0, lane = 8");
    CHECK(r.message.find("mask-names-inactive-lanes at: step 1 block 0 warp 1 lanes " + lanes) != std::string::npos);
}

TEST_CASE("a pair-valued result is compared whole: argmax's index, not only its value") {
    std::vector<LessonError> errs;
    auto l = parse_lesson(R"(title = "argmax"
[schedule]
n = 8
block = 8
type = "i32"
op = "argmax"
input = [3, 9, 4, 1, 9, 2, 9, 6]
[[step]]
at = "end"
text = "{result}"
[step.expect]
result = "reference"
result_bits = "reference_bits"
)", "a", "a.toml", errs);
    REQUIRE(l);
    // The maximum 9 is at indices 1, 4 and 6; the lowest index wins ties.
    auto honest = play_lesson(*l);
    CHECK(honest[0].narrative == "9 @ 1");
    CHECK(honest[0].ok());
    // A run that reports the right value at the wrong index must fail both expectations.
    auto wrong_index = [](const Schedule& s) {
        Trace t = emulate(s);
        t.result_value = (t.result_value & 0xffffffffull) | (uint64_t(4) << 32);
        return t;
    };
    auto p = play_lesson(*l, wrong_index);
    CHECK(p[0].narrative == "9 @ 4");
    REQUIRE(p[0].results.size() == 2);
    CHECK_FALSE(p[0].results[0].ok);
    CHECK_FALSE(p[0].results[1].ok);
}

TEST_CASE("a schedule quantity keeps its value whatever the trace records; measured ones follow the trace") {
    Schedule s;
    REQUIRE(set_field(s, "n", "40").empty());
    REQUIRE(set_field(s, "block", "64").empty());
    REQUIRE(set_field(s, "type", "f32").empty());
    REQUIRE(set_field(s, "input", "uniform").empty());
    const Trace t = emulate(s);
    // The same schedule, a different record: another result, one event and one hazard fewer or more.
    Trace other = t;
    other.result_value ^= 1;
    other.hazards.push_back({HazardKind::SharedMemoryRace, 0, 0, 0, 1u, "planted"});
    other.events.back().value ^= 1;
    const Quantities a = compute_quantities(t, analyze(t), 0, kNoEvent), b = compute_quantities(other, analyze(other), 0, kNoEvent);
    size_t fixed = 0;
    for (const std::string& name : quantity_names()) {
        if (quantity_kind(name) != QuantityKind::Schedule || !a.count(name)) continue;
        CAPTURE(name);
        REQUIRE(b.count(name));
        CHECK(a.at(name).text == b.at(name).text);
        ++fixed;
    }
    CHECK(fixed >= 20);
    for (const char* name : {"result", "result_bits", "hazards", "hazard_kinds"}) {
        CAPTURE(name);
        CHECK(quantity_kind(name) == QuantityKind::Measured);
        CHECK(a.at(name).text != b.at(name).text);
    }
}

TEST_CASE("lessons/README.md lists exactly the schedule quantities the engine classifies as schedule") {
    std::ifstream in(fs::path(RLAB_LESSONS_SOURCE) / "README.md");
    REQUIRE(in);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t from = text.find("- schedule: "), to = text.find("- measured: ", from);
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    std::set<std::string> documented;
    const std::string list = text.substr(from, to - from);
    for (size_t i = list.find('`'); i != std::string::npos; i = list.find('`', list.find('`', i + 1) + 1)) {
        const size_t j = list.find('`', i + 1);
        REQUIRE(j != std::string::npos);
        documented.insert(list.substr(i + 1, j - i - 1));
    }
    std::set<std::string> classified;
    for (const std::string& name : quantity_names())
        if (quantity_kind(name) == QuantityKind::Schedule)
            classified.insert(name.rfind("harris2007_", 0) == 0 ? "harris2007_*" : name);
    CHECK(documented == classified);
}

TEST_CASE("one bad lesson does not stop the others loading") {
    fs::path d = temp_dir("mixed");
    write(d / "a-good.toml", kGood);
    write(d / "b-bad.toml", "title = \"t\"\n[schedule\n");
    write(d / "c-good.toml", kGood);
    write(d / "d-bad.toml", std::string(kGood) + "colour = \"red\"\n");
    LessonSet set = load_lessons(d.string());
    REQUIRE(set.lessons.size() == 2);
    CHECK(set.lessons[0].name == "a-good");
    CHECK(set.lessons[1].name == "c-good");
    REQUIRE(set.errors.size() == 2);
    CHECK(set.errors[0].file.find("b-bad.toml") != std::string::npos);
    CHECK(set.errors[1].file.find("d-bad.toml") != std::string::npos);
    CHECK(set.errors[1].line > 0);
    fs::remove_all(d);
}

TEST_CASE("placeholders are filled from the trace: change the schedule, the text changes") {
    std::vector<LessonError> errs;
    auto a = parse_lesson(kGood, "a", "a.toml", errs);
    std::string bigger = kGood;
    bigger.replace(bigger.find("n = 8"), 5, "n = 32");
    bigger.replace(bigger.find("block = 8"), 9, "block = 32");
    auto b = parse_lesson(bigger, "b", "b.toml", errs);
    REQUIRE(errs.empty());
    auto pa = play_lesson(*a), pb = play_lesson(*b);
    CHECK(pa[0].narrative == "sum 36, depth 3 of 7");
    CHECK(pb[0].narrative == "sum 528, depth 5 of 31");
    CHECK(pa[0].ok());
    CHECK(pb[0].ok());
}

TEST_CASE("a step overrides the schedule and can compare with the previous step") {
    std::vector<LessonError> errs;
    auto l = parse_lesson(R"(title = "cmp"
[schedule]
n = 8
block = 8
[[step]]
text = "{row}"
[[step]]
at = "end"
schedule = { op = "max", input = [3, -1, 4, 1, -5, 9, 2, 6] }
text = "max {result} was {prev_result}"
[step.expect]
result = "!= prev_result"
span = "prev_span"
)", "cmp", "cmp.toml", errs);
    REQUIRE(errs.empty());
    auto p = play_lesson(*l);
    CHECK(p[1].narrative == "max 9 was 36");
    CHECK(p[1].ok());
}

TEST_CASE("a failing expectation says what it expected and what the trace shows") {
    std::vector<LessonError> errs;
    auto l = parse_lesson(R"(title = "wrong"
[schedule]
n = 8
block = 8
[[step]]
text = "x"
[step.expect]
span = "serial_depth"
hazard = { kind = "shared-memory-race", step = 1 }
)", "w", "w.toml", errs);
    REQUIRE(l);
    auto p = play_lesson(*l);
    REQUIRE(p[0].results.size() == 2);
    CHECK_FALSE(p[0].ok());
    for (auto& r : p[0].results) {
        CHECK_FALSE(r.ok);
        CHECK(r.line > 0);
    }
    bool saw_span = false;
    for (auto& r : p[0].results)
        if (r.message.find("span is 3") == 0) saw_span = r.message.find("serial_depth (7)") != std::string::npos;
    CHECK(saw_span);
}

TEST_CASE("an emulator_only step never reaches the GPU runner, and a hung GPU ends the lesson instead of the next step") {
    std::vector<LessonError> errs;
    auto l = parse_lesson(R"(title = "gpu"
[schedule]
n = 8
block = 8
[[step]]
text = "on the runner"
[[step]]
emulator_only = "it deadlocks the GPU"
text = "on the emulator"
[step.expect]
span = "tree_depth"
)", "g", "g.toml", errs);
    REQUIRE(l);
    CHECK(l->steps[1].emulator_only == "it deadlocks the GPU");
    int calls = 0;
    auto played = play_lesson(*l, [&](const Schedule& s) { ++calls; return emulate(s); });
    CHECK(calls == 1);
    CHECK(played[0].played_on_emulator.empty());
    CHECK(played[1].played_on_emulator == "it deadlocks the GPU");
    CHECK(played[1].ok());
    // A runner whose kernel hangs: the error must reach the caller (it ends the process), not be
    // recorded as a step problem after which the next step would wait on the hung device forever.
    calls = 0;
    auto hung = [&](const Schedule&) -> Trace { ++calls; throw DeviceHung("the GPU kernel did not finish"); };
    CHECK_THROWS_AS(play_lesson(*l, hung), DeviceHung);
    CHECK(calls == 1);

    errs.clear();
    CHECK_FALSE(parse_lesson("title = \"e\"\n[schedule]\nn = 8\nblock = 8\n[[step]]\ntext = \"x\"\nemulator_only = 3\n", "e", "e.toml", errs));
    REQUIRE_FALSE(errs.empty());
    CHECK(errs[0].what.find("emulator_only") != std::string::npos);
}

TEST_CASE("RLAB_LESSONS_DIR names the lessons folder") {
    ::setenv("RLAB_LESSONS_DIR", "/some/where", 1);
    CHECK(find_lessons_dir() == "/some/where");
    ::unsetenv("RLAB_LESSONS_DIR");
    CHECK(find_lessons_dir(std::string(RLAB_LESSONS_SOURCE) + "/../build/x/app/cli/rlab") ==
          (fs::path(RLAB_LESSONS_SOURCE) / "..").lexically_normal().string() + "lessons");
}

// ---- no number typed by hand -----------------------------------------------------------------------------

namespace {

// Words with digits that lesson text may hold: names of number formats and the chapter's full-warp mask, not
// quantities. Reviewed: each is a name, none is a measurement or a count that the trace could contradict.
const std::set<std::string> kDigitWords{
    "FP16", "FP32", "FP64", "BF16",   // number formats, as the chapter writes them
    "f16", "f32", "f64", "bf16", "i32",  // the same, as the schedule flags write them
    "0xffffffff",                     // the full-warp mask literal a kernel passes
    "G80",                            // the GPU Harris measured on (his figures are named constants)
};

// Names of the first of each kind (index zero): where a shuffle reduction leaves its result and which warp
// finishes a block are fixed by the code's pattern, and the lessons check them against the trace (lane0).
const char* const kZeroNames[] = {"lane 0", "warp 0", "thread 0", "block 0", "lanes 0"};

// The words of text, placeholders removed, that hold an ASCII digit and are not in the allow-list.
std::vector<std::string> typed_numbers(const std::string& text) {
    std::string plain;
    for (size_t i = 0; i < text.size(); ++i) {
        if ((text[i] == '{' || text[i] == '}') && i + 1 < text.size() && text[i + 1] == text[i]) { ++i; continue; }
        if (text[i] == '{') {
            const size_t j = text.find('}', i);
            if (j == std::string::npos) break;
            plain += ' ';
            i = j;
            continue;
        }
        plain += text[i];
    }
    std::string lower = plain;  // the names match in any case ("Lane 0" opens a sentence)
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const char* name : kZeroNames)
        for (size_t at = lower.find(name); at != std::string::npos; at = lower.find(name, at + 1)) {
            const size_t end = at + std::string(name).size();
            if (end < plain.size() && std::isdigit(static_cast<unsigned char>(plain[end]))) continue;
            for (size_t i = at; i < end; ++i) plain[i] = lower[i] = ' ';
        }
    std::vector<std::string> bad;
    std::string word;
    auto flush = [&] {
        if (std::any_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); }) && !kDigitWords.count(word))
            bad.push_back(word);
        word.clear();
    };
    for (unsigned char c : plain) {
        if (std::isalnum(c) || c == '_') word += char(c);
        else flush();
    }
    flush();
    return bad;
}

}  // namespace

TEST_CASE("the digit test finds typed numbers and passes placeholders and the allow-list") {
    CHECK(typed_numbers("sum {result} of {n} FP32 values, mask 0xffffffff").empty());
    CHECK(typed_numbers("the {{literal}} braces").empty());
    CHECK(typed_numbers("67,108,864 values") == std::vector<std::string>{"67", "108", "864"});
    CHECK(typed_numbers("lane 16 reads x4") == std::vector<std::string>{"16", "x4"});
    CHECK(typed_numbers("2^22 ints") == std::vector<std::string>{"2", "22"});
    CHECK(typed_numbers("lane 0 holds it, not lane 07").size() == 1);
}

TEST_CASE("no lesson text holds a number that is not filled from a placeholder") {
    LessonSet set = load_lessons(RLAB_LESSONS_SOURCE);
    REQUIRE(!set.lessons.empty());
    for (const Lesson& l : set.lessons) {
        auto report = [&](const std::string& where, const std::string& text) {
            for (const std::string& w : typed_numbers(text)) FAIL_CHECK(l.name << " " << where << ": typed number '" << w << "'");
        };
        report("title", l.title);
        report("summary", l.summary);
        for (size_t k = 0; k < l.steps.size(); ++k) {
            const LessonStep& st = l.steps[k];
            const std::string where = "step " + std::to_string(k + 1);
            report(where, st.text);
            if (!st.check) continue;
            report(where + " question", st.check->question);
            report(where + " answer", st.check->answer);
            report(where + " explain", st.check->explain);
            for (const std::string& c : st.check->choices) report(where + " choice", c);
        }
    }
}

// ---- measured cells and grading ------------------------------------------------------------------------------

TEST_CASE("a bench cell with two rows gives no value and is named, rather than the first row being read") {
    BenchReport r;
    r.device = "TEST";
    r.date = "2026-01-01T00:00:00Z";
    auto row = [&](const char* v, uint64_t n, double us) {
        BenchResult b;
        b.variant = v;
        b.n = n;
        b.median_us = b.min_us = b.max_us = us;
        r.results.push_back(b);
    };
    row("fast", 1024, 10);
    row("fast-deterministic", 1024, 11);
    row("cub", 1024, 12);
    Quantities once = bench_quantities(r);
    REQUIRE(once.count("bench_det_diff_us"));
    CHECK(*once["bench_det_diff_us"].number == doctest::Approx(1.0));
    CHECK(once["bench_det_faster"].text == "the atomic mode");
    CHECK(once["bench_duplicates"].text == "none");
    row("fast-deterministic", 1024, 9);  // a second run of the same cell
    Quantities twice = bench_quantities(r);
    CHECK_FALSE(twice.count("bench_det_diff_us"));
    CHECK(twice["bench_duplicates"].text == "fast-deterministic f32 2^10");
}

TEST_CASE("a reply names a choice by its number or its text; anything else names none") {
    PlayedStep p;
    p.choices = {"fewer", "the same number", "more"};
    p.answer = "the same number";
    p.explanation = "why";
    CHECK(parse_choice(p, "2") == size_t(1));
    CHECK(parse_choice(p, " The Same  Number ") == size_t(1));
    CHECK_FALSE(parse_choice(p, "4"));
    CHECK_FALSE(parse_choice(p, "0"));
    CHECK_FALSE(parse_choice(p, ""));
    CHECK_FALSE(parse_choice(p, "same"));
    CHECK(answer_index(p) == size_t(1));
    CHECK(grade_choice(p, 1).correct);
    const Grade wrong = grade_choice(p, 2);
    CHECK_FALSE(wrong.correct);
    CHECK(wrong.verdict == "Not quite: the answer is \"the same number\".");
    CHECK(wrong.explanation == "why");
}

// A one-step lesson whose check has these choices and explain line (empty: none).
std::string check_lesson(const std::string& choices, const std::string& explain) {
    return "title = \"t\"\n[schedule]\nn = 8\n[[step]]\ntext = \"x\"\n[step.check]\nquestion = \"q\"\nchoices = " + choices +
           "\nanswer = \"a\"\n" + (explain.empty() ? "" : "explain = \"" + explain + "\"\n");
}

TEST_CASE("a check with choices needs an explanation and at most four choices") {
    auto errs = errors_of(check_lesson(R"(["a", "b"])", ""));
    REQUIRE(!errs.empty());
    CHECK(errs.front().what.find("needs 'explain'") != std::string::npos);
    errs = errors_of(check_lesson(R"(["a", "b", "c", "d", "e"])", "e"));
    REQUIRE(!errs.empty());
    CHECK(errs.front().what.find("at most 4 choices") != std::string::npos);
    std::vector<LessonError> none;
    CHECK(parse_lesson(check_lesson(R"(["a", "b"])", "why"), "x", "x.toml", none));
}
