// core/accum.h — thread-stage accumulation choices for float sums (plain, f64, Kahan, pairwise).
// Shared verbatim by the CPU emulator and the CUDA kernels so that both accumulate bit for bit alike.
// Each choice acts only on a thread's own items, before any communication between threads.
#pragma once
#include <cstdint>
#include "core/numeric_types.h"

namespace rl {

enum class Accum : uint8_t {
    Plain,     // one add per item in the accumulator type
    F64,       // items added in double, rounded to the accumulator type once at the end
    Kahan,     // compensated summation (Kahan 1965): a running correction catches each add's rounding
    Pairwise,  // the items combined as a balanced tree: ceil(log2 items) roundings instead of items-1
};

// Kahan's compensated sum. Four adds/subtracts per item after the first; the compensation is
// dropped at the end (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Alg. 4.2).
template <class A> struct KahanState {
    A sum;
    A c;
};
template <class A> RL_HD KahanState<A> kahan_start(A x) { return {x, A(0)}; }
template <class A> RL_HD void kahan_add(KahanState<A>& s, A x) {
    A y = x - s.c;        // the item, corrected by the rounding lost so far
    A t = s.sum + y;      // the rounded new sum
    s.c = (t - s.sum) - y;  // what that add lost (exactly, when |sum| >= |y|), negated
    s.sum = t;
}

// f64: a double running sum; the accumulator-type value is read only at the end (one rounding).
template <class A> RL_HD double wide_start(A x) { return double(x); }
template <class A> RL_HD double wide_add(double s, A x) { return s + double(x); }
template <class A> RL_HD A wide_round(double s) { return A(s); }

// Pairwise in one pass: a stack of partial sums over 1, 2, 4, ... items, like a binary counter.
// After the c-th item is pushed, the top two merge once per trailing zero bit of c; at the end the
// stack merges from the top. Every merge keeps left-to-right order (older ⊕ newer) and the tree's
// depth is ceil(log2 items). T carries whatever the caller tracks (a value, or a value and its event).
constexpr uint32_t kPairwiseStack = 24;  // 2^24 items per thread; traces stop at 60000 items
template <class T, class Merge>
RL_HD void pairwise_push(T* stack, uint32_t& depth, uint64_t count, const T& x, Merge merge) {
    stack[depth++] = x;
    for (uint64_t c = count; (c & 1u) == 0 && depth >= 2; c >>= 1) {
        stack[depth - 2] = merge(stack[depth - 2], stack[depth - 1]);
        --depth;
    }
}
template <class T, class Merge> RL_HD T pairwise_finish(T* stack, uint32_t depth, Merge merge) {
    while (depth > 1) {
        stack[depth - 2] = merge(stack[depth - 2], stack[depth - 1]);
        --depth;
    }
    return stack[0];
}

// Floating-point instructions each choice executes in a thread with k >= 1 items, counted from
// the code above: plain and pairwise k-1 adds; Kahan 4 per item after the first; f64 one
// conversion per item, k-1 double adds and one conversion back.
RL_HD uint64_t thread_stage_flops(Accum a, uint64_t k) {
    if (k == 0) return 0;
    switch (a) {
        case Accum::Plain:
        case Accum::Pairwise: return k - 1;
        case Accum::Kahan: return 4 * (k - 1);
        case Accum::F64: return k + (k - 1) + 1;
    }
    return 0;
}

}  // namespace rl
