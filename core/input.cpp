// core/input.cpp — input generators: iota, uniform, normal, equal, log-uniform, cancellation, sorted.
#include "core/input.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "core/error.h"

namespace rl {
namespace {

// Portable draws: std::*_distribution are implementation-defined, so derive from the raw engine.
struct Draw {
    std::mt19937_64 engine;
    explicit Draw(uint64_t seed) : engine(seed) {}
    double unit() { return double(engine() >> 11) * 0x1.0p-53; }  // [0, 1)
    double symmetric() { return 2.0 * unit() - 1.0; }              // [-1, 1)
    double normal() {
        double u1 = 1.0 - unit(), u2 = unit();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
};

// Largest magnitudes and decades that keep each type finite.
double big_value(DType t) {
    switch (t) {
        case DType::F16: return 1.0e4;
        case DType::I32: return 1.0e6;
        default: return 1.0e8;
    }
}
double decades(DType t) { return t == DType::F16 ? 4.0 : (t == DType::I32 ? 6.0 : 8.0); }

std::vector<double> generate(const Schedule& s) {
    const size_t n = size_t(s.n);
    std::vector<double> v(n);
    Draw d(s.input.seed);
    const bool integer = s.type == DType::I32;
    auto scaled = [&](double x, double int_scale) { return integer ? std::round(x * int_scale) : x; };
    switch (s.input.kind) {
        case InputKind::Program:
            throw Error("--input program: those values came from a program's main() and live in its trace; a schedule takes "
                        "iota, uniform, normal, equal, log-uniform, cancellation, sorted, reversed or numbers");
        case InputKind::Values: v = s.input.values; break;
        case InputKind::Iota:
            for (size_t i = 0; i < n; ++i) v[i] = double(i + 1);
            break;
        case InputKind::Equal:
            std::fill(v.begin(), v.end(), integer ? 3.0 : 0.1);
            break;
        case InputKind::Uniform:
        case InputKind::Sorted:
        case InputKind::Reversed:
            for (auto& x : v) x = scaled(d.symmetric(), 100.0);
            if (s.input.kind == InputKind::Sorted) std::sort(v.begin(), v.end());
            if (s.input.kind == InputKind::Reversed) std::sort(v.begin(), v.end(), std::greater<>());
            break;
        case InputKind::Normal:
            for (auto& x : v) x = scaled(d.normal(), 10.0);
            break;
        case InputKind::LogUniform:
            for (auto& x : v) {
                double mag = std::pow(10.0, decades(s.type) * d.symmetric());
                x = (d.unit() < 0.5 ? -1.0 : 1.0) * (integer ? std::round(mag) : mag);
            }
            break;
        case InputKind::Cancellation:
            // big +B, a small value, then -B: the bigs cancel exactly in exact arithmetic,
            // so the true sum is the small values', which naive orders round away.
            for (size_t i = 0; i < n; ++i) {
                size_t phase = i % 3;
                if (phase == 0) {
                    double big = big_value(s.type) * (1.0 + d.unit());
                    v[i] = integer ? std::round(big) : big;
                    if (i + 2 < n) v[i + 2] = -v[i];
                } else if (phase == 1) {
                    v[i] = scaled(d.symmetric(), 10.0);
                } else if (i < 2) {
                    v[i] = 0.0;
                }
            }
            break;
    }
    return v;
}

}  // namespace

size_t InputData::size() const {
    switch (type) {
        case DType::F32: return f32.size();
        case DType::F64: return f64.size();
        case DType::I32: return i32.size();
        default: return h16.size();
    }
}

double InputData::value(size_t i) const {
    switch (type) {
        case DType::F32: return f32[i];
        case DType::F64: return f64[i];
        case DType::I32: return i32[i];
        case DType::BF16: return bf16_to_float(h16[i]);
        case DType::F16: return f16_to_float(h16[i]);
    }
    return 0.0;
}

const void* InputData::data() const {
    switch (type) {
        case DType::F32: return f32.data();
        case DType::F64: return f64.data();
        case DType::I32: return i32.data();
        default: return h16.data();
    }
}

size_t InputData::element_bytes() const {
    switch (type) {
        case DType::F64: return 8;
        case DType::BF16:
        case DType::F16: return 2;
        default: return 4;
    }
}

InputData make_input(const Schedule& s) {
    std::vector<double> v = generate(s);
    InputData in;
    in.type = s.type;
    switch (s.type) {
        case DType::F32:
            in.f32.assign(v.begin(), v.end());
            break;
        case DType::F64: in.f64 = std::move(v); break;
        case DType::I32:
            in.i32.resize(v.size());
            for (size_t i = 0; i < v.size(); ++i) {
                double c = std::clamp(std::round(v[i]), -2147483648.0, 2147483647.0);
                in.i32[i] = int32_t(c);
            }
            break;
        case DType::BF16:
            in.h16.resize(v.size());
            for (size_t i = 0; i < v.size(); ++i) in.h16[i] = float_to_bf16(float(v[i]));
            break;
        case DType::F16:
            in.h16.resize(v.size());
            for (size_t i = 0; i < v.size(); ++i) in.h16[i] = float_to_f16(float(v[i]));
            break;
    }
    return in;
}

}  // namespace rl
