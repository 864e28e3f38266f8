// tests/lessons/test_lesson_engine.cpp — the lesson engine's edges that the mutation harness found unchecked
// (tests/mutants/lesson-*.patch): each comparison with both sides equal, a hazard counted once or looked for at a
// lane it does not cover, quantities against values worked by hand, and the last step as a place.
#include <doctest/doctest.h>

#include <string>

#include "core/emulator.h"
#include "core/lesson.h"

using namespace rl;

namespace {

// A one-step lesson: the schedule's fields, where the step points and its expectations, as TOML lines.
Lesson lesson_of(const std::string& schedule, const std::string& at, const std::string& expect,
                 const std::string& text = "x") {
    std::vector<LessonError> errs;
    auto l = parse_lesson("title = \"engine\"\n[schedule]\n" + schedule + "\n[[step]]\nat = \"" + at + "\"\ntext = \"" + text +
                              "\"\n" + (expect.empty() ? "" : "[step.expect]\n" + expect + "\n"),
                          "engine", "engine.toml", errs);
    for (auto& e : errs) FAIL_CHECK(e.str());
    REQUIRE(l);
    return *l;
}

PlayedStep play_one(const Lesson& l) {
    auto played = play_lesson(l);
    REQUIRE(played.size() == 1);
    return played[0];
}

// The one expectation of a one-step lesson, played on the emulator.
ExpectationResult only_result(const std::string& schedule, const std::string& at, const std::string& expect) {
    const PlayedStep p = play_one(lesson_of(schedule, at, expect));
    for (auto& problem : p.problems) FAIL_CHECK(problem);
    REQUIRE(p.results.size() == 1);
    return p.results[0];
}

// n = 40 in a block of 64 with the shuffles inside `if (i < n)` (as in test_lessons.cpp): threads 40-63 exist and
// skip every shuffle that the full mask names. Warp 1 holds threads 32-63: its lanes 0-7 (threads 32-39) have an
// element and execute each shuffle; lanes 8-31 skip it.
const char* kDivergent = "n = 40\nblock = 64\ntype = \"i32\"\nbug = \"divergent-shuffle\"";

}  // namespace

TEST_CASE("lesson engine: each comparison operator with both sides equal and either side larger") {
    // n = 8 in one block of 8: a tree halves 8 values to 4, 2, 1: span = log2 8 = 3 combines on the longest chain.
    const std::string schedule = "n = 8\nblock = 8";
    struct Row { const char* op; bool below, equal, above; };  // does `3 OP b` hold for b = 4, 3, 2
    const Row rows[] = {
        {"==", false, true, false}, {"!=", true, false, true}, {"<", true, false, false},
        {"<=", true, true, false},  {">", false, false, true}, {">=", false, true, true},
    };
    for (const Row& row : rows) {
        for (int b = 2; b <= 4; ++b) {
            const bool expected = b == 4 ? row.below : b == 3 ? row.equal : row.above;
            CAPTURE(row.op);
            CAPTURE(b);
            const ExpectationResult r =
                only_result(schedule, "end", "span = \"" + std::string(row.op) + " " + std::to_string(b) + "\"");
            CHECK(r.ok == expected);
        }
    }
    // The message says which way it failed: the strict operators refuse equal sides.
    CHECK(only_result(schedule, "end", "span = \"< 3\"").message == "span is 3, but the lesson expects it less than 3");
    CHECK(only_result(schedule, "end", "span = \"> 3\"").message == "span is 3, but the lesson expects it greater than 3");
    CHECK(only_result(schedule, "end", "span = \">= 3\"").message == "span is 3 at least 3");
    CHECK(only_result(schedule, "end", "span = \"<= 3\"").message == "span is 3 at most 3");
}

TEST_CASE("lesson engine: no_hazard fails when the trace reports exactly one such hazard") {
    // Trace step 1 is the first shuffle; in warp 1 it is one call, executed by lanes 0-7 with lanes 8-31 named but
    // skipping: one mask-names-inactive-lanes hazard at step 1 (warp 0 is full and has none).
    const ExpectationResult one =
        only_result(kDivergent, "start", "no_hazard = { kind = \"mask-names-inactive-lanes\", step = 1 }");
    CHECK_FALSE(one.ok);
    CHECK(one.message.find("but the trace reports 1 (at: ") != std::string::npos);
    // Warp 0 is full at every shuffle: none there.
    CHECK(only_result(kDivergent, "start", "no_hazard = { kind = \"mask-names-inactive-lanes\", warp = 0 }").ok);
}

TEST_CASE("lesson engine: a hazard expectation naming a lane the hazard does not cover fails") {
    // Lane 7 of warp 1 is thread 39, which has element 39 < n and executes every shuffle: the hazards cover lanes
    // 8-31 only. Step and warp match the hazard; only the lane rules it out.
    const std::string kind = "kind = \"mask-names-inactive-lanes\"";
    CHECK(only_result(kDivergent, "start", "hazard = { " + kind + ", step = 1, warp = 1, lane = 8 }").ok);
    const ExpectationResult r = only_result(kDivergent, "start", "hazard = { " + kind + ", step = 1, warp = 1, lane = 7 }");
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("expected a mask-names-inactive-lanes step 1 warp 1 lane 7 hazard, but the trace reports none like it") == 0);
    // The same in reverse: no hazard of warp 1 ever covers lane 7.
    CHECK(only_result(kDivergent, "start", "no_hazard = { " + kind + ", warp = 1, lane = 7 }").ok);
}

