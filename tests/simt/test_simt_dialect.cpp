// tests/simt/test_simt_dialect.cpp — the fiber runtime (student/host_runtime.cpp) is the reference for what a record
// holds: a kernel of the lab's dialect (tests/student/kernels) and the same kernel in plain CUDA, line for line
// (tests/simt/kernels/dialect), give the same trace event by event, less the buffer a plain run's global accesses carry
// in `detail` (bits 12-15). Only an identity fill's line may differ: the
// dialect fills where `rl::identity` is written, plain CUDA where the constant is first used. A racy kernel too:
// both CPU paths interleave a block's warps one access at a time, so a missing barrier lets the same stores in.
// Where the lab gives the dialect kernel its second launch over the block partials, the plain kernel runs the same two
// launches as a plan (K over in into tmp, K over tmp into out). Then the first launch's events are compared event by
// event, and the result and the hazards: the
// dialect's second launch is stepped beside the first (its events flagged finisher), a plan's launch after the one
// before it, so their later events come in another order.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include "simt_test.h"
#include "student/cuda_source.h"

namespace rl::simt_test {
namespace {

student::KernelOutcome run_path(const std::string& path, uint64_t n, uint32_t block, const std::string& launch = {}) {
    student::KernelRequest r;
    r.file = path;
    r.launch = launch;
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

// The dialect's kernel at `dialect_path` (under the source folder) against tests/simt/kernels/dialect/PLAIN.
Trace same_trace(const std::string& dialect_path, const std::string& plain, uint64_t n, uint32_t block) {
    CAPTURE(dialect_path);
    CAPTURE(n);
    CAPTURE(block);
    const student::KernelOutcome dialect = run_path(std::string(RLAB_SOURCE_DIR) + "/" + dialect_path, n, block);
    INFO(dialect.error);
    REQUIRE(dialect.ok);
    bool second = false;
    for (const Event& e : dialect.trace.events) second = second || e.block >= dialect.trace.grid;
    std::string plan;
    if (second) {
        std::stringstream text;
        text << std::ifstream(kernel_path("dialect/" + plain)).rdbuf();
        const std::vector<student::CudaKernelDecl> kernels = student::cuda_kernel_declarations(text.str());
        REQUIRE(kernels.size() == 1);
        const uint32_t bytes = dialect.trace.schedule.type == DType::F64 ? 8 : 4;
        plan = two_pass_plan(kernels[0].name, n, block, block * bytes);
    }
    const student::KernelOutcome plain_run = run_path(kernel_path("dialect/" + plain), n, block, plan);
    INFO(plain_run.error);
    REQUIRE(plain_run.ok);
    const Trace &a = dialect.trace, &b = plain_run.trace;
    REQUIRE(a.events.size() == b.events.size());
    size_t first_launch = a.events.size();
    if (second) {
        first_launch = 0;
        for (const Event& e : a.events) first_launch += e.block < a.grid;
        for (size_t i = 0; i < first_launch; ++i) REQUIRE(a.events[i].block < a.grid);  // the first launch's events come first
    }
    size_t differ = 0;
    for (size_t i = 0; i < first_launch; ++i) {
        const Event &x = a.events[i], &y = b.events[i];
        const bool buffer = x.kind == EventKind::BlockPartial || x.kind == EventKind::FinalStore || x.kind == EventKind::PartialLoad ||
                            x.kind == EventKind::Atomic;
        const uint32_t buffer_bits = buffer ? 0xf000u : 0u;  // a plain run's buffer (every plain run has launches)
        const bool same = x.kind == y.kind && x.flags == y.flags && x.step == y.step && x.thread == y.thread &&
                          (x.detail & ~buffer_bits) == (y.detail & ~buffer_bits) && x.block == y.block && x.aux == y.aux && x.dep[0] == y.dep[0] &&
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
    return a;
}

void same_trace(const std::string& kernel, uint64_t n, uint32_t block) {
    same_trace("tests/student/kernels/" + kernel, kernel, n, block);
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

// The missing-barrier exercise's racy tree (its dialect rendition, tests/simt/kernels/missing_barrier_tree_dialect.cu):
// a shared-memory tree with no barrier between its levels. Warp 0 reads at stride
// 32 the slots warp 1 stores at stride 64; with the warps taking turns one access each, warp 1's store comes first,
// on both paths (a warp run to its barrier would read the element instead: the paths would disagree).
TEST_CASE("simt: plain CUDA gives the dialect's trace: a racy tree, the missing-barrier exercise") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    const std::string exercise = "tests/simt/kernels/missing_barrier_tree_dialect.cu";
    for (const auto& [n, block] : {std::pair{100, 128}, {300, 128}, {64, 64}}) {
        const Trace t = same_trace(exercise, "missing_barrier_tree.cu", uint64_t(n), uint32_t(block));
        CHECK(!t.hazards.empty());  // a block of 64: only warp 0 reads after stride 32, unordered in its warp
        if (block != 128) continue;
        CHECK(hazard_kinds(t).find("shared-memory-race") != std::string::npos);
        // Thread 0's load of slot 32 (stride 32) saw thread 32's store of stride 64, not its first.
        const Event* load = nullptr;
        for (const Event& e : t.events)
            if (e.kind == EventKind::SharedLoad && e.block == 0 && e.thread == 0 && e.detail == 32) load = &e;
        REQUIRE(load);
        REQUIRE(load->dep[0] != kNoEvent);
        const Event& store = t.events[load->dep[0]];
        CHECK(store.thread == 32);
        CHECK(store.kind == EventKind::SharedStore);
        CHECK(store.dep[0] != kNoEvent);
        CHECK(t.events[store.dep[0]].kind == EventKind::Combine);  // s[32] + s[96], not the element
    }
}

}  // namespace
}  // namespace rl::simt_test
