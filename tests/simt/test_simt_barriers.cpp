// tests/simt/test_simt_barriers.cpp — __syncthreads() under a condition that is not the same for the whole block
// (CUDA Programming Guide: allowed in conditional code only when the condition evaluates identically across the
// block). The engine runs such a kernel as a GPU since Volta does: while a warp's path waits at a barrier, its other
// paths go on alone, and the barrier completes when every thread waits at one or has exited. The threads that
// passed the barrier alive record their exits, so the checker names them (divergent-barrier); threads that only
// return (`if (i >= n) return;`) are exited, as on the hardware. A warp split between two barrier lines still hangs.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

student::KernelOutcome run_corpus(const std::string& name, uint64_t n, uint32_t block) {
    student::KernelRequest r;
    r.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/" + name;
    r.schedule.n = n;
    r.schedule.block = block;
    r.time_limit_s = 60;
    return student::run_kernel(r);
}

std::vector<const Hazard*> hazards_of(const Trace& t, HazardKind kind) {
    std::vector<const Hazard*> out;
    for (const Hazard& h : t.hazards)
        if (h.kind == kind) out.push_back(&h);
    return out;
}

std::set<uint32_t> exiting_threads(const Trace& t) {
    std::set<uint32_t> out;
    for (const Event& e : t.events)
        if (e.kind == EventKind::Exit) out.insert(e.block * t.schedule.block + e.thread);
    return out;
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// Lanes 16-31 skip the barrier and store after it: they go on alone, so the kernel finishes, and each records
// its exit with the one barrier it passed. Lanes 0-15 reach it together and record no exit: their arrival is one
// record (kWarpArrival) under lane 0, aux = lanes 0-15, and lanes 1-15 keep its place in their own order (seq 1).
TEST_CASE("simt: __syncthreads() that half a warp skips completes, and the skipping lanes record their exits") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void one(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    if (threadIdx.x < 16) __syncthreads();
    out[0] = v;
})");
    const Launched r = launch(m.kernels.at(0), 32, 32);
    REQUIRE(r.error.empty());
    for (uint32_t t = 0; t < 32; ++t) {
        CAPTURE(t);
        const std::vector<uint32_t> own = thread_records(r.records, 0, t);
        REQUIRE(own.size() == (t == 0 || t >= 16 ? 3u : 2u));  // the load, the barrier or the store, the store or the exit
        const StudentRecord& last = r.records[own.back()];
        if (t == 0) {
            const StudentRecord& arrival = r.records[own[1]];
            CHECK(arrival.kind == EventKind::Barrier);
            CHECK((arrival.pad0 & kWarpArrival) != 0);
            CHECK(arrival.aux == 0xffffu);
            CHECK(last.kind == EventKind::BlockPartial);
        } else if (t < 16) {
            CHECK(r.records[own[0]].seq == 0);
            CHECK(last.seq == 2);  // seq 1: its arrival, lane 0's record
            CHECK(last.kind == EventKind::BlockPartial);
        } else {
            CHECK(r.records[own[1]].kind == EventKind::BlockPartial);
            CHECK(last.kind == EventKind::Exit);
            CHECK(last.group == 1);  // barriers passed: the one it skipped
            CHECK(last.line == 5);   // the kernel's closing brace, where it returns
        }
    }
}

