// tests/gui/test_e2e.cpp — launches reduction-lab and rlab render, steps to the end of the eight-thread example,
// and checks the screenshots and the dumped scene.
#include <doctest/doctest.h>

#include <algorithm>
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
#include "app/render/timings_plot.h"
#include "core/bench_report.h"
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

// Text lines in a region: runs of pixel rows that hold at least `min_px` bright pixels (light text on the dark theme).
int bright_text_lines(const std::vector<uint8_t>& px, int w, int x0, int x1, int y0, int y1, int min_px = 3) {
    int lines = 0;
    bool in_line = false;
    for (int y = y0; y < y1; ++y) {
        int n = 0;
        for (int x = x0; x < x1; ++x) {
            const size_t i = (size_t(y) * size_t(w) + size_t(x)) * 4;
            n += px[i] > 200 && px[i + 1] > 200 && px[i + 2] > 200;
        }
        if (n >= min_px && !in_line) ++lines;
        in_line = n >= min_px;
    }
    return lines;
}

// Leftmost and rightmost column holding the colour inside columns [x0, x1), or {-1, -1}.
std::pair<int, int> colour_columns(const std::vector<uint8_t>& px, int w, int x0, int x1, uint32_t hex) {
    int lo = -1, hi = -1;
    for (size_t i = 0; i + 3 < px.size(); i += 4) {
        const int x = int((i / 4) % size_t(w));
        if (x < x0 || x >= x1 || px[i] != ((hex >> 16) & 0xff) || px[i + 1] != ((hex >> 8) & 0xff) || px[i + 2] != (hex & 0xff))
            continue;
        lo = lo < 0 ? x : std::min(lo, x);
        hi = std::max(hi, x);
    }
    return {lo, hi};
}

}  // namespace

TEST_CASE("e2e: reduction-lab steps to the end of the eight-thread example and saves a screenshot") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-eight.png";
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-eight.json";
    std::remove(png.c_str());
    const std::string cmd = std::string(RLAB_LAB_EXE) + " --backend cpu --step 4 --size 1280x720 --frames 3 --quit" +
                            " --screenshot " + png + " --dump-scene " + json;
    REQUIRE(run(cmd) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 1280);
    CHECK(h == 720);
    // Fifteen blue value boxes and the green final store, each well over 1000 pixels.
    CHECK(count_colour(px, 0x0072b2) > 15 * 1000);
    CHECK(count_colour(px, 0x009e73) > 1000);
    // Nothing undefined on the canvas (x 320..910 at 1280 wide); the timings panel beside it may plot
    // atomic-element in the same vermillion when recorded results are found.
    CHECK(count_colour_in(px, w, 320, 910, 0xd55e00) == 0);
    const std::string scene = slurp(json);
    CHECK(count_of(scene, "\"role\":\"value\"") == 16);
    CHECK(count_of(scene, "\"text\":\"36\"") == 2);
    CHECK(count_of(scene, "\"offset\":4") == 4);
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
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --trace " + gpu + " --view time --step 10 --size 1280x720 --quit --screenshot " +
                png + " --dump-scene " + json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 1280);
    const std::string scene = slurp(json);
    CHECK(count_of(scene, "\"role\":\"time-mark\"") == 3244);  // every event of the trace at its time
    CHECK(count_of(scene, "\"role\":\"wait\"") == 48);         // 4 blocks x 3 barriers x 4 warps
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
    const std::string fixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json";
    std::remove(png.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --enlarge-timings --bench-file " + fixture +
                " --quit --screenshot " + png) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    // atomic-element's vermillion line and triangles (nothing undefined on the eight-thread canvas, which is covered).
    CHECK(count_colour(px, 0xd55e00) > 300);
    CHECK(count_colour(px, 0xe69f00) > 300);  // atomic-block, orange
    // Over the canvas (x 320..910): each variant the file holds is drawn across its sizes, 2^10 to 2^24, the whole
    // width of the plot; a variant the file lacks (cooperative) is not drawn, nor is the canvas's blue value box.
    const rl::render::TimingsPlot plot =
        rl::render::build_timings_plot(rl::load_bench_file(fixture), "warm", /*dark=*/true);
    REQUIRE(plot.series.size() == 7);
    for (const rl::render::PlotSeries& series : plot.series) {
        if (series.variant == "fast" || series.variant == "cub" || series.variant == "last-block") continue;  // white, grey, the store's green
        const auto [lo, hi] = colour_columns(px, w, 320, 910, series.rgb);
        CHECK_MESSAGE(hi - lo > 400, series.variant, " spans columns ", lo, "..", hi);
    }
    CHECK(count_colour_in(px, w, 320, 910, 0xcc79a7) == 0);  // cooperative
    CHECK(count_colour_in(px, w, 320, 910, 0x0072b2) == 0);
    std::string err;
    CHECK(run_err(std::string(RLAB_LAB_EXE) + " --bench-file /nonexistent/bench.json --quit", err) == 2);
    CHECK(err == "reduction-lab: --bench-file: /nonexistent/bench.json: cannot open the bench results: No such file or directory\n");
}

TEST_CASE("e2e: the numerics view opens over the canvas with --numerics") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-numerics.png";
    std::remove(png.c_str());
    const std::string json = std::string(RLAB_TEST_TMP) + "/e2e-numerics.json";
    std::remove(json.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --numerics --quit --screenshot " + png +
                " --dump-scene " + json) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    REQUIRE(w == 1280);
    // The table covers the canvas: none of the eight-thread example's blue value boxes shows.
    CHECK(count_colour(px, 0x0072b2) < 1000);
    // Under it the canvas still holds the example (the frame was built, and the table hides it) ...
    CHECK(value_texts(scene_json(json)).size() == 8);  // step 0: the eight loads
    // ... and over it the table is drawn. Its first column (x 330..520 at this size) holds the two summary lines, the
    // header and one line per order; 16 orders fit (the eight-thread canvas alone gives 11 lines there, a blank one 0).
    rl::Schedule eight;
    REQUIRE(rl::compare_numerics(eight).rows.size() >= 16);
    CHECK(bright_text_lines(px, w, 330, 520, 20, 390) >= 2 + 1 + 16);
}
