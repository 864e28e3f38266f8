// tests/gui/test_timings_plot.cpp — the timings plot model both front ends draw: series, log axes, crossovers, text.
#include <doctest/doctest.h>

#include <cmath>
#include "app/render/timings_plot.h"

using namespace rl;
using namespace rl::render;

namespace {

// Made-up numbers named as such (device "FIXTURE GPU"): never shown by the apps unless passed.
BenchReport fixture() { return load_bench_file(std::string(RLAB_SOURCE_DIR) + "/tests/data/bench-fixture.json"); }

}  // namespace

TEST_CASE("timings plot: one series per f32 sum variant, in the contract's order, in log-log plot space") {
    const TimingsPlot p = build_timings_plot(fixture(), "warm", true);
    std::vector<std::string> names;
    for (const PlotSeries& s : p.series) names.push_back(s.variant);
    CHECK(names == std::vector<std::string>{"atomic-element", "atomic-block", "two-pass", "last-block", "fast",
                                            "fast-deterministic", "cub"});
    const PlotSeries& tp = p.series[2];
    REQUIRE(tp.points.size() == 8);
    CHECK(tp.points[5].first == 20.0);
    CHECK(tp.points[5].second == doctest::Approx(std::log10(11.0)));
    CHECK(tp.n[5] == uint64_t(1) << 20);
    CHECK(tp.us[5] == 11.0);
    CHECK(tp.story);
    CHECK(!p.series[4].story);  // fast is not part of the crossover story
    // Axes: whole powers of two across (2^10..2^24), whole decades up (1 µs..10 ms).
    CHECK(p.x0 == 10);
    CHECK(p.x1 == 24);
    CHECK(p.y0 == 0);
    CHECK(p.y1 == 4);
    CHECK(p.x_ticks.front().label == "2^12");  // every fourth power over a range of 14: no label elided
    CHECK(p.x_ticks.back().label == "2^24");
    CHECK(p.x_ticks.size() == 4);
    CHECK(p.y_ticks.front().label == "1 µs");
    CHECK(p.y_ticks[3].label == "1 ms");
    CHECK(p.y_ticks.back().label == "10 ms");
    CHECK(p.caption.find("warm cache") != std::string::npos);
}

TEST_CASE("timings plot: crossovers marked where the winner wins for good, sentences from core") {
    const TimingsPlot p = build_timings_plot(fixture());
    REQUIRE(p.crossovers.size() == 2);
    CHECK(p.crossovers[0].winner == "atomic-block");
    CHECK(p.crossovers[0].loser == "atomic-element");
    CHECK(p.crossovers[0].n == uint64_t(1) << 16);  // not 2^12: atomic-block loses again at the noisy 2^14
    CHECK(p.crossovers[0].x == 16);
    CHECK(p.crossovers[0].y == doctest::Approx(std::log10(4.6)));
    CHECK(p.crossovers[0].label == "atomic-block faster from 2^16");
    CHECK(p.crossovers[1].label == "two-pass faster from 2^22");
    REQUIRE(p.sentences.size() >= 2);
    CHECK(p.sentences[0].find("from n = 2^16") != std::string::npos);
    CHECK(p.sentences[1].find("from n = 2^22") != std::string::npos);
}

TEST_CASE("timings plot: cold cache, failures, themes and an empty report") {
    BenchReport r = fixture();
    const TimingsPlot cold = build_timings_plot(r, "cold");
    REQUIRE(cold.series.size() == 3);
    CHECK(cold.series[0].variant == "atomic-block");
    CHECK(cold.caption.find("L2 flushed") != std::string::npos);
    REQUIRE(cold.crossovers.size() == 1);
    CHECK(cold.crossovers[0].n == uint64_t(1) << 22);
    r.failures = {"cub f32 2^10: result 3 against 4"};
    CHECK(build_timings_plot(r).sentences.back() == "Not timed, its check failed: cub f32 2^10: result 3 against 4");
    // `fast` is drawn in the background's opposite; every other colour and shape is fixed across themes.
    CHECK(variant_rgb("fast", true) == 0xFFFFFF);
    CHECK(variant_rgb("fast", false) == 0x000000);
    CHECK(variant_shape("atomic-block") != variant_shape("atomic-element"));
    CHECK(build_timings_plot(BenchReport{}).empty());
    CHECK(size_text(1 << 20) == "2^20");
    CHECK(size_text(1000000) == "1,000,000");
    CHECK(date_text("2026-11-29T20:10:00Z") == "2026-11-29 20:10 UTC");
    CHECK(date_text("today") == "today");
}