TEST_CASE("simt: the corpus's barrier inside `if (t < half)` finishes with 2080 and names the skipping threads") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_corpus("bug_syncthreads_in_if.cu", 64, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    CHECK(result_of(t) == 2080.0);  // the H200's result (docs/gpu/h200-2026-12-03-plain-corpus-report.md)
    const std::vector<const Hazard*> div = hazards_of(t, HazardKind::DivergentBarrier);
    REQUIRE(div.size() == 6);  // the barrier on line 11, at each of the six levels; the one on line 7 is whole
    for (const Hazard* h : div) {
        CHECK(t.lines.at(h->event) == 11);
        CHECK(h->warp == 0);
    }
    // half = 32: warp 0 reaches it, warp 1 passed it alive; half = 16: lanes 0-15, and lanes 16-31 passed it too.
    CHECK(div[0]->lanes == 0xffffffffu);
    CHECK(contains(div[0]->what, "but not by 32 threads of the block that have not exited (lanes 0-31 of warp 1)"));
    CHECK(div[1]->lanes == 0x0000ffffu);
    CHECK(contains(div[1]->what, "but not by 48 threads of the block that have not exited (lanes 16-31 of warp 0, lanes 0-31 of warp 1)"));
    CHECK(div[5]->lanes == 0x1u);
    // Every thread but thread 0 skipped a level alive; each exit is on the row of the last level's barrier.
    std::set<uint32_t> expected;
    for (uint32_t k = 1; k < 64; ++k) expected.insert(k);
    CHECK(exiting_threads(t) == expected);
    for (const Event& e : t.events)
        if (e.kind == EventKind::Exit) CHECK(e.step == t.events[div[5]->event].step);
}

// `if (i >= n) return;` before the barrier: the threads past n exit, and exited threads do not count.
constexpr const char* kEarlyReturn = R"(__global__ void early(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = in[i];
    __syncthreads();
    if (t == 0) {
        float sum = 0.0f;
        for (unsigned k = 0; k < blockDim.x && blockIdx.x * blockDim.x + k < n; ++k) sum += s[k];
        out[blockIdx.x] = sum;
    }
}
)";

TEST_CASE("simt: an early return before __syncthreads() is clean: the threads that return have exited") {
    REQUIRE_CLANG();
    // n 40: lanes 8-31 of warp 1 return; n 32: all of warp 1; n 100: a second block where lanes 4-31 of warp 1 do.
    for (const auto& run : {std::pair{40, 820.0}, {32, 528.0}, {100, 5050.0}}) {
        const int n = run.first;  // not a structured binding: clang 14 cannot capture one in CAPTURE's lambda
        const double sum = run.second;
        CAPTURE(n);
        const student::KernelOutcome o = run_source(kEarlyReturn, uint64_t(n), 64, "kernel.cu", two_pass_plan("early", uint64_t(n), 64, 0));
        INFO(o.error);
        REQUIRE(o.ok);
        CHECK(o.trace.hazards.empty());
        CHECK(result_of(o.trace) == sum);
        CHECK(exiting_threads(o.trace).empty());
    }
}

TEST_CASE("simt: __syncthreads() inside `if (threadIdx.x < 32)` in a block of 64 is a divergent barrier") {
    REQUIRE_CLANG();
    // Warp 1 skips the branch whole and lives on after it (the test of `t == 0`): a GPU finishes the kernel, as
    // warp 1 exits, but the condition is not the same for the whole block.
    const student::KernelOutcome o = run_source(R"(__global__ void warps(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        __syncthreads();
    }
    if (t == 0) {
        float sum = 0.0f;
        for (unsigned k = 0; k < 32; ++k) sum += s[k];
        out[blockIdx.x] = sum;
    }
}
)", 64, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    const std::vector<const Hazard*> div = hazards_of(t, HazardKind::DivergentBarrier);
    REQUIRE(div.size() == 1);
    CHECK(t.lines.at(div[0]->event) == 8);
    CHECK(div[0]->warp == 0);
    CHECK(div[0]->lanes == 0xffffffffu);
    CHECK(contains(div[0]->what, "but not by 32 threads of the block that have not exited (lanes 0-31 of warp 1)"));
    CHECK(result_of(t) == 2080.0);
    CHECK(exiting_threads(t).size() == 32);
}

