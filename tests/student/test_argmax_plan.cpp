// tests/student/test_argmax_plan.cpp — --op argmax on the emulator end to end: a kernel's int index in out[0] checked
// against the first index of the maximum, tmp and tmpi in a two-launch plan, and the bad combinations refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include "core/ops.h"
#include "core/schedule.h"
#include "student/kernel_run.h"

namespace fs = std::filesystem;
using namespace rl;

namespace {

// The manifest's 40 values (tests/cuda/corpus/manifest.txt): the maximum 8.25 is at 19 and at 33.
const char* kInput = "-7.5,-2,3.5,-6.5,-1,4.5,-5.5,0,5.5,-4.5,1,6.5,-3.5,2,7.5,-2.5,3,-7,-1.5,8.25,-6,-0.5,5,-5,0.5,6,-4,1.5,7,-3,2.5,"
                     "-7.5,-2,8.25,-6.5,-1,4.5,-5.5,0,5.5";

bool have_clang() { return fs::exists("/usr/bin/clang-14") || fs::exists("/usr/lib/llvm-14/bin/clang"); }

student::KernelOutcome run(const std::string& corpus_file, const std::string& op, uint32_t block, uint32_t grid,
                           const std::string& launch = {}) {
    student::KernelRequest r;
    r.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/" + corpus_file;
    r.launch = launch;
    r.schedule.n = 40;
    r.schedule.block = block;
    r.schedule.grid = grid;
    REQUIRE(set_field(r.schedule, "input", kInput).empty());
    if (!op.empty()) {
        REQUIRE(set_field(r.schedule, "op", op).empty());
        r.op_given = true;
    }
    r.time_limit_s = 60;
    return student::run_kernel(r);
}

ArgMaxValue<float> pair(uint64_t bits) { return unpack_value<ArgMaxValue<float>>(bits); }

}  // namespace

TEST_CASE("argmax plan: the kernel's int in out[0] against the first index of the maximum") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    // The tree that keeps the lower index on a tie writes 19; the tie bug keeps slot 1's (8.25, 33) (the manifest's
    // hand derivation). The reference is (8.25, 19) either way; the result pair is (its history's value, the int).
    struct Case { const char* file; int32_t index; };
    for (const Case c : {Case{"argmax_index_block.cu", 19}, Case{"argmax_index_tie_bug.cu", 33}}) {
        CAPTURE(c.file);
        const student::KernelOutcome o = run(c.file, "argmax", 32, 1);
        REQUIRE_MESSAGE(o.ok, o.error);
        CHECK(o.trace.schedule.op == Op::ArgMax);
        const ArgMaxValue<float> got = pair(o.trace.result_value), want = pair(o.trace.reference_value);
        CHECK(want.value == 8.25f);
        CHECK(want.index == 19u);
        CHECK(got.value == 8.25f);
        CHECK(int32_t(got.index) == c.index);
        CHECK((o.trace.result_value == o.trace.reference_value) == (c.index == 19));
    }
}

TEST_CASE("argmax plan: two launches through tmp and tmpi") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    // Block 0 (elements 0-31) leaves (8.25, 19), block 1 (32-39, the rest at -FLT_MAX and -1) (8.25, 33); the final
    // block keeps the lower index of the equal pair: 19.
    const student::KernelOutcome o =
        run("argmax_two_launches.cu", "argmax", 32, 0,
            "argmax_block<<<2, 32>>>(in, tmp, tmpi, n); argmax_final<<<1, 32>>>(tmp, tmpi, out, 2)");
    REQUIRE_MESSAGE(o.ok, o.error);
    CHECK(o.trace.launches.size() == 2);
    CHECK(int32_t(pair(o.trace.result_value).index) == 19);
    CHECK(o.trace.result_value == o.trace.reference_value);
}

TEST_CASE("argmax plan: bad combinations are one line, bad input") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    struct Case { const char* file; const char* op; const char* launch; const char* words; };
    const Case cases[] = {
        {"argmax_two_launches.cu", "max", "argmax_block<<<2, 32>>>(in, tmp, tmpi, n); argmax_final<<<1, 32>>>(tmp, tmpi, out, 2)",
         "tmpi is argmax's scratch buffer of indices: it needs --op argmax"},
        {"harris3_sequential.cu", "argmax", "", "--op argmax: harris3(int*, int*, unsigned int) does not take the lab's argmax launch"},
        {"argmax_index_block.cu", "", "", "argmax_index_block.cu:7: run it with --op argmax: argmax_index(float const*, int*, int) does not take the lab's launch"},
        {"argmax_two_launches.cu", "argmax", "argmax_block<<<2, 32>>>(in, tmpi, tmp, n); argmax_final<<<1, 32>>>(tmp, tmpi, out, 2)",
         "tmpi holds ints, argmax's indices"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.file);
        CAPTURE(c.launch);
        const student::KernelOutcome o = run(c.file, c.op, 32, 1, c.launch);
        CHECK_FALSE(o.ok);
        CHECK(o.failure == student::KernelFailure::BadInput);
        CHECK(o.error.find(c.words) != std::string::npos);
        CHECK(o.error.find('\n') == std::string::npos);
    }
}
