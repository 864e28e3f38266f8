// tests/random_schedule.h — seeded random valid schedules across operators, types and stages.
#pragma once
#include <random>
#include "core/schedule.h"

namespace rl::testing {

inline Schedule random_schedule(std::mt19937_64& rng, uint64_t max_n = 20000) {
    auto pick = [&](auto... xs) {
        const uint64_t v[] = {uint64_t(xs)...};
        return v[rng() % sizeof...(xs)];
    };
    Schedule s;
    for (;;) {
        s = Schedule{};
        s.op = Op(rng() % 7);
        s.type = DType(rng() % 5);
        s.n = rng() % 3 == 0 ? pick(1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 100, 255, 256, 257, 1000, 1023, 4113)
                             : 1 + rng() % max_n;
        s.block = uint32_t(pick(1, 2, 5, 8, 31, 32, 33, 40, 64, 96, 100, 128, 256, 257, 512, 1000, 1024));
        s.items = uint32_t(1 + rng() % 8);
        s.grid = rng() % 5 == 0 ? uint32_t(1 + rng() % 6) : 0;
        s.assign = Assign(rng() % 2);
        s.warp = WarpStage(rng() % 6);
        s.block_stage = BlockStage(rng() % 2);
        s.grid_stage = GridStage(rng() % 5);
        s.input.kind = InputKind(rng() % 8);
        s.input.seed = rng();
        if (s.op == Op::Prod) {
            // products of values near 1 stay finite and normal, so relative error bounds apply
            s.input.kind = InputKind::Values;
            s.input.values.resize(s.n);
            for (auto& v : s.input.values)
                v = s.type == DType::I32 ? double(int(rng() % 5) - 2) : 0.9 + 0.2 * double(rng() % 1000) / 1000.0;
        }
        if (s.grid_stage == GridStage::AtomicElement && s.n > 3000) s.n = 1 + rng() % 3000;
        // Float sums also vary the thread stage's accumulation (plain, f64, Kahan, pairwise).
        if (s.op == Op::Sum && s.type != DType::I32 && s.grid_stage != GridStage::AtomicElement) {
            s.accum = Accum(s.input.seed % 4);  // from the seed already drawn: the schedule stream stays as it was
            if (s.accum == Accum::F64 && s.type == DType::F64) s.accum = Accum::Kahan;
        }
        // The summary's blockReduce on power-of-two blocks, from the seed already drawn (the stream stays as it was).
        if (s.block >= 64 && (s.block & (s.block - 1)) == 0 && (s.input.seed >> 8) % 4 == 0) {
            s.block_stage = BlockStage::SmemTreeShfl;
            s.warp = WarpStage::ShflDown;
        }
        if (validate(s).empty()) return s;
    }
}

}  // namespace rl::testing
