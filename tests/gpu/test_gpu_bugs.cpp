// tests/gpu/test_gpu_bugs.cpp — every injectable bug run for real on the GPU: the trace carries the
// rule it breaks, the result is what the hardware returned, and races show under the amplifier.
// (divergent-barrier deadlocks the GPU, so it runs in its own process: tests/gpu/test_sanitizers.sh.)
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <vector>
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/input.h"
#include "cuda/host_api.h"
#include "../support/helpers.h"

using namespace rl;
using rl::test::with;

namespace {

Trace on_gpu(const Schedule& s, uint32_t race_delay_ns = 0) {
    REQUIRE(validate(s) == "");
    cuda::CaptureOptions o;
    o.race_delay_ns = race_delay_ns;
    Trace t = cuda::capture_trace(s, make_input(s), o);
    REQUIRE(t.backend == Backend::Cuda);
    return t;
}

size_t count(const Trace& t, HazardKind k) {
    return size_t(std::count_if(t.hazards.begin(), t.hazards.end(), [k](const Hazard& h) { return h.kind == k; }));
}

// The verdict on the value the GPU returned, setting aside the rules' "undefined" flag: wrong or right by value.
Verdict by_value(Trace t) {
    t.result_flags &= uint8_t(~kUndefined);
    return analyze(t).verdict;
}

}  // namespace

TEST_CASE("gpu bugs: the mask bugs and the uninitialised tail are flagged undefined, at the lanes the emulator names") {
    struct Row {
        Schedule s;
        HazardKind kind;
    };
    // Lanes 40-63 were never launched: they count as exited, so the full mask breaks no rule there;
    // reading them is the error.
    for (const Row& row : {Row{with(40, 40, Bug::FullMaskPartialWarp), HazardKind::ReadFromNonParticipatingLane},
                           Row{with(40, 40, Bug::UnboundedSource), HazardKind::ReadFromNonParticipatingLane},
                           Row{with(30, 32, Bug::UninitTail), HazardKind::UninitialisedTail}}) {
        CAPTURE(describe(row.s));
        Trace gpu = on_gpu(row.s);
        Trace emu = emulate(row.s);
        CHECK(count(gpu, row.kind) > 0);
        CHECK(count(gpu, row.kind) == count(emu, row.kind));
        // a mask hazard may name only lanes that exist (the block stage's shuffle over lanes 0-1 of
        // warp 0 with the full mask names lanes 2-31, which exist); never lanes 40-63
        for (const Hazard& h : gpu.hazards)
            if (h.kind == HazardKind::MaskNamesInactiveLanes) {
                const uint32_t exist = row.s.block >= 32 * (h.warp + 1) ? 0xffffffffu : (1u << (row.s.block - 32 * h.warp)) - 1;
                CHECK((h.lanes & ~exist) == 0);
            }
        // the same findings at the same places (the checker walks each trace in its own event order)
        auto places = [](const Trace& t) {
            std::vector<std::tuple<int, uint32_t, uint32_t, uint32_t>> out;
            for (const Hazard& h : t.hazards) out.emplace_back(int(h.kind), h.block, h.warp, h.lanes);
            std::sort(out.begin(), out.end());
            return out;
        };
        CHECK(places(gpu) == places(emu));
        CHECK(analyze(gpu).verdict == Verdict::Undefined);
        MESSAGE(describe(row.s) << ": this GPU returned " << format_value(row.s.op, row.s.type, gpu.result_value));
    }
}

TEST_CASE("gpu bugs: a wrong identity gives the wrong answer on the hardware too") {
    Schedule s = with(30, 32, Bug::WrongIdentity);
    s.op = Op::Max;
    s.input.kind = InputKind::Values;
    for (int i = 0; i < 30; ++i) s.input.values.push_back(-1.0 - i);
    Trace gpu = on_gpu(s);
    CHECK(count(gpu, HazardKind::WrongIdentity) > 0);
    CHECK(unpack_value<float>(gpu.result_value) == 0.0f);  // the tail's 0 beats every negative value
    CHECK(analyze(gpu).verdict == Verdict::Wrong);
}

