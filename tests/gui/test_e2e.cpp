// tests/gui/test_e2e.cpp — launches reduction-lab and rlab render, steps to the end of the eight-thread example,
// and checks the screenshots and the dumped scene, with what the lab bench's panels drew (its "panels" key).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include "app/render/offscreen.h"
#include "app/render/scene.h"
#include "core/event_flags.h"
#include "core/numerics.h"
#include "../support/helpers.h"

using rl::test::run;
using rl::test::slurp;

namespace {

// Pixels of one colour inside columns [x0, x1) of a w-wide RGBA image (the canvas, not the panels beside it).
int count_colour_in(const std::vector<uint8_t>& px, int w, int x0, int x1, uint32_t hex) {
    int n = 0;
    for (size_t i = 0; i + 3 < px.size(); i += 4) {
        const int x = int((i / 4) % size_t(w));
        n += x >= x0 && x < x1 && px[i] == ((hex >> 16) & 0xff) && px[i + 1] == ((hex >> 8) & 0xff) && px[i + 2] == (hex & 0xff);
    }
    return n;
}

int count_colour(const std::vector<uint8_t>& px, uint32_t hex) {
    int n = 0;
    for (size_t i = 0; i + 3 < px.size(); i += 4)
        n += px[i] == ((hex >> 16) & 0xff) && px[i + 1] == ((hex >> 8) & 0xff) && px[i + 2] == (hex & 0xff);
    return n;
}

size_t count_of(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// Runs a command; its exit status, and its stderr in `err`.
int run_err(const std::string& cmd, std::string& err) {
    const std::string path = std::string(RLAB_TEST_TMP) + "/e2e-stderr.txt";
    std::remove(path.c_str());
    const int rc = std::system((cmd + " 2>" + path).c_str());
    err = slurp(path);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

nlohmann::json scene_json(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// The texts written in the scene's value boxes, read row by row, left to right (the picture as a reader sees it).
std::vector<std::string> value_texts(const nlohmann::json& scene) {
    std::map<int, std::string> text_of;
    for (const auto& t : scene["texts"])
        if (t["event"].get<int>() >= 0 && !t["overlay"].get<bool>()) text_of[t["event"].get<int>()] = t["text"];
    std::vector<std::tuple<double, double, std::string>> boxes;
    for (const auto& b : scene["boxes"])
        if (b["role"] == "value" && text_of.count(b["event"].get<int>()))
            boxes.emplace_back(b["y"].get<double>(), b["x"].get<double>(), text_of[b["event"].get<int>()]);
    std::sort(boxes.begin(), boxes.end());
    std::vector<std::string> out;
    for (const auto& [y, x, text] : boxes) out.push_back(text);
    return out;
}

// The events of the scene's boxes of one role (pattern: any when empty).
std::multiset<uint32_t> box_events(const nlohmann::json& scene, const std::string& role, const std::string& pattern = "") {
    std::multiset<uint32_t> out;
    for (const auto& b : scene["boxes"])
        if (b["role"] == role && (pattern.empty() || b["pattern"] == pattern)) out.insert(b["event"].get<uint32_t>());
    return out;
}

// The eight-thread example (inputs 1..8) at its last step, worked by hand: the loads, shfl_down 4 (1+5, 2+6, 3+7,
// 4+8), 2 (6+10, 8+12), 1 (16+20), the final store.
const std::vector<std::string> kEightThreadsValues = {"1", "2", "3", "4", "5", "6", "7", "8", "6", "8",
                                                      "10", "12", "16", "20", "36", "36"};

// Pixels of one colour inside a rectangle [x0, y0, x1, y1] of window pixels (a panel's frame from the dump).
int count_colour_in_rect(const std::vector<uint8_t>& px, int w, int h, const nlohmann::json& rect, uint32_t hex) {
    int n = 0;
    const int x0 = std::max(0, int(rect[0].get<double>())), x1 = std::min(w, int(rect[2].get<double>()));
    const int y0 = std::max(0, int(rect[1].get<double>())), y1 = std::min(h, int(rect[3].get<double>()));
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const size_t i = (size_t(y) * size_t(w) + size_t(x)) * 4;
            n += px[i] == ((hex >> 16) & 0xff) && px[i + 1] == ((hex >> 8) & 0xff) && px[i + 2] == (hex & 0xff);
        }
    return n;
}

// What one of the lab bench's panels drew in the dumped frame (app/render/drawn_panels.h). A frame where it drew
// nothing (a blank panel, or none) has no such key, and the test stops here.
const nlohmann::json& drawn_panel(const nlohmann::json& scene, const std::string& panel) {
    REQUIRE_MESSAGE(scene.contains("panels"), "the dump has no \"panels\"");
    REQUIRE_MESSAGE(scene["panels"].contains(panel), "the ", panel, " panel drew nothing this frame");
    return scene["panels"][panel];
}

// A number as the numerics table writes it: the result to 9 digits (every f32 apart), errors to 3.
std::string printed(const char* format, double v) {
    char buf[64];
    snprintf(buf, sizeof buf, format, v);
    return buf;
}
std::string f32_bits(float v) {
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08x", unsigned(std::bit_cast<uint32_t>(v)));
    return buf;
}

// The numerics table's rows by their first cell (the order's label), each row's cells by the header's names.
struct DrawnTable {
    std::map<std::string, size_t> column;
    std::map<std::string, nlohmann::json> row;
    explicit DrawnTable(const nlohmann::json& numerics) {
        for (size_t c = 0; c < numerics["header"].size(); ++c) column[numerics["header"][c]] = c;
        for (const auto& r : numerics["rows"]) row[r["cells"][0]] = r;
    }
    std::string cell(const std::string& order, const std::string& col) {
        REQUIRE_MESSAGE(row.count(order), "no row \"", order, "\" drawn");
        REQUIRE_MESSAGE(column.count(col), "no column \"", col, "\" drawn");
        return row[order]["cells"][column[col]];
    }
};

}  // namespace

TEST_CASE("e2e: reduction-lab steps to the end of the eight-thread example and saves a screenshot") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-eight.png";
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-eight.json";
    std::remove(png.c_str());
    std::remove(json.c_str());  // a dump left by an earlier run must not pass for this one
    const std::string cmd = std::string(RLAB_LAB_EXE) + " --backend cpu --step 4 --size 1280x720 --frames 3 --quit" +
                            " --screenshot " + png + " --dump-scene " + json;
    REQUIRE(run(cmd) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 1280);
    CHECK(h == 720);
    // On screen: fifteen blue value boxes and the green final store, each well over 1000 pixels.
    CHECK(count_colour(px, 0x0072b2) > 15 * 1000);
    CHECK(count_colour(px, 0x009e73) > 1000);
    // What the canvas says: the hand-worked values row by row, one arrow per shuffle with its offset, nothing
    // undefined; and no numerics table, which was not opened (the panels' record is this frame's drawing).
    const nlohmann::json scene = scene_json(json);
    CHECK(value_texts(scene) == kEightThreadsValues);
    std::multiset<unsigned> offsets;
    for (const auto& a : scene["arrows"]) offsets.insert(a["offset"].get<unsigned>());
    CHECK(offsets == std::multiset<unsigned>{1, 2, 2, 4, 4, 4, 4});
    CHECK(box_events(scene, "value", "hatched").empty());
    REQUIRE(scene.contains("panels"));
    CHECK(!scene["panels"].contains("numerics"));
}

TEST_CASE("e2e: a bug run shows undefined values, and bad input exits 2") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-bug.png";
    std::remove(png.c_str());  // a PNG left by an earlier run must not pass for this one
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-bug.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --n 40 --block 40 --bug full-mask-partial-warp --step 14 --quit --screenshot " +
                png + " --dump-scene " + json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(count_colour(px, 0xd55e00) > 500);
    // The scene at the last step against the same schedule's trace: every value-holding event drawn once (shuffles
    // are arrows, barriers bars), hatched exactly where the trace marks the value undefined, a badge per hazard.
    const rl::Trace t = rl::test::run({{"n", "40"}, {"block", "40"}, {"bug", "full-mask-partial-warp"}});
    REQUIRE(t.step_count == 15);
    const nlohmann::json scene = scene_json(json);
    std::multiset<uint32_t> values, undefined, shuffles, barriers;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const rl::Event& e = t.events[i];
        if (e.kind == rl::EventKind::Shuffle) shuffles.insert(i);
        else if (e.kind == rl::EventKind::Barrier) barriers.insert(i);
        else {
            values.insert(i);
            if (e.flags & rl::kUndefined) undefined.insert(i);
        }
    }
    CHECK(box_events(scene, "value") == values);
    CHECK(box_events(scene, "value", "hatched") == undefined);
    CHECK(box_events(scene, "barrier") == barriers);
    std::multiset<uint32_t> arrows;
    for (const auto& a : scene["arrows"]) arrows.insert(a["event"].get<uint32_t>());
    CHECK(std::includes(arrows.begin(), arrows.end(), shuffles.begin(), shuffles.end()));
    // By hand: warp 1 (lanes 0-7) reads never-launched lanes 16-23 at its first shuffle, so its step-1 sums are
    // undefined, and so is the result; warp 0's are not, nor is any load.
    const std::multiset<uint32_t> hatched = box_events(scene, "value", "hatched");
    int warp1_step1 = 0, warp0_step1 = 0, loads = 0;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const rl::Event& e = t.events[i];
        const int drawn_hatched = int(hatched.count(i));
        if (e.kind == rl::EventKind::Combine && e.step == 1 && e.warp() == 1) warp1_step1 += drawn_hatched;
        if (e.kind == rl::EventKind::Combine && e.step == 1 && e.warp() == 0) warp0_step1 += drawn_hatched;
        if (e.kind == rl::EventKind::Load) loads += drawn_hatched;
    }
    CHECK(warp1_step1 == 8);
    CHECK(warp0_step1 == 0);
    CHECK(loads == 0);
    CHECK(hatched.count(t.result_event) == 1);
    const std::multiset<uint32_t> badges = box_events(scene, "badge");
    int hazard_events = 0;
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        if (!(t.events[i].flags & rl::kHazard)) continue;
        ++hazard_events;
        const rl::Event& e = t.events[i];
        const bool badged = std::any_of(badges.begin(), badges.end(), [&](uint32_t b) {
            return t.events[b].step == e.step && t.events[b].block == e.block && t.events[b].thread == e.thread;
        });
        CHECK_MESSAGE(badged, "no badge on the hazard at event ", i);
    }
    CHECK(int(badges.size()) == hazard_events);
    CHECK(hazard_events == 11);  // 15 findings on 11 events (test_cli.sh lists them): steps 9-12 carry two each

    std::string err;
    CHECK(run_err(std::string(RLAB_LAB_EXE) + " --block 2000 --quit", err) == 2);
    CHECK(err == "reduction-lab: --block 2000: expected an integer from 1 to 1024\n");
    // An unknown lesson is bad input.
    CHECK(run_err(std::string(RLAB_LAB_EXE) + " --lesson no-such-lesson --quit", err) == 2);
    CHECK(err.find("reduction-lab: --lesson no-such-lesson: no such lesson") == 0);
    CHECK(count_of(err, "\n") == 1);
}

