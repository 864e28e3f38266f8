// core/numeric_types.h — element types, and exact conversions of bf16/f16 storage to float.
#pragma once
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define RL_HD __host__ __device__ __forceinline__
#else
#define RL_HD inline
#endif

namespace rl {

// Input element type. bf16 and f16 are stored as 16-bit patterns and accumulated in f32.
enum class DType : uint8_t { F32, F64, I32, BF16, F16 };

template <class To, class From>
RL_HD To bit_cast_hd(const From& from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    memcpy(&to, &from, sizeof(To));
    return to;
}

// bf16 is the top half of an f32: widening is a shift, exact.
RL_HD float bf16_to_float(uint16_t h) { return bit_cast_hd<float>(uint32_t(h) << 16); }

// IEEE half to float, exact (every half is representable as a float).
RL_HD float f16_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);  // inf or nan
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;  // signed zero
    } else {
        // subnormal half: normalise into a float
        int e = -1;
        do { ++e; man <<= 1; } while ((man & 0x400u) == 0);
        bits = sign | (uint32_t(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    return bit_cast_hd<float>(bits);
}

// Round-to-nearest-even narrowing, used when generating bf16/f16 inputs on the host.
uint16_t float_to_bf16(float f);
uint16_t float_to_f16(float f);

}  // namespace rl
