// tests/simt/test_simt_detail.cpp — a plan run summarised by level of detail (student/detail_run.h) held to the whole
// run of the same plan, its independent reference: the same result and verdict, every event counted, the window's and
// a hazard's blocks in full, the other blocks as counts with their global stores, and the summary through both formats.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include "core/error.h"
#include "core/trace_binary.h"
#include "core/trace_io.h"
#include "simt_test.h"
#include "student/detail_run.h"
#include "student/launch_syntax.h"
#include "student/plan_run.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

// Harris's kernel 4, except that block 100 skips the barrier after the loads: its first tree step reads shared slots
// another warp stores, unordered (a shared-memory race), in a block outside the default window of 64.
constexpr const char* kRacyHarris4 = R"(__global__ void h4(int* g_in, int* g_out, unsigned int n) {
    extern __shared__ int partial[];
    unsigned int t = threadIdx.x;
    unsigned int gi = blockIdx.x * (2 * blockDim.x) + t;
    partial[t] = g_in[gi] + g_in[gi + blockDim.x];
    if (blockIdx.x != 100) __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) g_out[blockIdx.x] = partial[0];
}
)";
constexpr const char* kPlan = "h4<<<128, 64, 256>>>(in, tmp, n); h4<<<1, 64, 256>>>(tmp, out, 128)";
constexpr uint64_t kN = 16384;  // 128 blocks of 64 threads, two elements a thread

std::set<std::pair<int, uint32_t>> hazard_places(const Trace& t) {
    std::set<std::pair<int, uint32_t>> s;
    for (const Hazard& h : t.hazards) s.insert({int(h.kind), h.block});
    return s;
}

size_t events_of_block(const Trace& t, uint32_t block) {
    size_t n = 0;
    for (const Event& e : t.events) n += e.block == block;
    return n;
}

const SummarisedBlocks* range_of(const Trace& t, uint32_t block) {
    for (const SummarisedBlocks& s : t.detail.summarised)
        if (block >= s.first_block && block < s.first_block + s.blocks) return &s;
    return nullptr;
}

struct Runs {
    student::PlanOutcome full, summarised;
};

Runs run_both(uint32_t detail_blocks, uint32_t part_blocks) {
    const simt::Module m = compile_with_lab_headers(kRacyHarris4, "racy.cu");
    const std::vector<student::BoundLaunch> bound = student::bind_plan(m, student::parse_launch_plan(kPlan));
    Schedule s;
    s.n = kN;
    s.op = Op::Sum;
    Runs r;
    r.full = student::run_plan(m, bound, s, true, "racy.cu");
    student::DetailOptions o;
    o.detail_blocks = detail_blocks;
    o.part_blocks = part_blocks;
    r.summarised = student::run_plan_summarised(m, bound, s, true, "racy.cu", o);
    return r;
}

TEST_CASE("level of detail: a tiny window keeps the whole run's result and verdict, and the hazard's block in full") {
    REQUIRE_CLANG();
    const Runs r = run_both(2, 8);
    REQUIRE_MESSAGE(r.full.ok, r.full.error);
    REQUIRE_MESSAGE(r.summarised.ok, r.summarised.error);
    const Trace& f = r.full.trace;
    const Trace& t = r.summarised.trace;
    // The result: 1 + 2 + ... + 16384 (hand-derived), in both.
    CHECK(unpack_value<int32_t>(f.result_value) == int32_t(kN * (kN + 1) / 2));
    CHECK(t.result_value == f.result_value);
    CHECK(t.result_flags == f.result_flags);
    REQUIRE(t.result_event != kNoEvent);
    CHECK(t.events[t.result_event].kind == EventKind::FinalStore);
    CHECK(t.reference_value == f.reference_value);
    // The verdict: the same findings in the same blocks; the planted race among them (trace block 100 is launch 1's
    // block 100, outside the window of 2 and the default 64).
    CHECK(hazard_places(t) == hazard_places(f));
    CHECK(hazard_places(t).count({int(HazardKind::SharedMemoryRace), 100u}) == 1);
    CHECK(t.notes.size() == f.notes.size());
    // Every event is counted: the kept ones and the summarised ones add up to the whole run's, kind by kind.
    CHECK(t.detail.active());
    CHECK(t.detail.events_total == f.events.size());
    std::map<int, uint64_t> whole, here;
    for (const Event& e : f.events) ++whole[int(e.kind)];
    for (const Event& e : t.events)
        if (!range_of(t, e.block)) ++here[int(e.kind)];
    for (const SummarisedBlocks& s : t.detail.summarised)
        for (int k = 0; k < kEventKindCount; ++k) here[k] += s.kinds[k];
    for (auto& [k, n] : here)
        if (n == 0) whole.try_emplace(k, 0);
    std::erase_if(here, [](const auto& kv) { return kv.second == 0; });
    std::erase_if(whole, [](const auto& kv) { return kv.second == 0; });
    CHECK(here == whole);
    CHECK(t.step_count == f.step_count);
    // In full: the window (blocks 0, 1 and the last, 127, of launch 1; launch 2's one block) and the race's block 100.
    for (uint32_t b : {0u, 1u, 100u, 127u, 128u}) {
        CAPTURE(b);
        CHECK(range_of(t, b) == nullptr);
        CHECK(events_of_block(t, b) == events_of_block(f, b));
    }
    // As counts: block 50 keeps its store of tmp[50], the operand launch 2's thread 50 reads, and the barriers that
    // order its threads (2 warps x 7 __syncthreads: one after the loads, six tree steps), nothing else.
    const SummarisedBlocks* s50 = range_of(t, 50);
    REQUIRE(s50 != nullptr);
    CHECK(events_of_block(t, 50) == 1 + 2 * 7);
    uint32_t store50 = kNoEvent;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].block == 50 && t.events[i].kind != EventKind::Barrier) store50 = i;
    REQUIRE(store50 != kNoEvent);
    CHECK(t.events[store50].kind == EventKind::BlockPartial);
    bool read = false;
    for (const Event& e : t.events)
        if (e.kind == EventKind::PartialLoad && e.block == 128 && e.aux == 50) read = e.dep[0] == store50;
    CHECK(read);
    // Every kept event's operands are earlier events of the trace.
    for (uint32_t i = 0; i < t.events.size(); ++i)
        for (uint32_t d : t.events[i].dep) CHECK((d == kNoEvent || d < i));
    CHECK(level_of_detail_problem(t) == "");
    CHECK(t.events.size() < f.events.size() / 4);
}

