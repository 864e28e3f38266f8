// tests/simt/test_simt_shared.cpp — shared memory and __syncthreads(): Harris's kernel 3 record by record on one
// block of 8, Harris's kernels 1, 3 and 4 run as rlab runs them with the exact sum n(n+1)/2, and the race a missing
// barrier leaves, found by the checker at the store and the load the kernel's own lines name.
#include <doctest/doctest.h>

#include <algorithm>

#include <cstdio>
#include <string>
#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

int32_t int_of(const StudentRecord& r) { return unpack_value<int32_t>(r.value); }

// harris3_sequential.cu, n = 8, one block of 8: thread t stores in[t] = t + 1 to slot t (line 6), then the tree on
// line 9 halves s = 4, 2, 1 with a barrier on line 10 after each level: slot t = slot t + slot t + s. Slots after
// s = 4: t < 4 holds 2t + 6; after s = 2: 16 and 20; after s = 1: 36 = 8 * 9 / 2, stored by thread 0 on line 12.
// The 8 threads are one warp arriving together at each barrier: one record under thread 0, aux = lanes 0-7
// (kWarpArrival); threads 1-7 have none there, only a gap in their seq.
TEST_CASE("simt: Harris's kernel 3 on one block of 8, record by record") {
    REQUIRE_CLANG();
    const simt::Module m = compile_file("harris3_sequential.cu");
    const Launched r = launch(m.kernels.at(0), 8, 8);
    REQUIRE(r.error.empty());
    const std::vector<StudentRecord>& rec = r.records;
    std::vector<std::vector<uint32_t>> own(8);
    for (uint32_t t = 0; t < 8; ++t) own[t] = thread_records(rec, 0, t);
    // By hand: load and store, 4 records a level at which t < s (s = 4, 2, 1); thread 0 also the 4 barriers, its load
    // of slot 0 and the partial.
    const size_t sizes[8] = {2 + 12 + 4 + 2, 2 + 8, 2 + 4, 2 + 4, 2, 2, 2, 2};
    for (uint32_t t = 0; t < 8; ++t) REQUIRE(own[t].size() == sizes[t]);
    // The store that last wrote each slot, and what the slot holds, by the hand model.
    int32_t slot[8];
    uint32_t writer[8];
    for (uint32_t t = 0; t < 8; ++t) {
        CAPTURE(t);
        const StudentRecord &load = rec[own[t][0]], &store = rec[own[t][1]];
        CHECK(load.kind == EventKind::Load);
        CHECK(int_of(load) == int32_t(t + 1));
        CHECK(store.kind == EventKind::SharedStore);
        CHECK(store.detail == t);
        CHECK(store.dep[0] == own[t][0]);
        CHECK(store.line == 6);
        if (t == 0) {
            const StudentRecord& barrier = rec[own[t][2]];
            CHECK(barrier.kind == EventKind::Barrier);
            CHECK(barrier.detail == 7);
            CHECK(barrier.group == 0);
            CHECK(barrier.aux == 0xffu);
            CHECK((barrier.pad0 & kWarpArrival) != 0);
        } else if (own[t].size() > 2) {
            CHECK(rec[own[t][2]].seq == 3);  // seq 2: its arrival, thread 0's record
        }
        slot[t] = int32_t(t + 1);
        writer[t] = own[t][1];
    }
    size_t at[8] = {3, 2, 2, 2, 2, 2, 2, 2};
    uint32_t level = 1;
    for (uint32_t s = 4; s > 0; s /= 2, ++level) {
        int32_t next[8];
        uint32_t next_writer[8];
        std::copy(slot, slot + 8, next);
        std::copy(writer, writer + 8, next_writer);
        for (uint32_t t = 0; t < 8; ++t) {
            CAPTURE(t);
            CAPTURE(s);
            if (t < s) {
                const StudentRecord &mine = rec[own[t][at[t]]], &other = rec[own[t][at[t] + 1]],
                                    &sum = rec[own[t][at[t] + 2]], &store = rec[own[t][at[t] + 3]];
                // sdata[tid] += sdata[tid + s]: the left operand first in program order, whatever clang loaded first
                CHECK(mine.kind == EventKind::SharedLoad);
                CHECK(mine.detail == t);
                CHECK(mine.dep[0] == writer[t]);
                CHECK(int_of(mine) == slot[t]);
                CHECK(other.kind == EventKind::SharedLoad);
                CHECK(other.detail == t + s);
                CHECK(other.dep[0] == writer[t + s]);
                CHECK(int_of(other) == slot[t + s]);
                CHECK(sum.kind == EventKind::Combine);
                CHECK(sum.dep[0] == own[t][at[t]]);
                CHECK(sum.dep[1] == own[t][at[t] + 1]);
                CHECK(int_of(sum) == slot[t] + slot[t + s]);
                CHECK(store.kind == EventKind::SharedStore);
                CHECK(store.detail == t);
                CHECK(store.line == 9);
                next[t] = slot[t] + slot[t + s];
                next_writer[t] = own[t][at[t] + 3];
                at[t] += 4;
            }
            if (t == 0) {
                const StudentRecord& barrier = rec[own[t][at[t]]];
                CHECK(barrier.kind == EventKind::Barrier);
                CHECK(barrier.detail == 10);
                CHECK(barrier.group == level);
                CHECK(barrier.aux == 0xffu);
                ++at[t];
            }
        }
        std::copy(next, next + 8, slot);
        std::copy(next_writer, next_writer + 8, writer);
    }
    CHECK(slot[0] == 36);
    const StudentRecord &last = rec[own[0][at[0]]], &partial = rec[own[0][at[0] + 1]];
    CHECK(last.kind == EventKind::SharedLoad);
    CHECK(last.dep[0] == writer[0]);
    CHECK(partial.kind == EventKind::BlockPartial);
    CHECK(partial.aux == 0);
    CHECK(partial.line == 12);
    CHECK(partial.dep[0] == own[0][at[0]]);
    CHECK(int_of(partial) == 36);
    CHECK(own[0].size() == at[0] + 2);
    for (uint32_t t = 1; t < 8; ++t) CHECK(own[t].size() == at[t]);
}

