// tests/simt/test_simt_atomics.cpp — atomics on out and a __device__ counter: the blog's warp atomics and an
// atomicMax give the exact answer, and the last-block reduction draws one ticket per block after its fence.
#include <doctest/doctest.h>

#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

TEST_CASE("simt: the blog's warp sums with atomicAdd over many blocks give n(n+1)/2") {
    REQUIRE_CLANG();
    for (uint64_t n : {1000ull, 4096ull}) {
        CAPTURE(n);
        const student::KernelOutcome o = run_file("blog_warp_sum.cu", n, 128);
        INFO(o.error);
        REQUIRE(o.ok);
        CHECK(result_of(o.trace) == double(n * (n + 1) / 2));
        CHECK(o.trace.hazards.empty());
    }
}

TEST_CASE("simt: atomicMax of warp maxima gives the largest element, with max as the run's operator") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_file("warp_max_atomic.cu", 1000, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(o.trace.schedule.op == Op::Max);
    CHECK(result_of(o.trace) == 1000);  // in = 1..n
    CHECK(o.trace.hazards.empty());
}

// Blocks run one after another, so block b draws ticket b; each ticket follows its block's fence in thread 0.
TEST_CASE("simt: the last-block reduction: a fence and a ticket per block, the last block sums the partials") {
    REQUIRE_CLANG();
    const simt::Module m = compile_file("last_block.cu");
    const simt::Kernel& k = m.kernels.at(0);
    CHECK(k.ticket_counter);
    const Launched r = launch(k, 1000, 128);
    REQUIRE(r.error.empty());
    const uint32_t grid = 8;  // ceil(1000 / 128)
    for (uint32_t b = 0; b < grid; ++b) {
        CAPTURE(b);
        const std::vector<uint32_t> own = thread_records(r.records, b, 0);
        size_t fence = own.size(), ticket = own.size();
        for (size_t i = 0; i < own.size(); ++i) {
            if (r.records[own[i]].kind == EventKind::Fence) fence = i;
            if (r.records[own[i]].kind == EventKind::Ticket) ticket = i;
        }
        REQUIRE(ticket < own.size());
        CHECK(fence + 1 == ticket);
        const StudentRecord& tk = r.records[own[ticket]];
        CHECK(tk.aux == b);
        CHECK(tk.atomic_old == b);
        CHECK(tk.line == 19);
        CHECK(r.records[own[fence]].line == 18);
        for (uint32_t t = 1; t < 128; ++t)
            for (uint32_t i : thread_records(r.records, b, t)) CHECK(r.records[i].kind != EventKind::Ticket);
    }
    const student::KernelOutcome o = run_file("last_block.cu", 1000, 128);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(result_of(o.trace) == 500500);
    CHECK(o.trace.hazards.empty());
}

}  // namespace
}  // namespace rl::simt_test
