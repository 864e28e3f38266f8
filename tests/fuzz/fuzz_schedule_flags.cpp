// tests/fuzz/fuzz_schedule_flags.cpp — libFuzzer target: the schedule flags as every front end sets them
// (set_field per NAME=VALUE line, then validate); small valid schedules are also emulated and analysed, and a
// clean schedule's result is checked against a reference computed here from its inputs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/error.h"
#include "core/input.h"
#include "core/ops.h"
#include "core/schedule.h"

namespace {

[[noreturn]] void wrong(const rl::Schedule& s, const std::string& what) {
    std::fprintf(stderr, "fuzz_schedule_flags: %s: %s\n", rl::describe(s).c_str(), what.c_str());
    std::abort();
}

// The result of a clean schedule against the inputs, never against the trace's own reference:
//  - exact operators bit for bit: i32 sums modulo 2^32 (a 128-bit sum, wrapped), max, min, argmax (the lowest
//    index among equal maxima), sum-count's count (n), the order witness of contiguous items ([0, n-1]);
//  - float sums within gamma_(n+2) * sum|x| of a long double sum (itself within (n-1)*2^-64*sum|x| of exact):
//    each input meets at most n-1 inexact adds of two non-empty ranges (adding an identity 0 is exact), and an
//    f64 or Kahan thread stage costs at most two roundings more than its adds (docs/numerics.md's bounds).
// Products are left out: their bound is relative to a product that may underflow or overflow.
void check_result(const rl::Schedule& s, const rl::Trace& t) {
    using namespace rl;
    if (s.bugs != 0 || s.op == Op::Prod || t.result_event == kNoEvent) return;
    const InputData in = make_input(s);
    const size_t n = in.size();
    if (n != s.n) wrong(s, "the input has " + std::to_string(n) + " elements");
    const uint64_t bits = t.result_value;
    const bool f64 = s.type == DType::F64, i32 = s.type == DType::I32;
    auto value_at = [&](uint64_t b) -> long double {
        if (i32) return int32_t(uint32_t(b));
        if (f64) return unpack_value<double>(b);
        return unpack_value<float>(uint32_t(b));
    };
    long double sum = 0.0L, abs_sum = 0.0L;
    __extension__ __int128 exact_i = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = in.value(i);
        if (!std::isfinite(x)) return;  // an infinite or NaN input has no finite reference
        sum += x;
        abs_sum += std::fabs((long double)x);
        exact_i += __extension__(__int128)(i32 ? int64_t(x) : 0);
    }
    switch (s.op) {
        case Op::Sum:
        case Op::SumCount: {
            const uint64_t sum_bits = s.op == Op::SumCount ? uint32_t(bits) : bits;
            if (s.op == Op::SumCount && uint32_t(bits >> 32) != n)
                wrong(s, "sum-count counted " + std::to_string(uint32_t(bits >> 32)) + " elements of " + std::to_string(n));
            if (i32) {
                const int32_t expect = int32_t(uint32_t(uint64_t(exact_i)));
                if (int32_t(uint32_t(sum_bits)) != expect)
                    wrong(s, "i32 sum " + std::to_string(int32_t(uint32_t(sum_bits))) + ", exact (mod 2^32) " + std::to_string(expect));
                return;
            }
            const bool wide = f64 && s.op == Op::Sum;  // sum-count accumulates in 32 bits
            if (abs_sum > (wide ? 0x1.0p1000L : 0x1.0p120L)) return;  // the accumulator may overflow: no finite reference
            const long double u = wide ? 0x1.0p-53L : 0x1.0p-24L, k = (long double)(n + 2);
            const long double bound = k * u / (1 - k * u) * abs_sum + 2.0L * n * 0x1.0p-64L * abs_sum;
            const long double got = wide ? (long double)unpack_value<double>(sum_bits) : (long double)unpack_value<float>(uint32_t(sum_bits));
            if (!(std::fabs(got - sum) <= bound))
                wrong(s, "sum " + std::to_string(double(got)) + " is " + std::to_string(double(std::fabs(got - sum))) +
                             " from the exact " + std::to_string(double(sum)) + ", over the bound " + std::to_string(double(bound)));
            return;
        }
        case Op::Max:
        case Op::Min:
        case Op::ArgMax: {
            long double best = in.value(0);
            uint32_t at = 0;
            for (size_t i = 1; i < n; ++i) {
                const long double x = in.value(i);
                if (s.op == Op::Min ? x < best : x > best) best = x, at = uint32_t(i);
            }
            const long double got = value_at(s.op == Op::ArgMax ? uint32_t(bits) : bits);
            if (got != best) wrong(s, std::string(to_string(s.op)) + " " + std::to_string(double(got)) + ", expected " + std::to_string(double(best)));
            if (s.op == Op::ArgMax && uint32_t(bits >> 32) != at)
                wrong(s, "argmax index " + std::to_string(uint32_t(bits >> 32)) + ", expected " + std::to_string(at));
            return;
        }
        case Op::Witness: {
            // Any order gives [0, n-1] or "violated", never another range. Contiguous items merged by an ascending
            // tree (lane l takes l + offset, l a multiple of 2*offset) at every level, the partials in block order,
            // keep left-to-right order: [0, n-1]. (Trees from the widest offset down merge lane 0 with lane 16:
            // out of order, a genuine finding, as are grid-stride items and per-element atomics issued item-major.)
            const uint32_t lo = uint32_t(bits), hi = uint32_t(bits >> 32);
            const bool ascending = s.effective_warp() == WarpStage::ShflDownAsc || s.effective_warp() == WarpStage::SmemDivergent ||
                                   s.effective_warp() == WarpStage::SmemStrided;
            const bool ordered = ascending && s.block_stage == BlockStage::WarpPartials &&
                                 s.effective_assign() == Assign::Contiguous && s.effective_grid_stage() != GridStage::AtomicElement;
            if ((lo != kWitnessViolated || ordered) && (lo != 0 || hi != n - 1))
                wrong(s, "witness [" + std::to_string(lo) + ".." + std::to_string(hi) + "], expected [0.." + std::to_string(n - 1) + "]" +
                             (ordered ? "" : " or violated"));
            return;
        }
        case Op::Prod: return;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rl::Schedule s;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        const size_t eq = line.find('=');
        if (eq != std::string_view::npos) rl::set_field(s, line.substr(0, eq), line.substr(eq + 1));
        pos = end + 1;
    }
    if (!rl::validate(s).empty()) return 0;
    // Running is only for schedules the fuzzer can afford many times a second.
    if (s.n > 4096 || s.grid_size() > 64 || s.items > 64 || !rl::check_traceable(s, 64u << 20).empty()) return 0;
    rl::Trace t;
    try {
        t = rl::emulate(s);
        rl::analyze(t);
    } catch (const rl::Error&) {
        return 0;
    }
    check_result(s, t);
    return 0;
}
