// tests/gpu/test_gpu_bugs.cpp — every injectable bug run for real on the GPU: the trace carries the
// rule it breaks, the result is what the hardware returned, and races show under the amplifier.
// (divergent-barrier deadlocks the GPU, so it runs in its own process: tests/gpu/test_sanitizers.sh.)
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/gpu_trace.h"
#include "core/input.h"
#include "cuda/host_api.h"
#include "../support/hazard_places.h"
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
    // threads 30 and 31 have no element and start from 0 (the identity fill at step 0 of block 0's warp 0);
    // nothing else breaks a rule, and the emulator's trace of the same deterministic run says the same
    CHECK(test::hazard_places(gpu) == "wrong-identity on identity-fill at step 0, block 0 warp 0 lanes 0xc0000000\n");
    CHECK(test::hazard_places(gpu) == test::hazard_places(emulate(s)));
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
    // Where the witness first breaks: with grid-stride assignment every thread's first merge (step 1) joins
    // elements a grid apart (i and i + 128), in both blocks and both warps; in descending order the first
    // shuffle (offset 16, step 2) merges lane i's two elements with lane i + 16's, 32 elements further on, at
    // lanes 0-15. Both runs are deterministic (two-pass, no atomics), so the emulator's trace of the same
    // schedule names the same places.
    const std::string grid_stride_places =
        "order-violation on combine at step 1, block 0 warp 0 lanes 0xffffffff\n"
        "order-violation on combine at step 1, block 0 warp 1 lanes 0xffffffff\n"
        "order-violation on combine at step 1, block 1 warp 0 lanes 0xffffffff\n"
        "order-violation on combine at step 1, block 1 warp 1 lanes 0xffffffff\n";
    const std::string descending_places = "order-violation on combine at step 2, block 0 warp 0 lanes 0x0000ffff\n";
    for (const Schedule& s : {grid_stride, descending}) {
        CAPTURE(describe(s));
        const std::string emulated = test::hazard_places(emulate(s));
        CHECK(emulated == (s.bugs == uint16_t(Bug::GridStrideOrder) ? grid_stride_places : descending_places));
        for (int run = 0; run < 3; ++run) {
            Trace gpu = on_gpu(s);
            CHECK(test::hazard_places(gpu) == emulated);
            CHECK(analyze(gpu).verdict == Verdict::OrderViolated);
        }
        Schedule fixed = s;
        fixed.bugs = 0;
        CHECK(analyze(on_gpu(fixed)).verdict == Verdict::Exact);
    }
}

