// tests/simt/test_simt_warp.cpp — the blog's warp-shuffle kernel on the interpreter, record by record against a
// hand model of __shfl_down_sync (each lane's source, offset, value and the records it names), and the width rule.
#include <doctest/doctest.h>

#include <array>
#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

float value_of(const StudentRecord& r) { return unpack_value<float>(r.value); }

// blog_warp_sum.cu on n elements (n <= 32), one warp: lanes below n load in[lane] = lane + 1 on line 9 after their
// `float sum = 0` (a fill), lanes past n only fill; then five shuffle-and-add steps on line 4, offsets 16, 8, 4,
// 2, 1, where lane L reads lane L + d when that is a lane of the warp and its own value otherwise; lane 0 adds the
// warp's sum to out[0] on line 11.
void check_blog(int n) {
    const simt::Module m = compile_file("blog_warp_sum.cu");
    const Launched r = launch(m.kernels.at(0), n, 32);
    REQUIRE(r.error.empty());
    const std::vector<StudentRecord>& rec = r.records;
    std::array<std::vector<uint32_t>, 32> own;
    for (uint32_t lane = 0; lane < 32; ++lane) own[lane] = thread_records(rec, 0, lane);

    // The model: each lane's value and the record that holds it.
    std::array<float, 32> v{};
    std::array<uint32_t, 32> holder{};
    for (uint32_t lane = 0; lane < 32; ++lane) {
        CAPTURE(lane);
        const bool loads = int(lane) < n;
        const StudentRecord& fill = rec[own[lane][0]];
        CHECK(fill.kind == EventKind::IdentityFill);
        CHECK(fill.value == 0);
        CHECK(fill.flags == kIdentity);
        CHECK(fill.line == (loads ? 9 : 4));
        if (loads) {
            const StudentRecord &load = rec[own[lane][1]], &sum = rec[own[lane][2]];
            CHECK(load.kind == EventKind::Load);
            CHECK(load.aux == lane);
            CHECK(load.detail == 0);
            CHECK(value_of(load) == float(lane + 1));
            CHECK(sum.kind == EventKind::Combine);
            CHECK(sum.dep[0] == own[lane][0]);  // sum + in[i]: the fill on the left
            CHECK(sum.dep[1] == own[lane][1]);
            CHECK(value_of(sum) == float(lane + 1));
            v[lane] = float(lane + 1);
            holder[lane] = own[lane][2];
        } else {
            holder[lane] = own[lane][0];
        }
    }
    for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t d = 16u >> k;
        std::array<float, 32> next{};
        std::array<uint32_t, 32> next_holder{};
        for (uint32_t lane = 0; lane < 32; ++lane) {
            CAPTURE(lane);
            CAPTURE(d);
            const size_t first = (int(lane) < n ? 3 : 1) + 2 * k;
            const StudentRecord &shfl = rec[own[lane][first]], &add = rec[own[lane][first + 1]];
            const uint32_t src = lane + d < 32 ? lane + d : lane;
            CHECK(shfl.kind == EventKind::Shuffle);
            CHECK(shfl.detail == (d | (lane + d) << 8));
            CHECK(shfl.aux == 0xffffffffu);
            CHECK(shfl.group == k);
            CHECK(shfl.line == 4);
            CHECK(shfl.dep[0] == holder[src]);
            CHECK(value_of(shfl) == v[src]);
            CHECK(add.kind == EventKind::Combine);
            CHECK(add.dep[0] == holder[lane]);
            CHECK(add.dep[1] == own[lane][first]);
            CHECK(value_of(add) == v[lane] + v[src]);
            next[lane] = v[lane] + v[src];
            next_holder[lane] = own[lane][first + 1];
        }
        v = next;
        holder = next_holder;
    }
    const float total = float(n * (n + 1) / 2);
    CHECK(v[0] == total);
    // Lane 0 alone adds the warp's sum to out[0]; every other lane's records end with its last combine.
    REQUIRE(own[0].size() == size_t(n > 0 ? 14 : 12));
    const StudentRecord& atomic = rec[own[0].back()];
    CHECK(atomic.kind == EventKind::Atomic);
    CHECK(atomic.line == 11);
    CHECK(atomic.detail == 0);
    CHECK(atomic.dep[1] == holder[0]);
    CHECK(value_of(atomic) == total);
    CHECK(atomic.atomic_old == 0);
    for (uint32_t lane = 1; lane < 32; ++lane) CHECK(own[lane].size() == (int(lane) < n ? 13u : 11u));
    CHECK(r.out.at(0).bits == pack_value(total));
    CHECK(r.ops_used == 1u);  // + only
    CHECK(r.first_op == 0);
}

TEST_CASE("simt: the blog's warp sum over 8 elements, record by record") {
    REQUIRE_CLANG();
    check_blog(8);
}

TEST_CASE("simt: the blog's warp sum over a full warp, record by record") {
    REQUIRE_CLANG();
    check_blog(32);
}

// PTX's shfl.sync.bfly with width 8 and lane mask 8 (the H200 agrees, docs/student-kernels.md): lanes 8-15 read
// lanes 0-7 (a partner in an earlier segment), lanes 0-7 keep their own (the partner is past their segment).
TEST_CASE("simt: __shfl_xor_sync with a width: sources as PTX's bfly picks them") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void k(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    float w = __shfl_xor_sync(0xffffffffu, v, 8, 8);
    if (threadIdx.x == 9) out[0] = w;
})");
    const Launched r = launch(m.kernels.at(0), 16, 16);
    REQUIRE(r.error.empty());
    for (uint32_t lane = 0; lane < 16; ++lane) {
        CAPTURE(lane);
        const std::vector<uint32_t> own = thread_records(r.records, 0, lane);
        REQUIRE(own.size() >= 2);
        const StudentRecord& shfl = r.records[own[1]];
        const uint32_t src = lane < 8 ? lane : lane - 8;
        CHECK(shfl.kind == EventKind::Shuffle);
        CHECK(shfl.detail == (8u | (lane ^ 8u) << 8));
        CHECK(shfl.dep[0] == thread_records(r.records, 0, src).at(0));  // the source lane's load
        CHECK(value_of(shfl) == float(src + 1));
        CHECK(shfl.line == 3);
    }
    CHECK(r.out.at(0).bits == pack_value(2.0f));  // lane 9 read lane 1's in[1] = 2
}

// A lane that reads a lane outside the warp's executing lanes (here lanes 16-31 of a block of 16) gets an
// undefined value: the Shuffle is flagged undefined, with no record to name.
TEST_CASE("simt: a shuffle from a lane that does not take part reads an undefined value") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void k(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffffu, v, 8);
    if (threadIdx.x == 0) out[0] = v;
})");
    const Launched r = launch(m.kernels.at(0), 16, 16);
    REQUIRE(r.error.empty());
    for (uint32_t lane = 0; lane < 16; ++lane) {
        CAPTURE(lane);
        const StudentRecord& shfl = r.records[thread_records(r.records, 0, lane).at(1)];
        CHECK(shfl.kind == EventKind::Shuffle);
        CHECK(bool(shfl.flags & kUndefined) == (lane >= 8));
        if (lane >= 8) CHECK(shfl.dep[0] == kNoEvent);
        if (lane < 8) CHECK(shfl.dep[0] == thread_records(r.records, 0, lane + 8).at(0));
    }
}

}  // namespace
}  // namespace rl::simt_test