// --bench-frames draws frames that change nothing: the canvas's scene (the fold of the trace into boxes) is built in
// the warm-up and kept, so no timed frame folds the trace again. Counted, not timed: a slow machine passes too.
TEST_CASE("e2e: reduction-lab --bench-frames builds no scene in its unchanged timed frames") {
    const std::string out = std::string(RLAB_TEST_TMP) + "/bench-frames.txt";
    std::remove(out.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --n 65536 --block 256 --items 4 --size 1280x720 --bench-frames 20 >" +
                out) == 0);
    const std::string report = slurp(out);
    CHECK(report.find("reduction-lab bench: 20 frames") != std::string::npos);
    CHECK(report.find("frame ms: p50") != std::string::npos);
    CHECK(report.find("events folded, built in ") != std::string::npos);
    CHECK(report.find("scenes built during the timed frames: 0\n") != std::string::npos);
    // Nor is the window drawn again: its draw lists and scene are byte for byte the last frame's (app/imgui/main.cpp).
    CHECK(report.find("frames drawn during the timed frames: 0 ") != std::string::npos);
    // Playing, every frame moves the values: each one builds its scene and is drawn.
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --n 65536 --block 256 --items 4 --size 1280x720 --play --bench-frames 20 >" +
                out) == 0);
    const std::string playing = slurp(out);
    CHECK(playing.find("scenes built during the timed frames: 20\n") != std::string::npos);
    CHECK(playing.find("frames drawn during the timed frames: 20 ") != std::string::npos);
}

