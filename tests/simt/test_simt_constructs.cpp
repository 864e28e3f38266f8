// tests/simt/test_simt_constructs.cpp — the rest of the subset the decoder maps: a switch, a local array set by
// memset, printf, __syncthreads_count, assert(), a template kernel picked by name, and a double shuffled as two
// 32-bit halves (the lab's headers) recorded as one shuffle that keeps the value's history.
#include <doctest/doctest.h>

#include "core/error.h"
#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

// Thread 1 of each block: vals[1] = in[1] = 2 (the rest 0 from `= {0}`), w = 2 (t % 4 == 1), out[1] = 2 + 2; thread
// 0: 5 threads of its block have t < 5.
TEST_CASE("simt: switch, a memset local array, printf and __syncthreads_count") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void misc(const int* in, int* out, int n) {
    int t = threadIdx.x;
    int vals[8] = {0};
    vals[t % 8] = in[t];
    int w;
    switch (t % 4) {
        case 0: w = 1; break;
        case 1: w = 2; break;
        case 2: w = 5; break;
        default: w = 7; break;
    }
    vprintf("hello", 0);
    int c = __syncthreads_count(t < 5);
    int s = 0;
    for (int k = 0; k < 8; ++k) s += vals[k];
    if (t == 0) out[0] = c;
    if (t == 1) out[1] = s + w;
})");
    const Launched r = launch(m.kernels.at(0), 64, 32);
    REQUIRE(r.error.empty());
    CHECK(unpack_value<int32_t>(r.out.at(0).bits) == 5);
    CHECK(unpack_value<int32_t>(r.out.at(1).bits) == 4);
}

TEST_CASE("simt: a failed assert() is one line with the thread, its line and the condition") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_source(R"(#include <cassert>
__global__ void k(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    printf("thread %d\n", threadIdx.x);
    assert(threadIdx.x < 40);
    out[0] = v;
}
)", 64, 64);
    CHECK_FALSE(o.ok);
    CHECK(o.error == "thread 40 of block 0 on line 5: assert(threadIdx.x < 40) failed");
}

TEST_CASE("simt: a file's kernels by name: one is picked, two need a name, a template instance by its arguments") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(template <unsigned B> __global__ void tree(const int* in, int* out, int n) {
    if (threadIdx.x == 0) out[blockIdx.x] = in[0] + B;
}
template __global__ void tree<64>(const int*, int*, int);
__global__ void other(const int* in, int* out, int n) {}
)");
    REQUIRE(m.kernels.size() == 2);
    CHECK(simt::pick_kernel(m, "tree<64>").name == "tree<64u>");
    CHECK(simt::pick_kernel(m, "tree").name == "tree<64u>");
    CHECK(simt::pick_kernel(m, "other").name == "other");
    CHECK_THROWS_WITH_AS(simt::pick_kernel(m, ""),
                         "kernel.cu: 2 __global__ kernels (tree<64u>, other): name the one to run with --kernel NAME", Error);
    CHECK_THROWS_WITH_AS(simt::pick_kernel(m, "third"), "kernel.cu: no kernel third (the file has tree<64u>, other)", Error);
}

// The lab's headers shuffle a double as its low and high words; the decoder makes the pair one 64-bit shuffle, so
// lane L's k-th Shuffle names the record that held lane L ^ m's value (m = 16, 8, 4, 2, 1) and each lane ends with
// the warp's sum. in = 1..32: 528.
TEST_CASE("simt: a double shuffled as two 32-bit halves is one Shuffle with the value's history") {
    REQUIRE_CLANG();
    const simt::Module m = compile_with_lab_headers(R"(__global__ void xor_sum(const double* in, double* out, int n) {
    double v = in[threadIdx.x];
    for (int m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
    if (threadIdx.x == 31) out[0] = v;
}
)");
    const Launched r = launch(m.kernels.at(0), 32, 32);
    REQUIRE(r.error.empty());
    std::vector<uint32_t> holder(32);
    std::vector<double> v(32);
    std::vector<std::vector<uint32_t>> own(32);
    for (uint32_t lane = 0; lane < 32; ++lane) {
        own[lane] = thread_records(r.records, 0, lane);
        holder[lane] = own[lane].at(0);  // the load
        v[lane] = lane + 1;
    }
    for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t mask = 16u >> k;
        std::vector<uint32_t> next(32);
        std::vector<double> sum(32);
        for (uint32_t lane = 0; lane < 32; ++lane) {
            CAPTURE(lane);
            CAPTURE(k);
            const StudentRecord& shfl = r.records[own[lane].at(1 + 2 * k)];
            const StudentRecord& add = r.records[own[lane].at(2 + 2 * k)];
            CHECK(shfl.kind == EventKind::Shuffle);
            CHECK(shfl.dep[0] == holder[lane ^ mask]);
            CHECK(unpack_value<double>(shfl.value) == v[lane ^ mask]);
            CHECK(add.kind == EventKind::Combine);
            sum[lane] = v[lane] + v[lane ^ mask];
            next[lane] = own[lane].at(2 + 2 * k);
        }
        v = sum;
        holder = next;
    }
    CHECK(v[0] == 528);
    CHECK(unpack_value<double>(r.out.at(0).bits) == 528);
}

}  // namespace
}  // namespace rl::simt_test
