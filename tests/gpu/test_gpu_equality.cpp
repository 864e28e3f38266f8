// tests/gpu/test_gpu_equality.cpp — the GPU trace equals the emulator trace event for event
// (kinds, ids, operands, values bit for bit, flags) over random schedules; timestamps are ordered.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include "core/analysis.h"
#include "core/emulator.h"
#include "cuda/host_api.h"
#include "../random_schedule.h"
#include "../support/gpu_compare.h"

using namespace rl;
using rl::test::first_difference;

namespace {

Trace replay(const Trace& gpu, const InputData& in) {
    EmulatorOptions opt;
    opt.atomic_positions = cuda::atomic_positions_of(gpu);
    opt.tickets = cuda::tickets_of(gpu);
    return emulate(gpu.schedule, in, opt);
}

}  // namespace

TEST_CASE("600 random schedules: GPU trace equals the emulator's, event for event and bit for bit") {
    std::mt19937_64 rng(20261129);
    int compared = 0;
    std::map<std::string, int> per_stage;
    for (int i = 0; i < 600; ++i) {
        Schedule s = testing::random_schedule(rng, 6000);
        INFO("schedule " << i << ": " << describe(s));
        InputData in = make_input(s);
        Trace gpu;
        try {
            gpu = cuda::capture_trace(s, in);
        } catch (const Error& e) {
            // the one legitimate refusal: a cooperative grid larger than the GPU can hold at once
            INFO("capture failed: " << std::string(e.what()));
            REQUIRE(std::string(e.what()).find("cannot all be resident") != std::string::npos);
            continue;
        }
        Trace emu = replay(gpu, in);
        CHECK(first_difference(gpu, emu) == "");
        CHECK(gpu.result_value == emu.result_value);
        CHECK(gpu.result_flags == emu.result_flags);
        ++compared;
        ++per_stage[std::string(to_string(s.grid_stage))];
    }
    for (auto& [stage, n] : per_stage) MESSAGE(stage << ": " << n);
    CHECK(compared >= 500);
}

TEST_CASE("atomics: the GPU's order differs from block order, and the replayed emulator matches it") {
    Schedule s;
    s.n = 1 << 16;
    s.block = 64;
    s.items = 4;
    s.grid_stage = GridStage::AtomicBlock;
    s.input.kind = InputKind::LogUniform;
    InputData in = make_input(s);
    Trace gpu = cuda::capture_trace(s, in);
    std::vector<uint32_t> pos = cuda::atomic_positions_of(gpu);
    bool in_block_order = std::is_sorted(pos.begin(), pos.end());
    MESSAGE("atomics in block order: " << std::string(in_block_order ? "yes" : "no"));
    CHECK(first_difference(gpu, replay(gpu, in)) == "");
}

TEST_CASE("timestamps: ordered within a thread, and no event after a barrier precedes an arrival at it") {
    for (BlockStage bs : {BlockStage::WarpPartials, BlockStage::SmemTree}) {
        Schedule s;
        s.n = 65536;
        s.block = 256;
        s.items = 4;
        s.block_stage = bs;
        s.input.kind = InputKind::Uniform;
        Trace t = cuda::capture_trace(s, make_input(s));
        REQUIRE(t.times.size() == t.events.size());
        // within a thread: program order is slot order, and clock64 only grows
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> last;
        size_t disorder = 0;
        for (size_t i = 0; i < t.events.size(); ++i) {
            auto key = std::make_pair(t.events[i].block, uint32_t(t.events[i].thread));
            auto it = last.find(key);
            if (it != last.end() && t.times[i].clock < it->second) ++disorder;
            last[key] = t.times[i].clock;
        }
        CHECK(disorder == 0);
        // within a block (one SM, one clock): every event after a barrier step is later than every arrival
        std::map<std::pair<uint32_t, uint16_t>, uint64_t> latest_arrival;
        for (size_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].kind == EventKind::Barrier) {
                auto& v = latest_arrival[{t.events[i].block, t.events[i].step}];
                v = std::max(v, t.times[i].clock);
            }
        REQUIRE(!latest_arrival.empty());
        size_t early = 0, checked = 0;
        for (size_t i = 0; i < t.events.size(); ++i) {
            const Event& e = t.events[i];
            if (e.flags & kFinisher) continue;
            for (auto& [key, arrival] : latest_arrival)
                if (key.first == e.block && e.step > key.second) {
                    ++checked;
                    if (t.times[i].clock < arrival) ++early;
                }
        }
        CHECK(checked > 0);
        CHECK(early == 0);
        // one SM per block
        std::map<uint32_t, uint32_t> sm_of;
        size_t moved = 0;
        for (size_t i = 0; i < t.events.size(); ++i) {
            if (t.events[i].flags & kFinisher) continue;
            auto [it, fresh] = sm_of.emplace(t.events[i].block, t.times[i].sm);
            if (!fresh && it->second != t.times[i].sm) ++moved;
        }
        CHECK(moved == 0);
    }
}