// A changed frame redraws only the rectangles where its triangles or its scene differ from the frame on screen
// (app/imgui/partial_frame.h). RLAB_CHECK_PARTIAL=1 reads each such frame back, draws it whole and compares: no pixel
// may differ. RLAB_BENCH_STEPS=1 shows the next step every frame, so every timed frame changes the canvas, the
// transport, the event panel and the source lines. Under Xvfb, Mesa has GLX_MESA_copy_sub_buffer.
TEST_CASE("e2e: reduction-lab draws a changed step in part, and each such frame equals the whole frame") {
    const std::string out = std::string(RLAB_TEST_TMP) + "/bench-steps.txt";
    std::remove(out.c_str());
    std::string err;
    REQUIRE(run_err("RLAB_BENCH_STEPS=1 RLAB_CHECK_PARTIAL=1 " + std::string(RLAB_LAB_EXE) +
                        " --backend cpu --n 65536 --block 256 --items 4 --size 1280x720 --bench-frames 20 >" + out,
                    err) == 0);
    const std::string report = slurp(out);
    CHECK(report.find("every frame showed the next step (RLAB_BENCH_STEPS=1)") != std::string::npos);
    CHECK(report.find("scenes built during the timed frames: 20\n") != std::string::npos);
    CHECK(report.find("drawn in part: 20 of the 20 timed frames drawn") != std::string::npos);
    const std::string checked = "frames drawn in part checked against a whole redraw: ";
    const size_t at = err.find(checked);
    REQUIRE(at != std::string::npos);
    const int frames = std::atoi(err.c_str() + at + checked.size());
    CHECK(frames >= 20);
    CHECK(err.find(checked + std::to_string(frames) + ", pixels differing: 0\n") != std::string::npos);
    // Drawn whole on request, every frame is.
    REQUIRE(run("RLAB_FULL_REDRAW=1 RLAB_BENCH_STEPS=1 " + std::string(RLAB_LAB_EXE) +
                " --backend cpu --n 65536 --block 256 --items 4 --size 1280x720 --bench-frames 20 >" + out) == 0);
    CHECK(slurp(out).find("every frame drawn whole (RLAB_FULL_REDRAW=1)") != std::string::npos);
}