TEST_CASE("simt: threads that skip a barrier and work before they return skipped it alive") {
    REQUIRE_CLANG();
    // The else side stores and returns (nothing follows the if): unlike an early return, those threads are busy
    // while warp 0 waits at the barrier on line 8.
    const student::KernelOutcome o = run_source(R"(__global__ void busy(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        __syncthreads();
        if (t == 0) out[blockIdx.x] = s[0];
    } else {
        s[t] = 0.0f;
    }
}
)", 64, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    const std::vector<const Hazard*> div = hazards_of(o.trace, HazardKind::DivergentBarrier);
    REQUIRE(div.size() == 1);
    CHECK(o.trace.lines.at(div[0]->event) == 8);
    CHECK(contains(div[0]->what, "(lanes 0-31 of warp 1)"));
}

TEST_CASE("simt: a warp whose paths wait at two __syncthreads() lines still hangs") {
    REQUIRE_CLANG();
    // Lanes 16-31 skip the first barrier, go on alone and wait at the second: one warp at two barriers, which a
    // GPU never finishes (the two-line case of docs/student-kernels.md).
    const simt::Module m = compile(R"(__global__ void two(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    if (threadIdx.x < 16) __syncthreads();
    __syncthreads();
    out[0] = v;
})");
    const Launched r = launch(m.kernels.at(0), 32, 32);
    CHECK(r.error ==
          "the kernel hangs: in block 0, threads 0-15 wait at __syncthreads() on line 3 and threads 16-31 on line 4: the "
          "threads of a warp must all reach the same __syncthreads()");
}

TEST_CASE("simt: a warp that skips a barrier and reaches the next one is counted at that next one") {
    REQUIRE_CLANG();
    // Warp 1 waits at line 4 while warp 0 waits at line 3 (one line per warp: both go on, as on the H200); the
    // barriers are numbered by the ones each thread passed, so line 4 is the same barrier for both warps and only
    // line 3 misses warp 1.
    const student::KernelOutcome o = run_source(R"(__global__ void next(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    if (threadIdx.x < 32) __syncthreads();
    __syncthreads();
    if (threadIdx.x == 0) out[0] = v;
}
)", 64, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    const std::vector<const Hazard*> div = hazards_of(o.trace, HazardKind::DivergentBarrier);
    REQUIRE(div.size() == 1);
    CHECK(o.trace.lines.at(div[0]->event) == 3);
    CHECK(contains(div[0]->what, "(lanes 0-31 of warp 1)"));
}

// tests/student/kernels/bad_barrier_hang.cu in plain CUDA. The lanes that skip the barrier go on alone to the
// full-mask shuffle, and the two paths never meet again: each runs the shuffle on its own (the engine's rule, the
// lanes that execute a shuffle are the ones taking part), so the trace shows two shuffles, each naming lanes that do
// not execute it, and lane 0 reading lane 16, which did not take part in its. (The dialect's runtime makes the upper
// half wait at the shuffle for the lower one and says the kernel hangs; whether a GPU does is not known.)
TEST_CASE("simt: a full-mask shuffle after a barrier half the warp skips runs once per path") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_source(R"(__global__ void bad_barrier_hang(const float* in, float* out, int n) {
    unsigned t = threadIdx.x;
    float v = t < (unsigned)n ? in[t] : 0.0f;
    if (t < 16) __syncthreads();
    v = v + __shfl_down_sync(0xffffffff, v, 16);
    if (t == 0) out[0] = v;
}
)", 32, 32);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    CHECK(hazards_of(t, HazardKind::DivergentBarrier).size() == 1);
    const std::vector<const Hazard*> masks = hazards_of(t, HazardKind::MaskNamesInactiveLanes);
    REQUIRE(masks.size() == 2);
    CHECK(t.events[masks[0]->event].step != t.events[masks[1]->event].step);
    const std::vector<const Hazard*> reads = hazards_of(t, HazardKind::ReadFromNonParticipatingLane);
    REQUIRE(reads.size() == 1);
    CHECK(reads[0]->lanes == 0x1u);
    CHECK((t.result_flags & kUndefined) != 0);
}

}  // namespace
}  // namespace rl::simt_test
