// tests/test_ops.cpp — operator laws (identity, associativity, commutativity) checked by sampling,
// bf16/f16 conversions against exact values, and the exact summation reference.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include "core/exact_sum.h"
#include "core/emulator.h"
#include "core/ops.h"

using namespace rl;
__extension__ typedef __int128 int128;

namespace {

template <class OpT, class Gen> void check_laws(Gen gen, bool expect_commutative, bool exact_assoc) {
    std::mt19937_64 rng(3);
    bool saw_noncommutative = false;
    for (int i = 0; i < 2000; ++i) {
        auto a = gen(rng), b = gen(rng), c = gen(rng);
        using V = typename OpT::Value;
        auto bits = [](const V& v) { return pack_value(v); };
        CHECK(bits(OpT::combine(OpT::identity(), a)) == bits(a));
        CHECK(bits(OpT::combine(a, OpT::identity())) == bits(a));
        if (exact_assoc) CHECK(bits(OpT::combine(OpT::combine(a, b), c)) == bits(OpT::combine(a, OpT::combine(b, c))));
        if (bits(OpT::combine(a, b)) != bits(OpT::combine(b, a))) saw_noncommutative = true;
    }
    CHECK(saw_noncommutative == !expect_commutative);
    CHECK(OpT::commutative == expect_commutative);
}

}  // namespace

TEST_CASE("operators: identity, associativity and commutativity hold where they are claimed") {
    auto ints = [](std::mt19937_64& r) { return int32_t(r()); };
    auto small = [](std::mt19937_64& r) { return float(int(r() % 200) - 100); };
    check_laws<SumOp<int32_t>>(ints, true, true);
    check_laws<ProdOp<int32_t>>(ints, true, true);
    check_laws<MaxOp<float>>(small, true, true);
    check_laws<MinOp<double>>([](std::mt19937_64& r) { return double(int64_t(r())); }, true, true);
    check_laws<ArgMaxOp<float>>([](std::mt19937_64& r) { return ArgMaxValue<float>{float(r() % 5), uint32_t(r() % 8)}; },
                                true, true);
    check_laws<SumCountOp<int32_t>>([](std::mt19937_64& r) { return SumCountValue<int32_t>{int32_t(r()), uint32_t(r() % 9)}; },
                                    true, true);
    // Witness: random adjacent ranges (so merges are not all violations).
    check_laws<WitnessOp>([](std::mt19937_64& r) {
        uint32_t lo = uint32_t(r() % 6);
        return WitnessValue{lo, lo + uint32_t(r() % 2)};
    }, false, true);
}

TEST_CASE("float sum is commutative but not associative: the reason trees change bits") {
    float big = 1e8f, small = 1.0f;
    CHECK(SumOp<float>::combine(SumOp<float>::combine(big, small), -big) == 0.0f);
    CHECK(SumOp<float>::combine(big, SumOp<float>::combine(small, -big)) == 0.0f);
    CHECK(SumOp<float>::combine(SumOp<float>::combine(big, -big), small) == 1.0f);
}

TEST_CASE("argmax: the lowest index wins a tie, so the order of merging does not matter") {
    ArgMaxValue<float> a{5.0f, 7}, b{5.0f, 2};
    CHECK(ArgMaxOp<float>::combine(a, b).index == 2);
    CHECK(ArgMaxOp<float>::combine(b, a).index == 2);
}

TEST_CASE("witness: adjacent ranges merge, anything else is a violation that absorbs") {
    WitnessValue a{0, 3}, b{4, 9}, c{11, 12};
    auto ab = WitnessOp::combine(a, b);
    CHECK((ab.lo == 0 && ab.hi == 9));
    CHECK(WitnessOp::violated(WitnessOp::combine(b, a)));
    CHECK(WitnessOp::violated(WitnessOp::combine(ab, c)));
    CHECK(WitnessOp::violated(WitnessOp::combine(WitnessOp::combine(a, c), b)));
}

TEST_CASE("bf16 and f16: widening is exact and narrowing rounds to nearest even") {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        float f = f16_to_float(uint16_t(h));
        if (std::isnan(f)) continue;
        CHECK(float_to_f16(f) == h);  // every half survives the round trip
        float b = bf16_to_float(uint16_t(h));
        if (!std::isnan(b)) CHECK(float_to_bf16(b) == h);
    }
    CHECK(f16_to_float(0x3c00) == 1.0f);
    CHECK(f16_to_float(0x0001) == std::ldexp(1.0f, -24));
    CHECK(float_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);        // tie, to even
    CHECK(float_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);    // tie, to even (up)
    CHECK(float_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);        // tie, to even
}

TEST_CASE("exact sum: equals integer arithmetic on values built from scaled integers") {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        // x_i = m_i * 2^e_i with e_i in [-60, 60]: their exact sum as a 128-bit integer scaled by 2^-60
        std::vector<double> xs;
        int128 exact = 0;
        for (int i = 0; i < 50; ++i) {
            int64_t m = int64_t(rng() % (1ull << 40)) - (1ll << 39);
            int e = int(rng() % 41) - 20;
            xs.push_back(std::ldexp(double(m), e));
            exact += int128(m) << (e + 20);
        }
        double expected = std::ldexp(double(exact), -20);  // one rounding of the exact integer
        CHECK(exact_sum(xs) == expected);
    }
    CHECK(exact_sum(std::vector<double>{1e100, 1.0, -1e100}) == 1.0);
    ExactSum s;
    for (double x : {1.0, 0x1.0p-24, 0x1.0p-60}) s.add(x);
    CHECK(s.rounded_float() == 1.0f + 0x1.0p-23f);  // above the float tie, so it rounds up
}

TEST_CASE("identity_bits: what the kernels start from, and 0 under the wrong-identity bug") {
    Schedule s;
    s.op = Op::Max;
    CHECK(unpack_value<float>(identity_bits(s)) == -__builtin_huge_valf());
    s.op = Op::Prod;
    s.type = DType::I32;
    CHECK(unpack_value<int32_t>(identity_bits(s)) == 1);
    s.bugs = uint16_t(Bug::WrongIdentity);
    CHECK(identity_bits(s) == 0);
    s = Schedule{};
    s.op = Op::Witness;
    CHECK(unpack_value<WitnessValue>(identity_bits(s)).lo == kWitnessEmpty);
}