TEST_CASE("e2e: rlab render writes the canvas as a PNG without a window") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/render-eight.png";
    std::remove(png.c_str());
    const std::string json = std::string(RLAB_TEST_TMP) + "/render-eight.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --backend cpu --step 4 --size 800x500 --png " + png + " --dump-scene " +
                json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 800);
    CHECK(h == 500);
    CHECK(count_colour(px, 0x0072b2) > 15 * 500);
    CHECK(count_colour(px, 0x009e73) > 500);
    // What the picture says: the hand-worked values, row by row; one arrow per shuffle, labelled with its offset.
    const nlohmann::json scene = scene_json(json);
    CHECK(scene["width"] == 800);
    CHECK(value_texts(scene) == kEightThreadsValues);
    std::multiset<unsigned> offsets;
    for (const auto& a : scene["arrows"]) offsets.insert(a["offset"].get<unsigned>());
    CHECK(offsets == std::multiset<unsigned>{1, 2, 2, 4, 4, 4, 4});
    std::string err;
    CHECK(run_err(std::string(RLAB_CLI_EXE) + " render --size 12 --png " + png, err) == 2);
    CHECK(err == "rlab: --size 12: expected WxH from 64x64 to 7680x4320\n");
}

TEST_CASE("e2e: --trace opens a saved GPU trace in the time view, bad files and emulator traces exit 2") {
    const std::string gpu = std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-smem-512.json";
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-time.png";
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-time.json";
    std::remove(png.c_str());
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --trace " + gpu + " --view time --step 10 --size 1280x720 --quit --screenshot " +
                png + " --dump-scene " + json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 1280);
    const std::string scene = slurp(json);
    // Every event of the trace once, at its time; a wait bar per warp and barrier: 4 blocks x 3 barriers x 4 warps.
    const rl::Trace recorded = rl::read_trace_file(gpu);
    REQUIRE(recorded.events.size() == 3244);
    std::multiset<uint32_t> all;
    for (uint32_t i = 0; i < recorded.events.size(); ++i) all.insert(i);
    CHECK(box_events(nlohmann::json::parse(scene), "time-mark") == all);
    CHECK(count_of(scene, "\"role\":\"wait\"") == 48);
    CHECK(count_of(scene, "block 2  warp 3") == 1);
    // The same trace in the step view: loaded, not re-run (the run would need the GPU).
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --trace " + gpu + " --quit --dump-scene " + json) == 0);
    CHECK(count_of(slurp(json), "\"role\":\"time-mark\"") == 0);
    CHECK(count_of(slurp(json), "\"role\":\"folded\"") > 0);  // 512 lanes fit only folded

    const std::string bad = std::string(RLAB_TEST_TMP) + "/e2e-bad-trace.json";
    std::ofstream(bad) << "{\"version\": 1, \"schedule\": 3}";
    CHECK(run(std::string(RLAB_LAB_EXE) + " --trace " + bad + " --quit") == 2);
    CHECK(run(std::string(RLAB_LAB_EXE) + " --trace " + bad + ".missing --quit") == 2);
    CHECK(run(std::string(RLAB_LAB_EXE) + " --backend cpu --view time --quit") == 2);
    CHECK(run(std::string(RLAB_LAB_EXE) + " --trace " + gpu + " --view sideways --quit") == 2);
    // The one-line reason reaches the user.
    const std::string err = std::string(RLAB_TEST_TMP) + "/e2e-time-err.txt";
    std::system((std::string(RLAB_LAB_EXE) + " --backend cpu --view time --quit 2>" + err).c_str());
    CHECK(slurp(err) == "reduction-lab: --view time: time view needs a GPU trace (emulator traces have no timestamps)\n");
    std::system((std::string(RLAB_LAB_EXE) + " --trace " + bad + " --quit 2>" + err).c_str());
    const std::string bad_line = slurp(err);
    CHECK(bad_line.find("trace JSON:") != std::string::npos);
    CHECK(count_of(bad_line, "\n") == 1);
}

