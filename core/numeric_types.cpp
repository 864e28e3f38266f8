// core/numeric_types.cpp — round-to-nearest-even narrowing of float to bf16 and f16.
#include "core/numeric_types.h"

#include <cmath>

namespace rl {

uint16_t float_to_bf16(float f) {
    uint32_t u = bit_cast_hd<uint32_t>(f);
    if (std::isnan(f)) return uint16_t((u >> 16) | 0x40u);
    uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
    return uint16_t((u + rounding) >> 16);
}

uint16_t float_to_f16(float f) {
    uint32_t u = bit_cast_hd<uint32_t>(f);
    uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    if (std::isnan(f)) return uint16_t(sign | 0x7e00u);
    float a = std::fabs(f);
    if (a >= 65520.0f) return uint16_t(sign | 0x7c00u);  // rounds to infinity
    if (a < 0x1.0p-14f) {
        // subnormal half: multiples of 2^-24, nearbyint rounds half to even
        return uint16_t(sign | uint16_t(std::nearbyint(a * 0x1.0p24f)));
    }
    uint32_t au = bit_cast_hd<uint32_t>(a);
    uint32_t exp = (au >> 23) - 112u;
    uint32_t man = au & 0x7fffffu;
    uint32_t half = (exp << 10) | (man >> 13);
    uint32_t rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // carries into the exponent correctly
    return uint16_t(sign | half);
}

}  // namespace rl