TEST_CASE("level of detail: the summary goes through the binary handoff and JSON, and readers refuse a bad one") {
    REQUIRE_CLANG();
    const Runs r = run_both(2, 16);
    REQUIRE_MESSAGE(r.summarised.ok, r.summarised.error);
    const Trace& t = r.summarised.trace;
    std::stringstream bin;
    write_trace_binary(bin, t);
    const Trace b = read_trace_binary(bin);
    std::stringstream js;
    write_trace_json(js, t);
    const Trace j = read_trace_json(js);
    for (const Trace* x : {&b, &j}) {
        CHECK(x->detail.detail_blocks == 2);
        CHECK(x->detail.events_total == t.detail.events_total);
        REQUIRE(x->detail.summarised.size() == t.detail.summarised.size());
        for (size_t i = 0; i < t.detail.summarised.size(); ++i) {
            CHECK(x->detail.summarised[i].first_block == t.detail.summarised[i].first_block);
            CHECK(x->detail.summarised[i].blocks == t.detail.summarised[i].blocks);
            CHECK(x->detail.summarised[i].events == t.detail.summarised[i].events);
            CHECK(x->detail.summarised[i].lines == t.detail.summarised[i].lines);
        }
        CHECK(level_of_detail_line(*x) == level_of_detail_line(t));
    }
    CHECK(level_of_detail_line(t).find("launch 1 blocks 0-1, 100, 127; launch 2 block 0") != std::string::npos);
    // A range whose counts do not add up to its events is refused by both readers.
    Trace bad = t;
    REQUIRE(!bad.detail.summarised.empty());
    bad.detail.summarised[0].events += 1;
    std::stringstream bin2, js2;
    write_trace_binary(bin2, bad);
    CHECK_THROWS_WITH_AS(read_trace_binary(bin2), doctest::Contains("add up to"), Error);
    write_trace_json(js2, bad);
    CHECK_THROWS_WITH_AS(read_trace_json(js2), doctest::Contains("add up to"), Error);
    // Three more edits each reader refuses in one line: a range that says it keeps more events than the trace holds in
    // its blocks; counts per kind whose sum wraps past 2^64 to its events; a range stretched over blocks 0-1, which
    // are kept in full (their loads, shared stores and combines are not what a summarised block keeps).
    auto refused = [](const Trace& x, const char* why) {
        std::stringstream b2, j2;
        write_trace_binary(b2, x);
        CHECK_THROWS_WITH_AS(read_trace_binary(b2), doctest::Contains(why), Error);
        write_trace_json(j2, x);
        CHECK_THROWS_WITH_AS(read_trace_json(j2), doctest::Contains(why), Error);
        CHECK(level_of_detail_problem(x).find(why) != std::string::npos);
    };
    Trace kept = t;
    kept.detail.summarised[0].kept = kept.detail.summarised[0].events;
    refused(kept, "it says it keeps");
    Trace wrap = t;
    uint64_t* k = wrap.detail.summarised[0].kinds;
    k[size_t(EventKind::Load)] += k[size_t(EventKind::Combine)] + 1;  // the sum: S - c + (2^64 - 1) + c + 1 = S mod 2^64
    k[size_t(EventKind::Combine)] = ~uint64_t(0);
    refused(wrap, "more than 2^64");
    Trace cover = t;
    REQUIRE(cover.detail.summarised[0].first_block == 2);
    cover.detail.summarised[0].first_block = 0;
    cover.detail.summarised[0].blocks += 2;
    refused(cover, "which a summarised block never keeps");
}