TEST_CASE("gpu bugs: one atomic per element is correct but forms a chain as long as the input") {
    Trace gpu = on_gpu(with(1000, 128, Bug::AtomicPerElement));
    // Contention is a cost, not an error: one note, and no hazard at all.
    CHECK(std::count_if(gpu.notes.begin(), gpu.notes.end(), [](const Hazard& h) { return h.kind == HazardKind::AtomicContention; }) == 1);
    CHECK(gpu.hazards.empty());
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
        // Where the race is, by the rules: warp 0 reads what other warps stored with no barrier between. Each
        // block's warp 0 reads the four warp partials, lanes 1-3 those of warps 1-3 (lane 0 its own); the tree's
        // first level (stride 2) has lanes 0 and 1 read slots 0-3, all but slot 0 stored by other warps. Fixed by
        // the program, not by the timing, so every run (and the emulator's trace) names the same places,
        // whatever value a load saw.
        const std::string race_places = bs == BlockStage::WarpPartials
            ? "shared-memory-race on shared-load at step 7, block 0 warp 0 lanes 0x0000000e\n"
              "shared-memory-race on shared-load at step 7, block 1 warp 0 lanes 0x0000000e\n"
            : "shared-memory-race on shared-load at step 7, block 0 warp 0 lanes 0x00000003\n"
              "shared-memory-race on shared-load at step 7, block 1 warp 0 lanes 0x00000003\n";
        CHECK(test::hazard_places(emulate(s), HazardKind::SharedMemoryRace) == race_places);
        int wrong_plain = 0, wrong_amplified = 0;
        const int runs = 20;
        for (int r = 0; r < runs; ++r) {
            // The rule is broken on every run (the hazard is attached); whether the value is wrong
            // depends on the hardware's timing, so the GPU's result is judged by value.
            Trace plain = on_gpu(s);
            CHECK(test::hazard_places(plain, HazardKind::SharedMemoryRace) == race_places);
            const Verdict v = by_value(plain);
            wrong_plain += v != Verdict::Exact && v != Verdict::WithinBound;
            const Trace amplified = on_gpu(s, 2000);
            CHECK(test::hazard_places(amplified, HazardKind::SharedMemoryRace) == race_places);
            const Verdict va = by_value(amplified);
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
    // The levels of offset 8, 4, 2 and 1 read the slot their partner stored at the level before with no
    // __syncwarp() between (lanes 0-7, 0-3, 0-1, 0), in both warps; the first level (offset 16) reads the
    // stores that the __syncwarp() after them orders. Fixed by the program, so the emulator's trace names the
    // same places.
    const std::string expected =
        "implicit-warp-sync on shared-load at step 3, block 0 warp 0 lanes 0x000000ff\n"
        "implicit-warp-sync on shared-load at step 3, block 0 warp 1 lanes 0x000000ff\n"
        "implicit-warp-sync on shared-load at step 4, block 0 warp 0 lanes 0x0000000f\n"
        "implicit-warp-sync on shared-load at step 4, block 0 warp 1 lanes 0x0000000f\n"
        "implicit-warp-sync on shared-load at step 5, block 0 warp 0 lanes 0x00000003\n"
        "implicit-warp-sync on shared-load at step 5, block 0 warp 1 lanes 0x00000003\n"
        "implicit-warp-sync on shared-load at step 6, block 0 warp 0 lanes 0x00000001\n"
        "implicit-warp-sync on shared-load at step 6, block 0 warp 1 lanes 0x00000001\n";
    CHECK(test::hazard_places(gpu, HazardKind::ImplicitWarpSync) == expected);
    CHECK(test::hazard_places(gpu, HazardKind::ImplicitWarpSync) == test::hazard_places(emulate(s), HazardKind::ImplicitWarpSync));
    MESSAGE("volatile-unroll: this GPU returned " << format_value(s.op, s.type, gpu.result_value)
                                                  << " (2080 is right; the rules do not promise it)");
}

TEST_CASE("gpu bugs: the last-block pattern without __threadfence is found from the recorded partials, tickets and loads") {
    Schedule s = with(4096, 128, Bug::MissingThreadfence);
    s.grid_stage = GridStage::LastBlock;
    auto fences = [](const Trace& t) {
        return std::count_if(t.events.begin(), t.events.end(), [](const Event& e) { return e.kind == EventKind::Fence; });
    };
    int wrong = 0, stale_runs = 0;
    const int runs = 10;
    for (int r = 0; r < runs; ++r) {
        Trace gpu = on_gpu(s);
        // Every block stores its partial (step g) and draws its ticket (step g + 1) with no fence between in
        // its thread 0: one missing-threadfence hazard at each block's ticket, at the places the emulator's
        // trace of the same tickets names.
        EmulatorOptions opt;
        opt.tickets = tickets_of(gpu);
        const Trace emu = emulate(s, make_input(s), opt);
        std::vector<std::string> lines;
        for (uint32_t b = 0; b < gpu.grid; ++b)
            lines.push_back("missing-threadfence on ticket at step " + std::to_string(emu.scope_start[3] + 1) + ", block " +
                            std::to_string(b) + " warp 0 lanes 0x00000001\n");
        std::sort(lines.begin(), lines.end());  // hazard_places lists its lines sorted as text
        std::string want;
        for (const std::string& l : lines) want += l;
        CHECK(test::hazard_places(gpu, HazardKind::MissingThreadfence) == want);
        CHECK(test::hazard_places(emu, HazardKind::MissingThreadfence) == want);
        // Which partials the last block saw is the hardware's: each partial load either names the block's
        // stored partial, or names no store and carries the slot's unwritten shadow. The stale-partial-read
        // hazards are exactly the loads of the second kind, and nothing else is reported.
        std::vector<uint32_t> partial_of(gpu.grid, kNoEvent);
        for (uint32_t i = 0; i < gpu.events.size(); ++i)
            if (gpu.events[i].kind == EventKind::BlockPartial) partial_of[gpu.events[i].block] = i;
        std::map<uint32_t, uint32_t> unseen, reported;  // lanes per warp of the finishing stage
        size_t loads = 0;
        for (uint32_t i = 0; i < gpu.events.size(); ++i) {
            const Event& e = gpu.events[i];
            if (e.kind != EventKind::PartialLoad) continue;
            ++loads;
            REQUIRE(e.aux < gpu.grid);
            if (e.dep[0] == kNoEvent) {
                CHECK((e.flags & (kUndefined | kStale)) == (kUndefined | kStale));
                unseen[e.warp()] |= 1u << e.lane();
            } else {
                CHECK(e.dep[0] == partial_of[e.aux]);
            }
        }
        CHECK(loads == gpu.grid);
        for (const Hazard& h : gpu.hazards) {
            CHECK((h.kind == HazardKind::MissingThreadfence || h.kind == HazardKind::StalePartialRead));
            if (h.kind != HazardKind::StalePartialRead) continue;
            CHECK(h.block == gpu.finisher_block);
            CHECK(h.what.find("no `__threadfence()` before its ticket") != std::string::npos);
            reported[h.warp] |= h.lanes;
        }
        CHECK(reported == unseen);
        stale_runs += !unseen.empty();
        if (!unseen.empty()) CHECK((gpu.result_flags & kUndefined) != 0);  // the unwritten value reaches the result
        const Verdict v = by_value(gpu);
        wrong += v != Verdict::Exact && v != Verdict::WithinBound;
    }
    MESSAGE(describe(s) << ": runs that read a partial before its store was visible " << stale_runs << "/" << runs
                        << ", wrong results " << wrong << "/" << runs << " (a stale partial needs unlucky timing)");
    Schedule fixed = s;
    fixed.bugs = 0;
    Trace t = on_gpu(fixed);
    CHECK(fences(t) == t.grid);  // one per block, by the thread that stored the partial
    CHECK(t.hazards.empty());
}