TEST_CASE("e2e: rlab render --trace draws a saved GPU trace in either view") {
    const std::string gpu = std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json";
    const std::string png = std::string(RLAB_TEST_TMP) + "/render-time.png";
    std::remove(png.c_str());
    const std::string json = std::string(RLAB_TEST_TMP) + "/render-time.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --trace " + gpu + " --view time --size 800x400 --png " + png +
                " --dump-scene " + json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 800);
    CHECK(count_colour(px, 0x0072b2) > 50);  // value marks
    // Every event of the recorded trace once at its time, in the one warp's lane.
    const rl::Trace recorded = rl::read_trace_file(gpu);
    REQUIRE(recorded.events.size() == 40);  // 8 loads, 3 x 8 shuffles, 7 combines, the final store
    std::multiset<uint32_t> all;
    for (uint32_t i = 0; i < recorded.events.size(); ++i) all.insert(i);
    nlohmann::json scene = scene_json(json);
    CHECK(box_events(scene, "time-mark") == all);
    CHECK(count_of(slurp(json), "block 0  warp 0") == 1);
    std::remove(png.c_str());
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --trace " + gpu + " --step 4 --size 800x500 --png " + png +
                " --dump-scene " + json) == 0);
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(count_colour(px, 0x0072b2) > 15 * 500);  // the same picture as the emulator's eight threads
    // The values the GPU recorded are the hand-worked ones, in the same places.
    scene = scene_json(json);
    CHECK(value_texts(scene) == kEightThreadsValues);
    CHECK(scene["arrows"].size() == 7);
    const std::string bad = std::string(RLAB_TEST_TMP) + "/render-bad-trace.json";
    std::ofstream(bad) << "not json";
    std::string err;
    CHECK(run_err(std::string(RLAB_CLI_EXE) + " render --trace " + bad + " --png " + png, err) == 2);
    CHECK(err.find("rlab: --trace " + bad + ": trace JSON: not valid JSON") == 0);
    CHECK(count_of(err, "\n") == 1);
    CHECK(run_err(std::string(RLAB_CLI_EXE) + " render --backend cpu --view time --png " + png, err) == 2);
    CHECK(err == "rlab: --view time: time view needs a GPU trace (emulator traces have no timestamps)\n");
}

