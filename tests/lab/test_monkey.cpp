// tests/lab/test_monkey.cpp — the lab bench's layer under random use (seeded, bounded in time): what its keys,
// clicks, drags, wheel, resizes, knobs and lesson list call in app/lab, each followed by the frame it draws.
// Built in the sanitizer preset too: no crash, no sanitizer report, no frame over a second, and after every action
// the state's invariants (app/lab/state_invariants.h): the trace is a fresh emulation of the schedule shown, the
// cursor, selection and cone, text size and view within range.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include "app/lab/frame.h"
#include "app/lab/lab_state.h"
#include "app/lab/process_clock.h"
#include "app/lab/state_invariants.h"

using namespace rl;

TEST_CASE("monkey: random use of the lab layer never crashes and every frame takes under a second") {
    const char* seed_env = std::getenv("RLAB_MONKEY_SEED");
    const unsigned seed = seed_env ? unsigned(std::strtoul(seed_env, nullptr, 10)) : 19u;
    const char* secs_env = std::getenv("RLAB_MONKEY_SECONDS");
    const auto budget = std::chrono::seconds(secs_env ? std::atoi(secs_env) : 15);
    CAPTURE(seed);
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    auto real = [&](float lo, float hi) { return lo + (hi - lo) * float(rng() % 10000) / 10000.0f; };

    lab::LabState s;
    s.backend = BackendChoice::Cpu;
    REQUIRE(s.rerun());
    const std::string gpu_trace = std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json";
    const char* lessons[] = {"eight-threads", "warp-shuffle", "block-reduction", "no-such-lesson"};
    float w = 1280, h = 720;
    const auto start = std::chrono::steady_clock::now();
    int actions = 0;
    double worst_ms = 0;
    lab::StateInvariants invariants;
    while (std::chrono::steady_clock::now() - start < budget) {
        const int kind = pick(14);
        switch (kind) {
            case 0: s.step_forward(); break;
            case 1: s.step_back(); break;
            case 2: s.set_step(pick(s.last() + 3) - 1, real(0, 1)); break;
            case 3: s.jump_next_hazard(); break;
            case 4: s.select(s.pending_pick(real(-10, w + 10), real(-10, h + 10))); break;  // a click
            case 5: lab::pan(s, real(-400, 400), real(-300, 300)); break;                      // a drag
            case 6: lab::zoom(s, real(0.2f, 5.0f), real(0, w), real(0, h)); break;             // the wheel
            case 7: w = real(1, 3000), h = real(1, 2000); break;                               // a resize
            case 8: s.set_time_view(!s.time_view); break;                                      // T
            case 9: s.font_scale = real(0.5f, 3.0f), s.font_dirty = true; break;               // Ctrl +/-
            case 10: {  // a knob: one schedule field to a random allowed or refused value
                const char* fields[][6] = {{"n", "1", "7", "1000", "50000", "0"},
                                           {"block", "1", "33", "256", "1024", "5000"},
                                           {"warp", "shfl-down", "shfl-xor", "smem-divergent", "smem-sequential", "x"},
                                           {"grid-stage", "two-pass", "atomic-block", "last-block", "cooperative", "y"},
                                           {"bug", "missing-barrier", "uninit-tail", "full-mask-partial-warp", "wrong-identity", "z"},
                                           {"op", "sum", "max", "witness", "argmax", "q"}};
                const auto& f = fields[pick(6)];
                Schedule next = s.schedule;
                if (set_field(next, f[0], f[1 + pick(5)]).empty() && validate(next).empty() && next.n <= 100000) {
                    s.schedule = next;
                    s.rerun();
                }
                break;
            }
            case 11: s.lesson.open(lessons[pick(4)]); if (s.lesson.active()) s.lesson.go(s, size_t(pick(8))); break;
            case 12: s.load_trace(gpu_trace); break;
            default: s.advance(real(0, 0.5f)); break;  // playback
        }
        if (pick(3) == 0) s.finish_analysis();
        const auto t0 = std::chrono::steady_clock::now();  // the frame (a rerun's own time is the knob's, not a frame's)
        const double cpu0 = lab::process_cpu_ms();
        lab::frame_scene(s, w, h);
        const double ms = lab::frame_cost_ms(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                                        lab::process_cpu_ms() - cpu0);  // wall time, unless this process used less CPU
        worst_ms = std::max(worst_ms, ms);
        CHECK_MESSAGE(ms < 1000.0, "action " << actions << " took " << ms << " ms");
        if (const std::string broken = invariants.check(s); !broken.empty()) {
            FAIL_CHECK("after action " << actions << " (kind " << kind << "): " << broken);
            break;
        }
        ++actions;
    }
    MESSAGE(actions << " actions, slowest " << worst_ms << " ms, seed " << seed << "; invariants checked " << invariants.checks()
                    << " times, " << invariants.emulations() << " fresh emulations, " << invariants.skipped() << " too large");
    CHECK(actions > 100);
    CHECK(invariants.checks() == actions);
    CHECK(invariants.emulations() > 1);  // the schedule changed, and each one met was emulated again
}

// The invariants the monkeys check are not vacuous: each break of the state is reported, naming what broke.
TEST_CASE("monkey: the state invariants catch a wrong trace, cursor, selection, cone, text size and view") {
    lab::LabState s;
    s.backend = BackendChoice::Cpu;
    s.schedule.n = 64;
    s.schedule.block = 32;
    REQUIRE(s.rerun());
    s.finish_analysis();
    lab::frame_scene(s, 1280, 720);
    s.select(uint32_t(s.trace.events.size() - 1));  // the final store: its cone is every event the result needs
    lab::StateInvariants inv;
    REQUIRE(inv.check(s) == "");
    auto broken = [&](auto&& change) {
        lab::LabState t = s;
        change(t);
        return inv.check(t);
    };
    CHECK(broken([](lab::LabState& t) { t.trace.events[3].value ^= 1; }).find("event 3 differs") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.schedule.n = 65; }).find("is not the one shown") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.trace.schedule.n = 65, t.schedule.n = 65; }).find("events, a fresh emulation") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.trace.result_value ^= 1; }).find("result") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.analysis.span += 1; }).find("analysis") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.cursor.step = t.last() + 1; }).find("cursor's step") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.cursor.t = 1.5f; }).find("progress") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.selected = uint32_t(t.trace.events.size()); }).find("not in the trace") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.cone[0] ^= 1; }).find("closure") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.cone_size += 1; }).find("cone's size") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.select(kNoEvent), t.cone_size = 1; }).find("nothing selected") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.font_scale = 3.5f; }).find("text size") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.view.px_per_col = 0; }).find("view is broken") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.view.x0 = std::nan(""); }).find("view is broken") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.view.row_h = 1000; }).find("row height") != std::string::npos);
    CHECK(broken([](lab::LabState& t) { t.view.px_per_col = 10000; }).find("deepest") != std::string::npos);
    CHECK(inv.check(s) == "");  // the state itself still holds
}
