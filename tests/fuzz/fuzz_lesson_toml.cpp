// tests/fuzz/fuzz_lesson_toml.cpp — libFuzzer target: the lesson parser (TOML, then every field's checks).
// It reports problems as LessonErrors and must never throw, crash or recurse without bound.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/lesson.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<rl::LessonError> errors;
    rl::parse_lesson(std::string(reinterpret_cast<const char*>(data), size), "fuzz", "fuzz.toml", errors);
    return 0;
}
