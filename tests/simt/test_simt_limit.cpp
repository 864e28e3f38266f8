// tests/simt/test_simt_limit.cpp — the trace limit (docs/limits.md: 16,777,216 events) counts events: a warp's
// lanes arriving together at a __syncthreads() are one event and one record (kWarpArrival: aux = the lanes), so a
// launch whose events just fit is run to its end, and one event more stops it with the limit named.
#include <doctest/doctest.h>

#include <string>
#include "core/limits.h"
#include "simt_test.h"

namespace rl::simt_test {
namespace {

// 64 threads (two warps): each stores its element to shared memory and waits at one barrier; thread 0 then adds
// them up. By hand: 64 barrier arrivals in two warps of 32 lanes arriving together: 2 events, 2 records (each the
// lanes of its warp), none merged.
constexpr const char* kOneBarrier = R"(__global__ void one_barrier(const int* in, int* out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t == 0) {
        int acc = 0;
        for (int i = 0; i < 64; ++i) acc += s[i];
        out[0] = acc;
    }
}
)";

TEST_CASE("simt: the trace limit counts a warp's arrival at a barrier once: events that just fit run to the end") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    const simt::Module m = compile(kOneBarrier);
    REQUIRE(m.kernels.size() == 1);
    const simt::Kernel& k = m.kernels[0];
    const Launched alone = launch(k, 64, 64);
    REQUIRE(alone.error == "");
    CHECK(alone.merged == 0);
    uint32_t barriers = 0;
    for (const StudentRecord& r : alone.records)
        if (r.kind == EventKind::Barrier) {
            ++barriers;
            CHECK(r.thread % 32 == 0);
            CHECK(r.aux == 0xffffffffu);
            CHECK((r.pad0 & kWarpArrival) != 0);
        }
    CHECK(barriers == 2);
    CHECK(alone.out[0].bits == 64 * 65 / 2);  // in = 1..64
    // every record is one event (none merged)
    const uint64_t events = alone.records.size();

    // Earlier launches' records such that this launch's events end exactly at the limit: not refused.
    const Launched fits = launch(k, 64, 64, Op::Sum, uint32_t(limits::kTraceEvents - events));
    CHECK(fits.error == "");
    CHECK(fits.records.size() == alone.records.size());
    CHECK(fits.out[0].bits == 64 * 65 / 2);

    // One event more: stopped, the limit named in events.
    const Launched over = launch(k, 64, 64, Op::Sum, uint32_t(limits::kTraceEvents - events + 1));
    CHECK(over.error.find("more than 16777216 events") != std::string::npos);
    CHECK(over.error.find("trace limit") != std::string::npos);
}

}  // namespace
}  // namespace rl::simt_test
