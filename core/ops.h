// core/ops.h — the reduction operators: identity, combine, commutativity, packing into 8 bytes.
// Shared verbatim by the CPU emulator and the CUDA kernels so that both combine bit for bit alike.
#pragma once
#include <cstdint>
#include "core/numeric_types.h"

namespace rl {

enum class Op : uint8_t { Sum, Max, Min, Prod, ArgMax, SumCount, Witness };

// Accumulator: f32 for f32/bf16/f16 inputs, f64 for f64, i32 for i32 (wrapping, like the GPU).
template <DType T> struct AccumulatorOf { using type = float; };
template <> struct AccumulatorOf<DType::F64> { using type = double; };
template <> struct AccumulatorOf<DType::I32> { using type = int32_t; };

template <class A> RL_HD A lowest_value();
template <> RL_HD float lowest_value<float>() { return -__builtin_huge_valf(); }
template <> RL_HD double lowest_value<double>() { return -__builtin_huge_val(); }
template <> RL_HD int32_t lowest_value<int32_t>() { return int32_t(0x80000000u); }
template <class A> RL_HD A highest_value();
template <> RL_HD float highest_value<float>() { return __builtin_huge_valf(); }
template <> RL_HD double highest_value<double>() { return __builtin_huge_val(); }
template <> RL_HD int32_t highest_value<int32_t>() { return int32_t(0x7fffffff); }

// Integer arithmetic wraps modulo 2^32 as on the GPU (and avoids signed-overflow UB on the host).
RL_HD int32_t add_acc(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }
RL_HD float add_acc(float a, float b) { return a + b; }
RL_HD double add_acc(double a, double b) { return a + b; }
RL_HD int32_t mul_acc(int32_t a, int32_t b) { return int32_t(uint32_t(a) * uint32_t(b)); }
RL_HD float mul_acc(float a, float b) { return a * b; }
RL_HD double mul_acc(double a, double b) { return a * b; }

// Every operator value fits the trace's 8-byte value slot; pack/unpack are plain copies.
template <class V> RL_HD uint64_t pack_value(const V& v) {
    static_assert(sizeof(V) <= 8);
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(V));
    return bits;
}
template <class V> RL_HD V unpack_value(uint64_t bits) {
    V v;
    memcpy(&v, &bits, sizeof(V));
    return v;
}

template <class A> struct SumOp {
    using Value = A;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return A(0); }
    RL_HD static Value lift(A x, uint32_t) { return x; }
    RL_HD static Value combine(Value a, Value b) { return add_acc(a, b); }
};

template <class A> struct ProdOp {
    using Value = A;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return A(1); }
    RL_HD static Value lift(A x, uint32_t) { return x; }
    RL_HD static Value combine(Value a, Value b) { return mul_acc(a, b); }
};

template <class A> struct MaxOp {
    using Value = A;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return lowest_value<A>(); }
    RL_HD static Value lift(A x, uint32_t) { return x; }
    RL_HD static Value combine(Value a, Value b) { return b > a ? b : a; }
};

template <class A> struct MinOp {
    using Value = A;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return highest_value<A>(); }
    RL_HD static Value lift(A x, uint32_t) { return x; }
    RL_HD static Value combine(Value a, Value b) { return b < a ? b : a; }
};

// Value and index; the lowest index wins a tie, which makes argmax commutative as well.
template <class A> struct ArgMaxValue { A value; uint32_t index; };
template <class A> struct ArgMaxOp {
    static_assert(sizeof(A) == 4, "argmax packs a 4-byte value and a 4-byte index");
    using Value = ArgMaxValue<A>;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return {lowest_value<A>(), 0xffffffffu}; }
    RL_HD static Value lift(A x, uint32_t i) { return {x, i}; }
    RL_HD static Value combine(Value a, Value b) {
        bool take_b = b.value > a.value || (b.value == a.value && b.index < a.index);
        return take_b ? b : a;
    }
};

template <class A> struct SumCountValue { A sum; uint32_t count; };
template <class A> struct SumCountOp {
    static_assert(sizeof(A) == 4, "sum-count packs a 4-byte sum and a 4-byte count");
    using Value = SumCountValue<A>;
    static constexpr bool commutative = true;
    RL_HD static Value identity() { return {A(0), 0u}; }
    RL_HD static Value lift(A x, uint32_t) { return {x, 1u}; }
    RL_HD static Value combine(Value a, Value b) { return {add_acc(a.sum, b.sum), a.count + b.count}; }
};

// Order witness: the range of element indices a value covers. Merging [a,b] with [b+1,c] gives
// [a,c]; merging anything else gives "violated", which absorbs everything after it. Associative,
// not commutative: the result is [0, n-1] exactly when every merge kept left-to-right order.
struct WitnessValue { uint32_t lo; uint32_t hi; };
constexpr uint32_t kWitnessEmpty = 0xffffffffu;
constexpr uint32_t kWitnessViolated = 0xfffffffeu;
struct WitnessOp {
    using Value = WitnessValue;
    static constexpr bool commutative = false;
    RL_HD static Value identity() { return {kWitnessEmpty, kWitnessEmpty}; }
    RL_HD static Value lift(float, uint32_t i) { return {i, i}; }
    RL_HD static Value lift(double, uint32_t i) { return {i, i}; }
    RL_HD static Value lift(int32_t, uint32_t i) { return {i, i}; }
    RL_HD static bool violated(Value v) { return v.lo == kWitnessViolated; }
    RL_HD static Value combine(Value a, Value b) {
        if (a.lo == kWitnessEmpty) return b;
        if (b.lo == kWitnessEmpty) return a;
        if (violated(a) || violated(b) || b.lo != a.hi + 1) return {kWitnessViolated, kWitnessViolated};
        return {a.lo, b.hi};
    }
};

}  // namespace rl
