// core/limits.h — the input limits every reader enforces up front (stated for users in docs/limits.md).
#pragma once
#include <cstdint>

namespace rl::limits {

// Files: a trace JSON is read as a stream, so its cap only bounds the time spent on it.
constexpr uint64_t kTraceFileBytes = 1ull << 30;     // 1 GiB
constexpr uint64_t kLessonFileBytes = 1ull << 20;    // 1 MiB
constexpr uint64_t kBenchFileBytes = 64ull << 20;    // 64 MiB
constexpr uint64_t kSettingsFileBytes = 1ull << 20;  // 1 MiB

// Nesting of arrays/objects (JSON) and tables, arrays and dotted keys (TOML): our formats need 4.
constexpr int kJsonDepth = 64;
constexpr int kTomlDepth = 32;

// A trace: events, hazards and inputs each at most this many (16,777,216 events are 512 MiB in memory).
constexpr uint64_t kTraceEvents = 1ull << 24;

// Lessons: steps per lesson, elements per step and elements over all steps (a front end keeps the traces of
// the steps it shows: the total bounds its memory; `rlab lessons --check` plays one step at a time).
constexpr uint32_t kLessonSteps = 64;
constexpr uint64_t kLessonN = 1ull << 20;
constexpr uint64_t kLessonTotalN = 1ull << 22;

// Geometry of a launch (as CUDA allows for the kernels this lab records).
constexpr uint32_t kBlockThreads = 1024;
constexpr uint64_t kGridBlocks = 0x7fffffffull;

// `rlab check --runs`.
constexpr uint32_t kCheckRuns = 10000;
constexpr uint64_t kCheckRunElements = 1ull << 30;  // runs x n

// `rlab bench --sizes`: powers of two 2^1 .. 2^30, at most this many sizes.
constexpr int kBenchLog2Max = 30;

// A student's kernel (rlab run FILE.cu): shared-memory slots of its rl::Shared arrays per block, and the events
// one thread may record (the step budget that stops an endless loop that records).
constexpr uint32_t kStudentSharedSlots = 4096;
constexpr uint32_t kStudentThreadEvents = 65535;

}  // namespace rl::limits