TEST_CASE("gpu bugs: order bugs break the order witness on the hardware, deterministically") {
    Schedule grid_stride = with(1000, 64, Bug::GridStrideOrder);
    grid_stride.op = Op::Witness;
    grid_stride.grid = 2;
    grid_stride.warp = WarpStage::ShflDownAsc;
    Schedule descending = with(64, 32, Bug::DescendingOrder);
    descending.op = Op::Witness;
    descending.warp = WarpStage::ShflDownAsc;
    descending.items = 2;
    for (const Schedule& s : {grid_stride, descending}) {
        CAPTURE(describe(s));
        for (int run = 0; run < 3; ++run) {
            Trace gpu = on_gpu(s);
            CHECK(count(gpu, HazardKind::OrderViolation) > 0);
            CHECK(analyze(gpu).verdict == Verdict::OrderViolated);
        }
        Schedule fixed = s;
        fixed.bugs = 0;
        CHECK(analyze(on_gpu(fixed)).verdict == Verdict::Exact);
    }
}

TEST_CASE("gpu bugs: one atomic per element is correct but forms a chain as long as the input") {
    Trace gpu = on_gpu(with(1000, 128, Bug::AtomicPerElement));
    CHECK(count(gpu, HazardKind::AtomicContention) == 1);
    CHECK(std::count_if(gpu.events.begin(), gpu.events.end(), [](const Event& e) { return e.kind == EventKind::Atomic; }) == 1000);
    const Analysis a = analyze(gpu);
    CHECK(a.span == 1000);
    CHECK((a.verdict == Verdict::Exact || a.verdict == Verdict::WithinBound));
}

TEST_CASE("gpu bugs: the missing barrier races on the hardware and the amplifier makes it show") {
    for (BlockStage bs : {BlockStage::WarpPartials, BlockStage::SmemTree}) {
        Schedule s = with(256, 128, Bug::MissingBarrier);
        s.block_stage = bs;
        CAPTURE(describe(s));
        int wrong_plain = 0, wrong_amplified = 0;
        const int runs = 20;
        for (int r = 0; r < runs; ++r) {
            // The rule is broken on every run (the hazard is attached); whether the value is wrong
            // depends on the hardware's timing, so the GPU's result is judged by value.
            Trace plain = on_gpu(s);
            CHECK(count(plain, HazardKind::SharedMemoryRace) > 0);
            const Verdict v = by_value(plain);
            wrong_plain += v != Verdict::Exact && v != Verdict::WithinBound;
            const Verdict va = by_value(on_gpu(s, 2000));
            wrong_amplified += va != Verdict::Exact && va != Verdict::WithinBound;
        }
        MESSAGE(describe(s) << ": wrong results " << wrong_plain << "/" << runs << " plain, " << wrong_amplified << "/"
                            << runs << " with producer warps delayed 2 us");
        CHECK(wrong_amplified > 0);
        CHECK(wrong_amplified >= wrong_plain);
        // The fix: with the barrier, every run is right even with the amplifier.
        Schedule fixed = s;
        fixed.bugs = 0;
        for (int r = 0; r < 5; ++r) {
            Trace t = on_gpu(fixed, 2000);
            CHECK(t.hazards.empty());
            const Verdict v = analyze(t).verdict;
            CHECK((v == Verdict::Exact || v == Verdict::WithinBound));
        }
    }
}

TEST_CASE("gpu bugs: the volatile unroll is reported as an implicit-warp-sync hazard on the GPU trace") {
    Schedule s = with(64, 64, Bug::VolatileUnroll);
    s.warp = WarpStage::SmemSequential;
    s.input.kind = InputKind::Iota;
    Trace gpu = on_gpu(s);
    CHECK(count(gpu, HazardKind::ImplicitWarpSync) > 0);
    MESSAGE("volatile-unroll: this GPU returned " << format_value(s.op, s.type, gpu.result_value)
                                                  << " (2080 is right; the rules do not promise it)");
}

TEST_CASE("gpu bugs: the last-block pattern without __threadfence is found from the missing fence events") {
    Schedule s = with(4096, 128, Bug::MissingThreadfence);
    s.grid_stage = GridStage::LastBlock;
    auto fences = [](const Trace& t) {
        return std::count_if(t.events.begin(), t.events.end(), [](const Event& e) { return e.kind == EventKind::Fence; });
    };
    int wrong = 0;
    const int runs = 10;
    for (int r = 0; r < runs; ++r) {
        Trace gpu = on_gpu(s);
        CHECK(fences(gpu) == 0);
        CHECK(count(gpu, HazardKind::MissingThreadfence) > 0);
        const Verdict v = by_value(gpu);
        wrong += v != Verdict::Exact && v != Verdict::WithinBound;
    }
    MESSAGE(describe(s) << ": wrong results " << wrong << "/" << runs << " (a stale partial needs unlucky timing)");
    Schedule fixed = s;
    fixed.bugs = 0;
    Trace t = on_gpu(fixed);
    CHECK(fences(t) == t.grid);  // one per block, by the thread that stored the partial
    CHECK(t.hazards.empty());
}
