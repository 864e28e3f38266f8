// tests/simt/test_simt_golden.cpp — the trace of several corpus kernels, hashed and held to the hash the build made
// before the speed and memory work of issue 32: an optimisation of the interpreter or the assembly keeps every event.
//
// The hash covers the first launch (blocks below Trace::grid), the part of a run that a launch plan does not change:
// the lab's hidden second launch of a plain CUDA run is going away (issue 32), and with it the events after launch 0,
// the result and the buffer bits a plain run's events carry in `detail` (those are masked out below). Within launch 0
// every field counts: kind (a FinalStore counted as the BlockPartial it is), flags, step, thread, block, aux, both
// operands, the value and the source line. The expected values were computed by the build of 2026-12-03 17:36
// (commit 383e99f and the working tree of that minute), before any change for speed; change them only for a change
// that is meant to change the trace, and say so in its commit.
#include <doctest/doctest.h>

#include <cstdio>

#include "core/event_flags.h"
#include "simt_test.h"
#include "student/kernel_run.h"

namespace rl::simt_test {
namespace {

struct Golden {
    const char* file;
    const char* kernel;
    uint64_t n;
    uint32_t block, grid;
    uint64_t events;  // launch 0's events
    uint64_t hash;
};

// FNV-1a, 64 bits, over the fields in the order written.
struct Fnv {
    uint64_t h = 0xcbf29ce484222325ull;
    void add(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) {
            h ^= (v >> (8 * i)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
};

std::pair<uint64_t, uint64_t> launch0_hash(const Trace& t) {
    Fnv f;
    uint64_t count = 0;
    for (size_t k = 0; k < t.events.size(); ++k) {
        const Event& e = t.events[k];
        if (e.block >= t.grid) continue;
        ++count;
        EventKind kind = e.kind == EventKind::FinalStore ? EventKind::BlockPartial : e.kind;
        uint32_t detail = e.detail;
        if (kind == EventKind::BlockPartial) detail = 0;
        else if (kind == EventKind::Atomic) detail &= 0x1fffu;
        else if (kind == EventKind::PartialLoad) detail &= 0xfffu;
        f.add(uint64_t(kind), 1);
        f.add(e.flags & ~kFinisher, 1);
        f.add(e.step, 2);
        f.add(e.thread, 2);
        f.add(detail, 2);
        f.add(e.block, 4);
        f.add(e.aux, 4);
        f.add(e.dep[0], 4);
        f.add(e.dep[1], 4);
        f.add(e.value, 8);
        f.add(k < t.lines.size() ? t.lines[k] : 0, 4);
    }
    return {count, f.h};
}

// Every event of the trace, as it is (a run of a launch plan: all its launches, the buffer bits, the result).
std::pair<uint64_t, uint64_t> trace_hash(const Trace& t) {
    Fnv f;
    for (size_t k = 0; k < t.events.size(); ++k) {
        const Event& e = t.events[k];
        f.add(uint64_t(e.kind), 1);
        f.add(e.flags, 1);
        f.add(e.step, 2);
        f.add(e.thread, 2);
        f.add(e.detail, 2);
        f.add(e.block, 4);
        f.add(e.aux, 4);
        f.add(e.dep[0], 4);
        f.add(e.dep[1], 4);
        f.add(e.value, 8);
        f.add(k < t.lines.size() ? t.lines[k] : 0, 4);
    }
    f.add(t.result_event, 4);
    f.add(t.result_value, 8);
    f.add(t.hazards.size(), 4);
    return {t.events.size(), f.h};
}

TEST_CASE("simt golden: corpus kernels record the same events as before the speed work") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    const Golden cases[] = {
        {"harris2_strided_index.cu", "", 4096, 64, 0, 25344, 0x0a1925cae9fa2d95ull},
        {"harris4_first_add_during_load.cu", "", 4096, 64, 32, 16768, 0xf2707c60a3f2af75ull},
        {"harris6_complete_unroll.cu", "harris6<64>", 4096, 64, 32, 32896, 0xc637e6be8fef1599ull},
        {"kepler_device_reduce.cu", "", 4096, 128, 8, 22344, 0x8ff638347291c595ull},
        {"kepler_warp_atomic.cu", "", 4096, 128, 8, 19488, 0xe4a77c16fa63f4a2ull},
        {"cg_reduce_plus.cu", "", 4096, 128, 0, 41216, 0x29f33bd7a1eec69full},
        {"xor_allreduce_double.cu", "", 1000, 96, 0, 11649, 0xa8737811e38c8557ull},
        {"bug_syncthreads_in_if.cu", "", 64, 64, 0, 453, 0x9572f3c4449eea8full},
    };
    for (const Golden& g : cases) {
        student::KernelRequest r;
        r.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/" + g.file;
        r.kernel = g.kernel;
        r.schedule.n = g.n;
        r.schedule.block = g.block;
        r.schedule.grid = g.grid;
        r.time_limit_s = 60;
        const student::KernelOutcome o = student::run_kernel(r);
        CAPTURE(g.file);
        CAPTURE(o.error);
        REQUIRE(o.ok);
        const auto [count, hash] = launch0_hash(o.trace);
        const uint64_t c = count, h = hash;
        std::printf("golden %s: %llu events, hash 0x%016llx\n", g.file, (unsigned long long)c, (unsigned long long)h);
        CHECK(c == g.events);
        CHECK(h == g.hash);
    }
}

// Launch plans (the lab's multi-launch runs, issue 32), every event: hashes taken at commit 4ec21d1, after the first
// speed changes (which kept launch 0's events above), so that later speed work keeps these too.
TEST_CASE("simt golden: launch plans record the same events as at 4ec21d1") {
    if (!have_clang()) {
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)");
        return;
    }
    struct Plan {
        const char* file;
        const char* launch;
        uint64_t n;
        uint64_t events, hash;
    };
    const Plan cases[] = {
        {"harris4_first_add_during_load.cu", "harris4<<<32,64,256>>>(in,tmp,n); harris4<<<1,16,64>>>(tmp,out,32)",
          4096, 16899, 0x36bd81cb8a177260ull},
        {"kepler_device_reduce.cu", "device_reduce<<<8,128>>>(in,tmp,n); device_reduce<<<1,128>>>(tmp,out,8)",
          4096, 24129, 0x0c67ccdbeea579c2ull},
        {"course_two_kernels.cu", "block_partials<<<16,256,1024>>>(in,tmp,n); finish_sum<<<1,256,1024>>>(tmp,out,16)",
          4096, 27334, 0x073ce7c44f725e85ull},
    };
    for (const Plan& g : cases) {
        student::KernelRequest r;
        r.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/" + g.file;
        r.launch = g.launch;
        r.schedule.n = g.n;
        r.time_limit_s = 60;
        const student::KernelOutcome o = student::run_kernel(r);
        CAPTURE(g.launch);
        CAPTURE(o.error);
        REQUIRE(o.ok);
        const auto [count, hash] = trace_hash(o.trace);
        const uint64_t c = count, h = hash;
        std::printf("golden plan %s: %llu events, hash 0x%016llx\n", g.file, (unsigned long long)c,
                    (unsigned long long)h);
        CHECK(c == g.events);
        CHECK(h == g.hash);
    }
}

}  // namespace
}  // namespace rl::simt_test
