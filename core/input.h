// core/input.h — named, seeded input generators and the element storage a kernel reads.
#pragma once
#include <cstdint>
#include <vector>
#include "core/schedule.h"

namespace rl {

// Elements as the kernel stores them: f32, f64, i32, or 16-bit bf16/f16 patterns.
struct InputData {
    DType type = DType::F32;
    std::vector<float> f32;
    std::vector<double> f64;
    std::vector<int32_t> i32;
    std::vector<uint16_t> h16;

    size_t size() const;
    double value(size_t i) const;       // exact value of element i
    const void* data() const;
    size_t element_bytes() const;
};

// Generates the schedule's input (kind, seed, n, type). Deterministic across machines.
InputData make_input(const Schedule& s);

}  // namespace rl