// The last-block pattern with the store and the ticket in two threads: thread 1 stores the block's partial and
// fences, a barrier, then thread 0 draws the ticket (correct CUDA: the barrier orders the store before the ticket).
constexpr const char* kLastBlock = R"(__device__ unsigned int done = 0;
__global__ void lb(const float* in, float* out, float* tmp, unsigned int n) {
    __shared__ float s[256];
    __shared__ bool last;
    unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (t < h) s[t] += s[t + h];
        __syncthreads();
    }
    if (t == 1) {
        tmp[blockIdx.x] = s[0];
        __threadfence();
    }
    __syncthreads();
    if (t == 0) last = atomicInc(&done, gridDim.x) == gridDim.x - 1;
    __syncthreads();
    if (last && t == 0) {
        float acc = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; ++b) acc += ((volatile float*)tmp)[b];
        out[0] = acc;
        done = 0;
    }
}
)";

TEST_CASE("level of detail: a summarised block's barrier still orders its store before its ticket (no false race)") {
    REQUIRE_CLANG();
    const simt::Module m = compile_with_lab_headers(kLastBlock, "lb.cu");
    const std::vector<student::BoundLaunch> bound = student::bind_plan(m, student::parse_launch_plan("lb<<<64, 256>>>(in, out, tmp, n)"));
    Schedule s;
    s.n = 16384;
    s.op = Op::Sum;
    const student::PlanOutcome full = student::run_plan(m, bound, s, true, "lb.cu");
    student::DetailOptions o;
    o.detail_blocks = 2;
    o.part_blocks = 8;
    const student::PlanOutcome sum = student::run_plan_summarised(m, bound, s, true, "lb.cu", o);
    REQUIRE_MESSAGE(full.ok, full.error);
    REQUIRE_MESSAGE(sum.ok, sum.error);
    // 1 + 2 + ... + 16384 = 134,225,920 (hand-derived; every partial a multiple of 128 below 2^28: exact in float).
    CHECK(unpack_value<float>(full.trace.result_value) == 134225920.0f);
    CHECK(sum.trace.result_value == full.trace.result_value);
    CHECK(sum.trace.result_flags == full.trace.result_flags);
    // The same findings (none: the pattern is correct) in both.
    CHECK(full.trace.hazards.empty());
    CHECK(hazard_places(sum.trace) == hazard_places(full.trace));
    CHECK(sum.trace.notes.size() == full.trace.notes.size());
    // Block 10 is summarised: it keeps its store, fence and ticket, and its barriers (one per warp per __syncthreads).
    const SummarisedBlocks* r = range_of(sum.trace, 10);
    REQUIRE(r != nullptr);
    std::map<int, size_t> kinds;
    for (const Event& e : sum.trace.events)
        if (e.block == 10) ++kinds[int(e.kind)];
    CHECK(kinds[int(EventKind::BlockPartial)] == 1);
    CHECK(kinds[int(EventKind::Fence)] == 1);
    CHECK(kinds[int(EventKind::Ticket)] == 1);
    CHECK(kinds[int(EventKind::Barrier)] == 8 * 11);  // 8 warps, 1 + 8 tree steps + 2 barriers around the ticket
    CHECK(kinds[int(EventKind::Combine)] == 0);
    CHECK(level_of_detail_problem(sum.trace) == "");
}

TEST_CASE("level of detail: the default window of 64 still keeps block 100 in full for its hazard") {
    REQUIRE_CLANG();
    const Runs r = run_both(64, 64);
    REQUIRE_MESSAGE(r.summarised.ok, r.summarised.error);
    const Trace& t = r.summarised.trace;
    CHECK(hazard_places(t) == hazard_places(r.full.trace));
    CHECK(range_of(t, 100) == nullptr);
    CHECK(range_of(t, 64) != nullptr);
    CHECK(range_of(t, 99) != nullptr);
    CHECK(range_of(t, 101) != nullptr);
    CHECK(range_of(t, 63) == nullptr);
    CHECK(t.result_value == r.full.trace.result_value);
}

}  // namespace
}  // namespace rl::simt_test
