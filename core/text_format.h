// core/text_format.h — one number formatted printf-style, for tables and sentences built from data.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace rl {

// format_number("%.2f", 3.14159) == "3.14". `format` must take exactly one double.
inline std::string format_number(const char* format, double v) {
    char buf[64];
    snprintf(buf, sizeof buf, format, v);
    return buf;
}

// hex32(0x1f) == "0x0000001f": a lane mask as traces and hazards write it.
inline std::string hex32(uint32_t v) {
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08x", unsigned(v));
    return buf;
}

}  // namespace rl