TEST_CASE("lesson engine: saved_depth warps and exact_error against values worked by hand") {
    SUBCASE("saved_depth is serial_depth - span, where span is not tree_depth") {
        // n = 16 over a block of 4 with 4 items a thread: one block; each thread adds its 4 contiguous items one
        // after another (3 combines in a chain), then the 4 partials meet in a tree of log2 4 = 2 levels.
        // span = 3 + 2 = 5, while tree_depth = log2 16 = 4; serial_depth = 16 - 1 = 15, saved_depth = 15 - 5 = 10.
        const PlayedStep p = play_one(lesson_of("n = 16\nblock = 4\nitems = 4", "end",
                                                "span = 5\nsaved_depth = 10", "{saved_depth} of {serial_depth}"));
        for (auto& problem : p.problems) FAIL_CHECK(problem);
        for (auto& r : p.results) CHECK_MESSAGE(r.ok, r.message);
        CHECK(p.narrative == "10 of 15");
    }
    SUBCASE("warps counts a partial warp") {
        // A block of 40 threads is one full warp of 32 and one of 8: ceil(40 / 32) = 2 warps.
        const PlayedStep p = play_one(lesson_of("n = 40\nblock = 40", "end", "", "{warps} warps of {block}"));
        CHECK(p.narrative == "2 warps of 40");
        CHECK(*p.values.at("warps").number == 2);
    }
    SUBCASE("exact_error is a magnitude when the result is below the exact sum") {
        // f32: 2^24 + 1 = 16777217 lies halfway between the floats 2^24 and 2^24 + 2; ties go to the even
        // significand, 2^24. The result is 16777216, the exact sum 16777217: exact_error = |16777216 - 16777217| = 1.
        const PlayedStep p = play_one(lesson_of("n = 2\nblock = 2\ntype = \"f32\"\ninput = [16777216, 1]", "end",
                                                "result = 16777216\nexact_error = 1", "{exact_error}"));
        for (auto& problem : p.problems) FAIL_CHECK(problem);
        for (auto& r : p.results) CHECK_MESSAGE(r.ok, r.message);
        CHECK(p.narrative == "1");
        CHECK(*p.values.at("exact_reference").number == 16777217.0);
    }
}

TEST_CASE("lesson engine: at step K accepts the trace's last step and refuses the one after it") {
    Schedule s;  // the lesson's schedule below: n = 8, block = 8
    const int steps = emulate(s).step_count;
    REQUIRE(steps > 1);
    const int last = steps - 1;  // steps are numbered 0 .. step_count - 1 (core/trace.h)
    const PlayedStep at_last = play_one(lesson_of("n = 8\nblock = 8", "step " + std::to_string(last), ""));
    CHECK(at_last.problems.empty());
    CHECK(at_last.cursor_step == last);
    const PlayedStep past = play_one(lesson_of("n = 8\nblock = 8", "step " + std::to_string(steps), ""));
    REQUIRE(past.problems.size() == 1);
    CHECK(past.problems[0] == "'at = \"step " + std::to_string(steps) + "\"': the trace has steps 0 to " + std::to_string(last));
}

TEST_CASE("lesson engine: a note (atomic-contention) is no hazard; note and hazard expectations find it among the notes") {
    // n = 64 in blocks of 32 with one atomic per element: a chain of 64 atomics on one address, as long as the input.
    // Correct (the sum is exact), only serialised: one note at the chain's head, the first atomic the emulator emits
    // (block 0, thread 0, step 0), and no hazard.
    const std::string schedule = "n = 64\nblock = 32\nbug = \"atomic-per-element\"";
    CHECK(only_result(schedule, "end", "hazards = 0").ok);
    CHECK(only_result(schedule, "end", "notes = 1").ok);
    CHECK(only_result(schedule, "end", "note_kinds = \"atomic-contention\"").ok);
    CHECK(only_result(schedule, "end", "hazard_kinds = \"none\"").ok);
    const ExpectationResult note = only_result(schedule, "end", "note = { kind = \"atomic-contention\", step = 0, block = 0, thread = 0 }");
    CHECK(note.ok);
    CHECK(note.message == "an atomic-contention step 0 block 0 thread 0 note is reported");
    // Written as a hazard expectation (lessons before notes were kept apart), it is still looked for among the notes.
    CHECK(only_result(schedule, "end", "hazard = { kind = \"atomic-contention\", step = 0 }").ok);
    CHECK_FALSE(only_result(schedule, "end", "no_note = \"atomic-contention\"").ok);
    // The lesson's anchor finds it too, as a note or as before.
    CHECK(only_result(schedule, "note atomic-contention", "step = 0").ok);
    CHECK(only_result(schedule, "hazard atomic-contention", "step = 0").ok);
    // Atomics per block (2 for 64 elements): no chain as long as the input, no note.
    CHECK(only_result("n = 64\nblock = 32\ngrid-stage = \"atomic-block\"", "end", "no_note = \"atomic-contention\"").ok);
}

TEST_CASE("lesson engine: a note expectation names a note kind") {
    std::vector<LessonError> errs;
    parse_lesson("title = \"t\"\n[schedule]\nn = 8\n[[step]]\ntext = \"x\"\n[step.expect]\nnote = { kind = \"shared-memory-race\", step = 1 }\n",
                 "engine", "engine.toml", errs);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].line == 7);
    CHECK(errs[0].what == "unknown note kind 'shared-memory-race'; expected one of atomic-contention, race-check-incomplete");
}