TEST_CASE("e2e: the timings panel plots a given bench file, a missing one exits 2") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-timings.png";
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-timings.json";
    const std::string fixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json";
    std::remove(png.c_str());
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --enlarge-timings --bench-file " + fixture +
                " --quit --screenshot " + png + " --dump-scene " + json) == 0);
    // The reference: the fixture read here, not through core's bench report: variant -> size -> median µs of every
    // warm f32 sum it holds (the panel's default), sizes ascending as a line joins them.
    std::map<std::string, std::map<uint64_t, double>> want;
    std::ifstream in(fixture);
    const nlohmann::json file = nlohmann::json::parse(in);
    for (const auto& r : file["results"])
        if (r["dtype"] == "f32" && r["op"] == "sum" && r["cache"] == "warm")
            want[r["variant"].get<std::string>()][r["n"].get<uint64_t>()] = r["median_us"].get<double>();
    REQUIRE(want.size() == 7);
    REQUIRE(want.count("cooperative") == 0);  // the variant the file lacks: the plot must lack it too
    uint64_t n_min = UINT64_MAX, n_max = 0;
    double us_min = 1e300, us_max = 0;
    for (const auto& [variant, points] : want)
        for (const auto& [n, us] : points)
            n_min = std::min(n_min, n), n_max = std::max(n_max, n), us_min = std::min(us_min, us), us_max = std::max(us_max, us);

    // What the panel drew, recorded as it drew each marker.
    const nlohmann::json scene = scene_json(json);
    const nlohmann::json& plot = drawn_panel(scene, "timings");
    CHECK(plot["cache"] == "warm");
    std::set<std::string> drawn, colours;
    for (const auto& series : plot["series"]) {
        const std::string variant = series["variant"];
        INFO("series ", variant);
        CHECK(drawn.insert(variant).second);                                   // drawn once
        CHECK(colours.insert(series["rgb"].get<std::string>()).second);        // in a colour of its own
        REQUIRE(want.count(variant) == 1);                                     // and held by the file
        const nlohmann::json& points = series["points"];
        REQUIRE(points.size() == want[variant].size());                        // every size, in order, at its time
        size_t i = 0;
        for (const auto& [n, us] : want[variant]) {
            CHECK(points[i][0].get<double>() == doctest::Approx(double(n)).epsilon(1e-9));
            CHECK(points[i][1].get<double>() == doctest::Approx(us).epsilon(1e-9));
            ++i;
        }
    }
    CHECK(drawn.size() == want.size());
    CHECK(drawn.count("cooperative") == 0);
    // The story's two lines in the colours the legend and the lessons name (Okabe–Ito vermillion and orange).
    for (const auto& series : plot["series"]) {
        if (series["variant"] == "atomic-element") CHECK(series["rgb"] == "#d55e00");
        if (series["variant"] == "atomic-block") CHECK(series["rgb"] == "#e69f00");
    }
    // The axes hold every point and end at the next power of two (sizes) and decade (times): 2^10..2^24, 1 µs..10 ms.
    const nlohmann::json &sizes = plot["size_range"], &times = plot["us_range"];
    CHECK(sizes[0].get<double>() <= double(n_min));
    CHECK(sizes[0].get<double>() > double(n_min) / 2);
    CHECK(sizes[1].get<double>() >= double(n_max));
    CHECK(sizes[1].get<double>() < double(n_max) * 2);
    CHECK(times[0].get<double>() <= us_min);
    CHECK(times[0].get<double>() > us_min / 10);
    CHECK(times[1].get<double>() >= us_max);
    CHECK(times[1].get<double>() < us_max * 10);

    // On screen: the two story lines inside the plot's frame, and the plot enlarged over the canvas (x 320..910),
    // whose blue value boxes do not show through.
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(count_colour_in_rect(px, w, h, plot["plot"], 0xd55e00) > 300);
    CHECK(count_colour_in_rect(px, w, h, plot["plot"], 0xe69f00) > 300);
    CHECK(count_colour_in(px, w, 320, 910, 0x0072b2) == 0);

    std::string err;
    CHECK(run_err(std::string(RLAB_LAB_EXE) + " --bench-file /nonexistent/bench.json --quit", err) == 2);
    CHECK(err == "reduction-lab: --bench-file: /nonexistent/bench.json: cannot open the bench results: No such file or directory\n");
}

