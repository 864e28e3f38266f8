// simt/values.h — the run's packed values: identity, poison, and a combine as the fiber runtime computes it.
#pragma once
#include <cstdint>
#include "core/event_flags.h"
#include "core/ops.h"
#include "simt/program.h"

namespace rl::simt {

inline uint64_t identity_of(DType type, rl::Op op) {
    if (op == rl::Op::Witness) return pack_value(WitnessOp::identity());
    if (op == rl::Op::ArgMax) return pack_value(ArgMaxOp<float>::identity());  // (-inf, no element): float in only
    auto of = [&](auto zero) -> uint64_t {
        using A = decltype(zero);
        switch (op) {
            case rl::Op::Max: return pack_value(MaxOp<A>::identity());
            case rl::Op::Min: return pack_value(MinOp<A>::identity());
            case rl::Op::Prod: return pack_value(ProdOp<A>::identity());
            default: return pack_value(SumOp<A>::identity());
        }
    };
    switch (type) {
        case DType::F64: return of(0.0);
        case DType::I32: return of(int32_t(0));
        default: return of(0.0f);
    }
}

inline uint64_t poison_of(DType type, rl::Op op) {
    return type == DType::F64 || op == rl::Op::Witness ? kPoisonBits : kPoisonBits & 0xffffffffu;
}

template <class A> uint64_t combine_as(uint8_t combine, uint64_t a, uint64_t b) {
    const A x = unpack_value<A>(a), y = unpack_value<A>(b);
    switch (combine) {
        case kCombineMax: return pack_value(MaxOp<A>::combine(x, y));
        case kCombineMin: return pack_value(MinOp<A>::combine(x, y));
        case kCombineProd: return pack_value(mul_acc(x, y));
        default: return pack_value(add_acc(x, y));
    }
}

// What a combine of a and b computes: the kernel's operator, or under --op witness the merge of element ranges.
inline uint64_t combine_bits(DType type, rl::Op run_op, uint8_t combine, uint64_t a, uint64_t b) {
    if (run_op == rl::Op::Witness)
        return pack_value(WitnessOp::combine(unpack_value<WitnessValue>(a), unpack_value<WitnessValue>(b)));
    // --op argmax (float elements): the pair (value, index) of the greater, the lower index on a tie, whichever the
    // kernel's own compare kept; the value half is the kernel's max either way.
    if (run_op == rl::Op::ArgMax && combine == kCombineMax)
        return pack_value(ArgMaxOp<float>::combine(unpack_value<ArgMaxValue<float>>(a), unpack_value<ArgMaxValue<float>>(b)));
    switch (type) {
        case DType::F64: return combine_as<double>(combine, a, b);
        case DType::I32: return combine_as<int32_t>(combine, a, b);
        default: return combine_as<float>(combine, a, b);
    }
}

}  // namespace rl::simt
