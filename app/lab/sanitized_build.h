// app/lab/sanitized_build.h — whether this program was built with AddressSanitizer (the asan presets), for the one
// judgement that differs there: the monkeys' one-second frame limit, which only a release build can be held to.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLAB_SANITIZED_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RLAB_SANITIZED_BUILD 1
#endif

namespace rl::lab {
#ifdef RLAB_SANITIZED_BUILD
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif
}  // namespace rl::lab
