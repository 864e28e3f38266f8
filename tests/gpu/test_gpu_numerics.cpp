// tests/gpu/test_gpu_numerics.cpp — run-to-run reproducibility on the GPU: deterministic schedules give the same
// bits every run and the emulator's bits; the atomic-block stage on an input built for it gives several.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <set>
#include <vector>
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/numerics.h"
#include "cuda/host_api.h"
#include "../support/gpu_compare.h"

using namespace rl;
using rl::test::same_events;

namespace {

// Each block's partial, the operand of its atomic, in block order: from the emulator's trace, whose block stage is
// the GPU's (the equality suite compares them event for event).
std::vector<float> block_partials(const Trace& emu) {
    std::vector<float> out;
    for (const Event& e : canonical_events(emu))
        if (e.kind == EventKind::Atomic) out.push_back(unpack_value<float>(emu.events[e.dep[1]].value));
    return out;
}

// The sum the atomics give when they land in `positions` (atomic i, in block order, lands at positions[i]): a
// plain loop of float adds from 0 in that order, as an atomicAdd chain on one word computes it.
float replay_sum(const std::vector<float>& partials, const std::vector<uint32_t>& positions) {
    REQUIRE(positions.size() == partials.size());
    std::vector<uint32_t> block_at(partials.size());
    for (uint32_t b = 0; b < positions.size(); ++b) {
        REQUIRE(positions[b] < block_at.size());
        block_at[positions[b]] = b;
    }
    float sum = 0.0f;
    for (uint32_t b : block_at) sum = sum + partials[b];
    return sum;
}

}  // namespace

TEST_CASE("deterministic schedules: every accumulation choice gives identical bits over GPU runs, equal to the emulator's") {
    constexpr int kRuns = 10;
    int schedules = 0;
    for (DType type : {DType::F32, DType::BF16, DType::F16, DType::F64})
        for (Accum a : all_accums())
            for (GridStage g : {GridStage::TwoPass, GridStage::LastBlock, GridStage::Cooperative}) {
                Schedule s;
                s.n = 40000 + 17;
                s.block = 256;
                s.items = 8;
                s.type = type;
                s.accum = a;
                s.grid_stage = g;
                s.input.kind = type == DType::F64 ? InputKind::Cancellation : InputKind::LogUniform;
                if (!validate(s).empty()) continue;
                INFO(describe(s));
                InputData in = make_input(s);
                Trace emu = emulate(s, in);
                std::set<uint64_t> bits;
                for (int r = 0; r < kRuns; ++r) {
                    Trace gpu = cuda::capture_trace(s, in);
                    bits.insert(gpu.result_value);
                    if (r == 0) {
                        EmulatorOptions opt;
                        opt.tickets = cuda::tickets_of(gpu);  // last-block: which block finished last
                        CHECK(same_events(gpu, emulate(s, in, opt)));
                    }
                }
                CHECK(bits.size() == 1);
                CHECK(*bits.begin() == emu.result_value);
                // The uninstrumented kernels run the same code: timing them must not fail, and the median must
                // be a kernel's time: about a launch or more (2 us on the H200; 0.5 allows back-to-back launches), far below a watchdog's.
                const double us = cuda::time_uninstrumented_us(s, in, 3);
                CHECK(us >= 0.5);
                CHECK(us < 50000.0);
                ++schedules;
            }
    MESSAGE(schedules << " deterministic schedules, " << kRuns << " GPU runs each, one bit pattern each");
}

TEST_CASE("atomic-block on an input built for it: the GPU's block completion order gives more than one bit pattern") {
    // 512 blocks whose partials are about +1e8 or -1e8 plus a few hundred in small values: in f32 (ulp 8
    // at 1e8) where the small parts land depends on which big partials the running sum met first.
    Schedule s;
    s.block = 256;
    s.items = 4;
    const uint64_t per_block = uint64_t(s.block) * s.items;
    const uint32_t G = 512;
    s.n = per_block * G;
    s.input.kind = InputKind::Values;
    s.input.values.assign(s.n, 0.0);
    std::mt19937_64 rng(5);
    for (uint32_t b = 0; b < G; ++b)
        for (uint64_t i = 0; i < per_block; ++i)
            s.input.values[b * per_block + i] =
                i == 0 ? (b % 2 ? -1e8 : 1e8) : double(float(double(rng() % 1000) / 1000.0));
    s.grid_stage = GridStage::AtomicBlock;
    REQUIRE(validate(s).empty());
    InputData in = make_input(s);
    constexpr int kRuns = 200;
    std::set<uint64_t> bits;
    NumericsOptions o;
    o.atomic_orders = 1;
    NumericsReport rep = compare_numerics(s, in, o);
    const NumericsRow* chosen = nullptr;
    for (const NumericsRow& r : rep.rows)
        if (r.chosen) chosen = &r;
    REQUIRE(chosen);
    // Each run's result is the order its atomics landed in, replayed on the CPU with the blocks' partials.
    const std::vector<float> partials = block_partials(emulate(s, in));
    REQUIRE(partials.size() == G);
    std::vector<uint64_t> all;
    int replayed = 0;
    for (int r = 0; r < kRuns; ++r) {
        const Trace gpu = cuda::capture_trace(s, in);
        const uint64_t v = gpu.result_value;
        bits.insert(v);
        all.push_back(v);
        const float again = replay_sum(partials, cuda::atomic_positions_of(gpu));
        replayed += pack_value(again) == v;
        CHECK_MESSAGE(pack_value(again) == v, "run " << r << ": the GPU gave " << unpack_value<float>(v)
                                                      << ", its atomics' order replayed gives " << again);
    }
    CHECK(replayed == kRuns);
    NumericsRow row = *chosen;
    set_runs(row, rep, all, "GPU");
    MESSAGE(bits.size() << " distinct bit patterns over " << kRuns << " GPU runs of atomic-block; worst error "
                        << row.worst_abs_error << " against bound " << row.bound);
    CHECK(bits.size() > 1);
    CHECK(row.within_bound);  // every order the hardware chose is still inside the tree bound
}
