// tests/simt/test_simt_dialect.cpp — the fiber runtime (student/host_runtime.cpp) is the reference for what a record
// holds: a kernel of the lab's dialect (tests/student/kernels) and the same kernel in plain CUDA, line for line
// (tests/simt/kernels/dialect), give the same trace event by event. Only an identity fill's line may differ: the
// dialect fills where `rl::identity` is written, plain CUDA where the constant is first used.
#include <doctest/doctest.h>

#include <string>
#include "simt_test.h"

namespace rl::simt_test {
namespace {

student::KernelOutcome run_path(const std::string& path, uint64_t n, uint32_t block) {
    student::KernelRequest r;
    r.file = path;
    r.schedule.n = n;
    r.schedule.block = block;
    r.time_limit_s = 60;
    return student::run_kernel(r);
}

std::string hazard_kinds(const Trace& t) {
    std::string s;
    for (const Hazard& h : t.hazards) s += std::string(to_string(h.kind)) + " ";
    return s;
}

void same_trace(const std::string& kernel, uint64_t n, uint32_t block) {
    CAPTURE(kernel);
    CAPTURE(n);
    CAPTURE(block);
    const student::KernelOutcome dialect = run_path(std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + kernel, n, block);
    const student::KernelOutcome plain = run_path(kernel_path("dialect/" + kernel), n, block);
    INFO(dialect.error);
    INFO(plain.error);
    REQUIRE(dialect.ok);
    REQUIRE(plain.ok);
    const Trace &a = dialect.trace, &b = plain.trace;
    REQUIRE(a.events.size() == b.events.size());
    size_t differ = 0;
    for (size_t i = 0; i < a.events.size(); ++i) {
        const Event &x = a.events[i], &y = b.events[i];
        const bool same = x.kind == y.kind && x.flags == y.flags && x.step == y.step && x.thread == y.thread &&
                          x.detail == y.detail && x.block == y.block && x.aux == y.aux && x.dep[0] == y.dep[0] &&
                          x.dep[1] == y.dep[1] && x.value == y.value &&
                          (x.kind == EventKind::IdentityFill || a.lines.at(i) == b.lines.at(i));
        if (!same && differ++ < 3) {
            CAPTURE(i);
            CHECK(same);
        }
    }
    CHECK(differ == 0);
    CHECK(a.result_value == b.result_value);
    CHECK(hazard_kinds(a) == hazard_kinds(b));
}

TEST_CASE("simt: plain CUDA gives the dialect's trace: shared-memory tree, shared arrays of warp partials") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    for (const char* kernel : {"smem_tree.cu", "warp_xor.cu", "warp_tree_syncwarp.cu"}) {
        same_trace(kernel, 100, 64);
        same_trace(kernel, 40, 32);
    }
}

TEST_CASE("simt: plain CUDA gives the dialect's trace: grid-stride doubles, an up-scan, the last-block ticket") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    for (const char* kernel : {"grid_stride.cu", "warp_scan_up.cu", "last_block.cu"}) {
        same_trace(kernel, 100, 64);
        same_trace(kernel, 300, 128);
    }
}

}  // namespace
}  // namespace rl::simt_test