TEST_CASE("e2e: the timings panel shows a timed kernel's three rows (--kernel-timing), a missing file exits 2") {
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-kernel-timing.json";
    const std::string fixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/kernel-timing-fixture.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --kernel-timing " + fixture +
                " --quit --dump-scene " + json) == 0);
    // The reference: the fixture read here, each row's figures derived from its n and median alone (i32: 4 bytes each;
    // the H200's datasheet 4800 GB/s).
    std::ifstream in(fixture);
    const nlohmann::json file = nlohmann::json::parse(in)["kernel_timing"];
    const double bytes = file["n"].get<double>() * 4;
    std::vector<std::vector<std::string>> want;
    for (const auto& r : file["rows"]) {
        const double us = r["median_us"].get<double>(), gbps = bytes / us / 1e3;
        want.push_back({r["name"].get<std::string>(), printed("%.2f", us), printed("%.0f", gbps),
                        printed("%.1f%%", 100 * gbps / 4800), std::to_string(r["reps"].get<int>()) + "/" +
                                                                  std::to_string(r["reps"].get<int>()) + " exact"});
    }
    REQUIRE(want.size() == 3);
    CHECK(want[0][2] == "373");  // 67108864 B in 180 us, by hand
    const nlohmann::json scene = scene_json(json);
    const nlohmann::json& drawn = drawn_panel(scene, "kernel_timing");
    CHECK(drawn["header"] == nlohmann::json({"", "median µs", "GB/s", "% of peak", "checked"}));
    REQUIRE(drawn["rows"].size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(drawn["rows"][i]["cells"] == nlohmann::json(want[i]));
        CHECK(drawn["rows"][i]["wrong"] == false);
    }
    CHECK(drawn["heading"].get<std::string>().find("harris4_first_add_during_load.cu") != std::string::npos);

    std::string err;
    CHECK(run_err(std::string(RLAB_LAB_EXE) + " --kernel-timing /nonexistent/t.json --quit", err) == 2);
    CHECK(err.rfind("reduction-lab: --kernel-timing: /nonexistent/t.json: cannot open", 0) == 0);
}

