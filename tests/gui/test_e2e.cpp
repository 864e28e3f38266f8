// tests/gui/test_e2e.cpp — launches reduction-lab and rlab render, steps to the end of the eight-thread example,
// and checks the screenshots and the dumped scene.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include "app/render/offscreen.h"
#include "app/render/scene.h"
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
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --n 40 --block 40 --bug full-mask-partial-warp --step 14 --quit --screenshot " +
                png) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(count_colour(px, 0xd55e00) > 500);
    CHECK(run(std::string(RLAB_LAB_EXE) + " --block 2000 --quit") == 2);
    CHECK(run(std::string(RLAB_LAB_EXE) + " --lesson no-such-lesson --quit") == 2);  // an unknown lesson is bad input
}

TEST_CASE("e2e: rlab render writes the canvas as a PNG without a window") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/render-eight.png";
    std::remove(png.c_str());
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --backend cpu --step 4 --size 800x500 --png " + png) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 800);
    CHECK(h == 500);
    CHECK(count_colour(px, 0x0072b2) > 15 * 500);
    CHECK(count_colour(px, 0x009e73) > 500);
    CHECK(run(std::string(RLAB_CLI_EXE) + " render --size 12 --png " + png) == 2);
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
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --trace " + gpu + " --view time --size 800x400 --png " + png) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(w == 800);
    CHECK(count_colour(px, 0x0072b2) > 50);  // value marks
    std::remove(png.c_str());
    REQUIRE(run(std::string(RLAB_CLI_EXE) + " render --trace " + gpu + " --step 4 --size 800x500 --png " + png) == 0);
    REQUIRE(rl::render::read_png(png, w, h, px));
    CHECK(count_colour(px, 0x0072b2) > 15 * 500);  // the same picture as the emulator's eight threads
    const std::string bad = std::string(RLAB_TEST_TMP) + "/render-bad-trace.json";
    std::ofstream(bad) << "not json";
    CHECK(run(std::string(RLAB_CLI_EXE) + " render --trace " + bad + " --png " + png) == 2);
    CHECK(run(std::string(RLAB_CLI_EXE) + " render --backend cpu --view time --png " + png) == 2);
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
    CHECK(run(std::string(RLAB_LAB_EXE) + " --bench-file /nonexistent/bench.json --quit") == 2);
}

TEST_CASE("e2e: the numerics view opens over the canvas with --numerics") {
    const std::string png = std::string(RLAB_TEST_TMP) + "/e2e-numerics.png";
    std::remove(png.c_str());
    REQUIRE(run(std::string(RLAB_LAB_EXE) + " --backend cpu --size 1280x720 --numerics --quit --screenshot " + png) == 0);
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    REQUIRE(rl::render::read_png(png, w, h, px));
    // The table covers the canvas: none of the eight-thread example's blue value boxes shows.
    CHECK(count_colour(px, 0x0072b2) < 1000);
}