// Two launches, as a CUDA engineer runs a kernel that stores one partial per block (the lab adds none of its own).
void check_exact_sum(const char* file, const char* kernel, uint64_t n, uint32_t block) {
    CAPTURE(file);
    CAPTURE(n);
    CAPTURE(block);
    const student::KernelOutcome o = run_file(file, n, block, 0, two_pass_plan(kernel, n, block, block * 4));
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(result_of(o.trace) == double(n) * double(n + 1) / 2);
    CHECK(o.trace.hazards.empty());
}

TEST_CASE("simt: Harris's kernel 1 (interleaved, tid % (2*s)) sums 1..n exactly") {
    REQUIRE_CLANG();
    check_exact_sum("harris1_interleaved.cu", "reduce1", 4096, 64);
    check_exact_sum("harris1_interleaved.cu", "reduce1", 1000, 128);
}

TEST_CASE("simt: Harris's kernel 3 (sequential addressing) sums 1..n exactly") {
    REQUIRE_CLANG();
    check_exact_sum("harris3_sequential.cu", "reduce3", 4096, 64);
    check_exact_sum("harris3_sequential.cu", "reduce3", 777, 32);
}

TEST_CASE("simt: Harris's kernel 4 (first add during load) sums 1..n exactly") {
    REQUIRE_CLANG();
    check_exact_sum("harris4_first_add.cu", "reduce4", 4096, 64);
    check_exact_sum("harris4_first_add.cu", "reduce4", 3000, 256);
}

// Issue 32, "the second pass is never hidden": without --launch the kernel runs once, K<<<64, 64, 256>>>(in, out, n),
// and out[0] is block 0's partial, 1 + ... + 64 = 2080 (a wrong result for the sum 8390656, which the verdict says).
TEST_CASE("simt: without --launch a kernel of block partials runs once: out[0] is block 0's partial") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_file("harris1_interleaved.cu", 4096, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(result_of(o.trace) == 2080);
    REQUIRE(o.trace.launches.size() == 1);
    CHECK(o.trace.launches[0].grid == 64);
    CHECK(o.trace.launches[0].shared_bytes == 256);
    uint32_t last_block = 0;
    for (const Event& e : o.trace.events) last_block = std::max(last_block, e.block);
    CHECK(last_block == 63);
}

TEST_CASE("simt: rlab run FILE.cu on a plain CUDA file prints the exact sum") {
    REQUIRE_CLANG();
    const std::string command = std::string(RLAB_EXE) + " run " + kernel_path("harris1_interleaved.cu") +
                                " --n 4096 --launch 'reduce1<<<64, 64, 256>>>(in, tmp, n); reduce1<<<1, 64, 256>>>(tmp, out, 64)'"
                                " --backend cpu 2>&1";
    FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    while (size_t got = fread(buf, 1, sizeof buf, p)) out.append(buf, got);
    const int status = pclose(p);
    INFO(out);
    CHECK(status == 0);
    CHECK(out.find("\nresult    8390656\n") != std::string::npos);  // 4096 * 4097 / 2
    CHECK(out.find("\nno hazards") != std::string::npos);
}

// missing_barrier.cu leaves out the barrier between the stores of line 7 and the tree's first loads on line 9: in
// block 0 (block 64), thread t < 32 reads slot t + 32, stored by thread t + 32 of warp 1, with no barrier between.
TEST_CASE("simt: a missing __syncthreads() is a shared-memory race at the store and the load") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_file("missing_barrier.cu", 128, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    const Hazard* race = nullptr;
    for (const Hazard& h : t.hazards)
        if (h.kind == HazardKind::SharedMemoryRace && h.block == 0 && !race) race = &h;
    REQUIRE(race);
    CHECK(race->warp == 0);
    CHECK(race->lanes == 0xffffffffu);
    const Event& load = t.events.at(race->event);
    CHECK(load.kind == EventKind::SharedLoad);
    CHECK(t.lines.at(race->event) == 9);
    REQUIRE(load.dep[0] != kNoEvent);
    const Event& store = t.events.at(load.dep[0]);
    CHECK(store.kind == EventKind::SharedStore);
    CHECK(t.lines.at(load.dep[0]) == 7);
    CHECK(store.thread == load.thread + 32);
    CHECK(load.detail == load.thread + 32);
}

}  // namespace
}  // namespace rl::simt_test