TEST_CASE("e2e: the numerics view opens over the canvas with --numerics") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-numerics.png";
    std::remove(png.c_str());
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-numerics.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --numerics --quit --screenshot " + png +
                " --dump-scene " + json) == 0);
    const nlohmann::json scene = scene_json(json);
    // Under the table the canvas still holds the example (the frame was built, and the table hides it).
    CHECK(value_texts(scene).size() == 8);  // step 0: the eight loads
    // What the table showed, recorded cell by cell as it drew them.
    const nlohmann::json& numerics = drawn_panel(scene, "numerics");
    DrawnTable table(numerics);

    // The reference, computed here: the inputs 1..8 summed exactly (long double) are 36. Every partial sum of such
    // small integers is exact in f32, so every order must show 36 exactly, no error, within its bound.
    long double exact = 0;
    for (int i = 1; i <= 8; ++i) exact += i;
    const float rounded = float(exact);
    CHECK(numerics["summary"].get<std::string>().rfind("exact sum " + printed("%.17g", double(exact)) +
                                                      ", correctly rounded to f32: " + f32_bits(rounded) + " ",
                                                      0) == 0);
    rl::Schedule eight;
    const size_t orders = rl::compare_numerics(eight).rows.size();
    REQUIRE(orders >= 16);
    REQUIRE(numerics["rows"].size() == orders);  // every order compared is drawn ...
    CHECK(table.row.size() == orders);           // ... once, under its own label
    int chosen = 0;
    for (const auto& r : numerics["rows"]) {
        const std::string order = r["cells"][0];
        INFO("row ", order);
        REQUIRE(r["cells"].size() == numerics["header"].size());
        CHECK(table.cell(order, "result") == printed("%.9g", double(rounded)));
        CHECK(table.cell(order, "bits") == f32_bits(rounded));
        CHECK(table.cell(order, "abs error") == "0");
        CHECK(table.cell(order, "within bound") == "yes");
        CHECK(!r["outside_bound"].get<bool>());
        chosen += r["chosen"].get<bool>();
    }
    CHECK(chosen == 1);
    CHECK(table.row["chosen schedule"]["chosen"] == true);
    // The rows fill the window from the top: a leading run of them on screen, the rest scrolled below.
    size_t visible = 0;
    while (visible < orders && numerics["rows"][visible]["visible"].get<bool>()) ++visible;
    CHECK(visible >= 12);
    for (size_t i = visible; i < orders; ++i) CHECK(!numerics["rows"][i]["visible"].get<bool>());
    // On screen: the table's window over the canvas (x 320..910 at this size), none of the canvas's blue value
    // boxes showing through it.
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    REQUIRE(w == 1280);
    CHECK(numerics["window"][0].get<double>() <= 320);
    CHECK(numerics["window"][2].get<double>() >= 910);
    CHECK(count_colour_in_rect(px, w, h, numerics["window"], 0x0072b2) == 0);

    // An input where the orders disagree, so a row showing another order's result is caught: 2^24, then seven 1s.
    // In f32, 2^24 + 1 is a tie that rounds back to 2^24.
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --input 16777216,1,1,1,1,1,1,1 --size 1280x720 --numerics" +
                " --quit --dump-scene " + json) == 0);
    const nlohmann::json disagreeing = drawn_panel(scene_json(json), "numerics");
    DrawnTable orders2(disagreeing);
    const std::vector<float> x = {16777216.0f, 1, 1, 1, 1, 1, 1, 1};
    long double exact2 = 0;
    for (float v : x) exact2 += v;                  // 16777223, exact in long double
    float serial = 0;
    for (float v : x) serial += v;                  // left to right: every 1 is rounded away
    float kahan = 0, carry = 0;
    for (float v : x) {                             // Kahan's compensated loop
        const float y = v - carry, t = kahan + y;
        carry = (t - kahan) - y;
        kahan = t;
    }
    double wide = 0;
    for (float v : x) wide += v;
    const float once = float(wide);                 // in f64, rounded once
    std::vector<float> lane(x);                     // the chosen schedule: shfl_down 4, 2, 1 over the eight lanes
    for (size_t offset = 4; offset > 0; offset /= 2)
        for (size_t i = 0; i < offset; ++i) lane[i] += lane[i + offset];
    const float tree = lane[0];
    REQUIRE(std::set<float>{serial, once, tree}.size() == 3);  // three different answers: the rows must differ
    CHECK(disagreeing["summary"].get<std::string>().rfind("exact sum " + printed("%.17g", double(exact2)) +
                                                         ", correctly rounded to f32: " + f32_bits(float(exact2)) + " ",
                                                         0) == 0);
    const std::pair<const char*, float> expected[] = {{"serial left-to-right (f32)", serial},
                                                      {"serial Kahan (f32)", kahan},
                                                      {"serial f64, rounded once", once},
                                                      {"chosen schedule", tree}};
    for (const auto& [order, value] : expected) {
        INFO("row ", std::string(order));
        CHECK(orders2.cell(order, "result") == printed("%.9g", double(value)));
        CHECK(orders2.cell(order, "bits") == f32_bits(value));
        CHECK(orders2.cell(order, "abs error") == printed("%.3g", double(std::fabs(value - exact2))));
    }
}
