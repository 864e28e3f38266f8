// tests/lab/test_source_view.cpp — the source panel's model: the current step lights exactly the lines of its
// events, a click on a line marks exactly its events in the canvas, a click on an event picks its line, and the
// bug diff holds both sources. Expectations are recomputed here from the trace and the event -> line table.
#include <doctest/doctest.h>

#include <set>
#include "app/lab/frame.h"
#include "app/lab/source_view.h"
#include "core/emulator.h"
#include "tests/support/source_view.h"

using namespace rl;
using namespace rl::lab;

namespace {

LabState run(Schedule sch) {
    LabState s;
    s.backend = BackendChoice::Cpu;
    s.schedule = sch;
    REQUIRE(s.rerun());
    REQUIRE(s.source.error.empty());
    REQUIRE(s.source.event_line.size() == s.trace.events.size());
    return s;
}

std::set<int> lit_lines(const std::vector<SourceRow>& rows) {
    std::set<int> out;
    for (const SourceRow& r : rows)
        if (r.step) out.insert(r.line);
    return out;
}

}  // namespace

TEST_CASE("source view: each step lights exactly the lines of that step's events") {
    LabState s = run(test::two_warps());
    const int shuffle = s.source.source.line_of("shuffle");
    REQUIRE(shuffle > 0);
    int shuffle_steps = 0;
    for (int k = 0; k <= s.last(); ++k) {
        s.set_step(k);
        std::set<int> expected;  // from the trace: the lines of the events recorded at this row's step
        for (size_t e = 0; e < s.trace.events.size(); ++e)
            if (s.trace.events[e].step == s.layout.rows[size_t(k)].step && s.source.event_line[e])
                expected.insert(int(s.source.event_line[e]));
        const std::vector<SourceRow> rows = source_rows(s);
        CHECK(rows.size() == s.source.source.lines.size());
        CHECK(lit_lines(rows) == expected);
        shuffle_steps += expected.count(shuffle) ? 1 : 0;
        if (!expected.empty()) CHECK(rows[size_t(focus_row(rows))].line == *expected.begin());
    }
    CHECK(shuffle_steps == 6);  // offsets 16, 8, 4, 2, 1 of the warp stage, then 1 over the block's two warp partials
}

TEST_CASE("source view: a click on a line marks exactly its events; a click on an event picks its line") {
    LabState s = run(Schedule{});  // the eight-thread example
    const int shuffle = s.source.source.line_of("shuffle");
    REQUIRE(shuffle > 0);
    s.set_step(0);
    s.select(0);
    pick_line(s, shuffle);
    CHECK(s.source_line == shuffle);
    CHECK(s.selected == kNoEvent);  // the canvas shows the line's events, not an old cone
    REQUIRE(s.line_marks.size() == s.trace.events.size());
    int first_row = s.last() + 1;
    for (size_t e = 0; e < s.trace.events.size(); ++e) {
        const bool of_line = s.source.event_line[e] == uint32_t(shuffle);
        CHECK(bool(s.line_marks[e]) == of_line);
        if (of_line) first_row = std::min(first_row, int(s.layout.event_row[e]));
    }
    CHECK(s.cursor.step == first_row);  // the first shuffle row is shown, not the empty future
    int picked = 0;
    for (const SourceRow& r : source_rows(s))
        if (r.picked) {
            CHECK(r.line == shuffle);
            ++picked;
        }
    CHECK(picked == 1);

    // The shared scene draws exactly the line's events in the line-mark colour: shuffles are arrows, combines boxes.
    s.set_step(s.last());
    frame_scene(s, 900, 600);
    int box_line = 0;  // the line of a value box (a combine): another line than the shuffle's
    for (const render::SceneBox& b : s.last_scene.boxes)
        if (b.role == render::BoxRole::Value && b.event != kNoEvent && s.source.event_line[b.event] != uint32_t(shuffle) &&
            s.source.event_line[b.event])
            box_line = int(s.source.event_line[b.event]);
    REQUIRE(box_line > 0);
    for (const int line : {shuffle, box_line}) {
        pick_line(s, line);
        std::set<uint32_t> marked, drawn;
        test::line_marked_events(frame_scene(s, 900, 600), s.dark, marked, drawn);
        std::set<uint32_t> expected;
        for (uint32_t e : drawn)
            if (s.source.event_line[e] == uint32_t(line)) expected.insert(e);
        INFO(line);
        CHECK(!expected.empty());
        CHECK(marked == expected);
    }

    // A click on an event (a box: the value a combine left): its line is picked, the marks give way to its cone.
    uint32_t ev = kNoEvent;
    for (const render::SceneBox& b : s.last_scene.boxes)
        if (b.role == render::BoxRole::Value && b.event != kNoEvent && s.source.event_line[b.event]) ev = b.event;
    REQUIRE(ev != kNoEvent);
    s.select(ev);
    line_of_selection(s);
    CHECK(s.source_line == int(s.source.event_line[ev]));
    CHECK(s.line_marks.empty());
    s.select(kNoEvent);
    line_of_selection(s);
    CHECK(s.source_line == 0);
    pick_line(s, 0);
    CHECK(s.line_marks.empty());
}

TEST_CASE("source view: with a bug on, the diff holds the clean and the buggy source; without one there is none") {
    LabState s = run(test::two_warps(uint16_t(Bug::FullMaskPartialWarp)));
    CHECK(has_bug_diff(s));
    const std::vector<SourceRow> plain = source_rows(s);
    int bug_rows = 0;
    for (const SourceRow& r : plain) bug_rows += r.bug;
    CHECK(bug_rows > 0);
    s.source_diff = true;
    const std::vector<SourceRow> diff = source_rows(s);
    size_t clean = 0, buggy = 0, minus = 0, plus = 0;
    for (const SourceRow& r : diff) {
        if (r.op != '+') {
            ++clean;
            REQUIRE(r.clean_line >= 1);
            CHECK(r.text == s.source.clean.lines[size_t(r.clean_line) - 1].text);
        }
        if (r.op != '-') {
            ++buggy;
            REQUIRE(r.line >= 1);
            CHECK(r.text == s.source.source.lines[size_t(r.line) - 1].text);
        }
        minus += r.op == '-';
        plus += r.op == '+';
    }
    CHECK(clean == s.source.clean.lines.size());
    CHECK(buggy == s.source.source.lines.size());
    CHECK(plus > 0);
    CHECK(minus + plus > 0);

    LabState ok = run(test::two_warps());
    ok.source_diff = true;
    CHECK_FALSE(has_bug_diff(ok));
    for (const SourceRow& r : source_rows(ok)) CHECK(r.op == ' ');
}

TEST_CASE("source view: presenter size is never under 18 px at 1080 lines and grows with the screen") {
    CHECK(source_font_px(14, false, 1080) == 14);
    CHECK(source_font_px(14, true, 1080) >= 18);
    CHECK(source_font_px(14, true, 720) >= 18);
    CHECK(source_font_px(14, true, 2160) >= 2 * source_font_px(14, true, 1080) - 1);
    CHECK(source_font_px(30, true, 1080) == 30);  // a larger chosen size stays
}
