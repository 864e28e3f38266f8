// tests/bench/emulator_bench.cpp — emulator speed: events per second and bytes per event on 2^20 elements.
// A benchmark that prints its figures, not a test: run it on a quiet machine and record the output.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/emulator.h"

using namespace rl;

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    struct Config {
        const char* name;
        uint32_t items;
        WarpStage warp;
        BlockStage block_stage;
        Op op;
    };
    const Config configs[] = {
        {"shfl-down, 1 item/thread, sum f32", 1, WarpStage::ShflDown, BlockStage::WarpPartials, Op::Sum},
        {"shfl-down, 4 items/thread, sum f32", 4, WarpStage::ShflDown, BlockStage::WarpPartials, Op::Sum},
        {"smem-sequential, 4 items, smem-tree", 4, WarpStage::SmemSequential, BlockStage::SmemTree, Op::Sum},
        {"shfl-xor, 4 items, argmax f32", 4, WarpStage::ShflXor, BlockStage::WarpPartials, Op::ArgMax},
    };
    std::printf("emulator benchmark: n = 2^20 f32, 256-thread blocks, median of %d runs (one core)\n", reps);
    std::printf("%-40s %10s %12s %12s %10s\n", "schedule", "events", "ms", "Mevents/s", "B/event");
    for (const Config& c : configs) {
        Schedule s;
        s.n = 1u << 20;
        s.block = 256;
        s.items = c.items;
        s.warp = c.warp;
        s.block_stage = c.block_stage;
        s.op = c.op;
        s.input.kind = InputKind::Uniform;
        InputData input = make_input(s);
        std::vector<double> ms;
        size_t events = 0, bytes = 0;
        for (int r = 0; r < reps; ++r) {
            auto t0 = std::chrono::steady_clock::now();
            Trace t = emulate(s, input);
            auto t1 = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            events = t.events.size();
            bytes = t.events.capacity() * sizeof(Event);
        }
        std::sort(ms.begin(), ms.end());
        double median = ms[ms.size() / 2];
        std::printf("%-40s %10zu %12.1f %12.1f %10.1f\n", c.name, events, median, double(events) / median / 1e3,
                    double(bytes) / double(events));
    }
    std::printf("(ms includes the reference computation: an exact sum over the inputs)\n");
    return 0;
}
