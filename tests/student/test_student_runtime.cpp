// tests/student/test_student_runtime.cpp — the emulator's runtime semantics, each pinned by a small student kernel
// and what the trace must hold, with every expected value worked out here from the inputs (plain loops) or by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/event_flags.h"
#include "core/input.h"
#include "core/ops.h"
#include "student/kernel_run.h"

// Its own namespace: the unity build compiles this file with test_student_kernels.cpp, whose helpers share names.
namespace rl::student::runtime_semantics {
namespace {

std::string kernel_path(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + name; }

KernelOutcome run(const std::string& name, uint64_t n, uint32_t block, uint32_t grid = 0,
                  InputKind input = InputKind::Iota) {
    KernelRequest r;
    r.file = kernel_path(name);
    r.schedule.n = n;
    r.schedule.block = block;
    r.schedule.grid = grid;
    r.schedule.input.kind = input;
    r.schedule.input.seed = 7;
    r.time_limit_s = 30;
    return run_kernel(r);
}

// The kernel's inputs, regenerated from the schedule the trace keeps (not read back from the trace).
std::vector<double> inputs_of(const Trace& t) {
    Schedule s = t.schedule;
    const InputData in = make_input(s);
    std::vector<double> v(in.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = in.value(i);
    return v;
}

std::string hazard_list(const Trace& t) {
    std::string s;
    for (const Hazard& h : t.hazards) s += std::string(to_string(h.kind)) + ": " + h.what + "\n";
    return s;
}

// The trace's events of one kind, in trace order.
std::vector<const Event*> events_of(const Trace& t, EventKind kind) {
    std::vector<const Event*> out;
    for (const Event& e : t.events)
        if (e.kind == kind) out.push_back(&e);
    return out;
}

// The shuffle events by `offset` (one per lane of the one warp, block 0), indexed by lane.
std::vector<const Event*> shuffles_by(const Trace& t, uint32_t offset) {
    std::vector<const Event*> lane(32, nullptr);
    for (const Event* e : events_of(t, EventKind::Shuffle))
        if (e->block == 0 && e->shuffle_offset() == offset) {
            CHECK(lane[e->lane()] == nullptr);  // each lane shuffles once by each offset
            lane[e->lane()] = e;
        }
    return lane;
}

bool undefined(const Event& e) { return (e.flags & kUndefined) != 0; }

// One launch geometry.
struct Size {
    uint64_t n;
    uint32_t block;
};

}  // namespace

TEST_CASE("student kernel: __shfl_up_sync reads lane i - d, and lanes below d keep their own value (a warp scan)") {
    // warp_scan_up.cu, one warp: before the shuffle by d (1, 2, 4, 8, 16) lane j holds the sum of the d elements
    // ending at j (fewer near lane 0: the scan's invariant), so lane i's shuffle by d returns that window ending at
    // i - d when i >= d, and its own (ending at i) when i < d: CUDA's rule, and the H200's (lane 0 and 1 both get
    // lane 0's value at d = 1). The lanes past n hold 0, the identity.
    for (const uint64_t n : {32u, 20u}) {
        CAPTURE(n);
        const KernelOutcome o = run("warp_scan_up.cu", n, 32);
        INFO(o.error);
        REQUIRE(o.ok);
        const Trace& t = o.trace;
        INFO(hazard_list(t));
        CHECK(t.hazards.empty());
        const std::vector<double> x = inputs_of(t);
        REQUIRE(x.size() == n);
        auto window = [&](int lo, int hi) {  // x[lo] + ... + x[hi], lanes past n and indices below 0 adding nothing
            long double s = 0;
            for (int i = std::max(lo, 0); i <= hi; ++i) s += i < int(n) ? x[size_t(i)] : 0.0;
            return int32_t(s);
        };
        for (int d = 1; d < 32; d *= 2) {
            CAPTURE(d);
            const std::vector<const Event*> got = shuffles_by(t, uint32_t(d));
            for (int i = 0; i < 32; ++i) {
                CAPTURE(i);
                REQUIRE(got[size_t(i)] != nullptr);
                const Event& e = *got[size_t(i)];
                CHECK(e.source_lane() == uint32_t(i >= d ? i - d : i));
                const int32_t want = i >= d ? window(i - 2 * d + 1, i - d) : window(i - d + 1, i);
                CHECK(unpack_value<int32_t>(e.value) == want);
                CHECK(!undefined(e));
            }
        }
        // Lane 31 ends with the whole sum, 1 + 2 + ... + n.
        CHECK(unpack_value<int32_t>(t.result_value) == int32_t(n * (n + 1) / 2));
        CHECK(t.result_value == t.reference_value);
        CHECK(t.schedule.op == Op::Sum);
    }
}

TEST_CASE("student kernel: __shfl_xor_sync of width 8 reads an earlier segment and never a later one") {
    // xor_width.cu on 1..32, one warp. Lane masks 1, 2, 4 stay inside each 8-lane segment; after them every lane
    // holds its segment's sum S[k] = x[8k] + ... + x[8k + 7]. Then, by hand from PTX's bfly rule (the H200 returned
    // exactly these lanes, 2026-12-03): lane mask 8 at width 8 — lanes 8-15 read lanes 0-7 and lanes 24-31 read
    // 16-23 (an earlier segment), lanes 0-7 and 16-23 keep their own (the partner is past their segment's end);
    // lane mask 16 — lanes 16-31 read lanes 0-15, lanes 0-15 keep their own.
    const KernelOutcome o = run("xor_width.cu", 32, 32);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    INFO(hazard_list(t));
    CHECK(t.hazards.empty());
    const std::vector<double> x = inputs_of(t);
    REQUIRE(x.size() == 32);
    auto block_sum = [&](int first, int count) {
        long double s = 0;
        for (int i = first; i < first + count; ++i) s += x[size_t(i)];
        return int32_t(s);
    };
    // Inside the segments: lane i gets its partner's sum over the aligned block of m lanes the partner has gathered.
    for (int m = 1; m < 8; m *= 2) {
        CAPTURE(m);
        const std::vector<const Event*> got = shuffles_by(t, uint32_t(m));
        for (int i = 0; i < 32; ++i) {
            CAPTURE(i);
            REQUIRE(got[size_t(i)] != nullptr);
            const int partner = i ^ m;
            CHECK(unpack_value<int32_t>(got[size_t(i)]->value) == block_sum(partner & ~(m - 1), m));
        }
    }
    const int32_t S[4] = {block_sum(0, 8), block_sum(8, 8), block_sum(16, 8), block_sum(24, 8)};
    // Lane mask 8: which segment's sum each group of 8 lanes receives (the table above).
    const int from8_segment[4] = {0, 0, 2, 2};
    const std::vector<const Event*> by8 = shuffles_by(t, 8);
    for (int i = 0; i < 32; ++i) {
        CAPTURE(i);
        REQUIRE(by8[size_t(i)] != nullptr);
        CHECK(unpack_value<int32_t>(by8[size_t(i)]->value) == S[from8_segment[i / 8]]);
    }
    // Lanes 8-15 and 24-31 added what they read: each segment holds, per group of 8 lanes, S0, S0+S1, S2, S2+S3.
    const int32_t held[4] = {S[0], S[0] + S[1], S[2], S[2] + S[3]};
    const int from16_group[4] = {0, 1, 0, 1};  // lanes 0-15 their own; lanes 16-31 lanes 0-15's
    const std::vector<const Event*> by16 = shuffles_by(t, 16);
    for (int i = 0; i < 32; ++i) {
        CAPTURE(i);
        REQUIRE(by16[size_t(i)] != nullptr);
        CHECK(unpack_value<int32_t>(by16[size_t(i)]->value) == held[from16_group[i / 8]]);
    }
    // Lane 31: S2 + S3 + S0 + S1, the whole sum 1 + ... + 32.
    CHECK(unpack_value<int32_t>(t.result_value) == 528);
    CHECK(t.result_value == t.reference_value);
}

TEST_CASE("bad kernel: a shuffle whose mask leaves out the lane it reads returns an undefined value there") {
    // bad_shfl_half_mask.cu: lanes 0-15 shuffle down by 8 with mask 0x0000ffff; lanes 16-31 skip the call. Lanes
    // 0-7 read lanes 8-15 (in the mask, executing): x[i + 8]. Lanes 8-15 read lanes 16-23, which neither the mask
    // names nor execute the call: undefined, and the checker says they use it.
    const KernelOutcome o = run("bad_shfl_half_mask.cu", 32, 32);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    const std::vector<double> x = inputs_of(t);
    const std::vector<const Event*> got = shuffles_by(t, 8);
    for (int i = 0; i < 32; ++i) {
        CAPTURE(i);
        if (i >= 16) {
            CHECK(got[size_t(i)] == nullptr);  // lanes 16-31 never shuffle
            continue;
        }
        REQUIRE(got[size_t(i)] != nullptr);
        const Event& e = *got[size_t(i)];
        CHECK(e.aux == 0x0000ffffu);  // the mask
        if (i < 8) {
            CHECK(!undefined(e));
            CHECK(unpack_value<float>(e.value) == float(x[size_t(i + 8)]));
        } else {
            CHECK(undefined(e));
            CHECK(e.value == (kPoisonBits & 0xffffffffu));
        }
    }
    INFO(hazard_list(t));
    REQUIRE(t.hazards.size() == 1);
    CHECK(t.hazards[0].kind == HazardKind::ReadFromNonParticipatingLane);
    CHECK(t.hazards[0].lanes == 0x0000ff00u);
    // Lane 0 wrote x[0] + x[8], which holds no undefined value.
    CHECK(!(t.result_flags & kUndefined));
    CHECK(unpack_value<float>(t.result_value) == float(x[0] + x[8]));
}

TEST_CASE("student kernel: __syncwarp(mask) waits only for the lanes its mask names") {
    // warp_tree_syncwarp.cu: in each warp, the lanes below `half` (16, 8, 4, 2, 1) add and then __syncwarp with the
    // mask of those lanes; the lanes done wait at __syncthreads() and never reach that __syncwarp. Were the full
    // warp awaited, the kernel would hang. The sum of 1..n is exact in f32 in any order (n(n+1)/2 < 2^24).
    for (const Size z : {Size{64, 64}, Size{100, 64}, Size{20, 32}}) {
        CAPTURE(z.n);
        CAPTURE(z.block);
        const uint64_t n = z.n;
        const uint32_t block = z.block;
        const KernelOutcome o = run("warp_tree_syncwarp.cu", n, block);
        INFO(o.error);
        REQUIRE(o.ok);
        const Trace& t = o.trace;
        INFO(hazard_list(t));
        CHECK(t.hazards.empty());
        CHECK(unpack_value<float>(t.result_value) == float(n * (n + 1) / 2));
        CHECK(t.result_value == t.reference_value);
        // The trace keeps one __syncwarp event per warp and call (aux: its mask). Each warp of the first launch: the
        // full-mask one, then one per level with the mask of the lanes below half: 0xffff, 0xff, 0xf, 0x3, 0x1.
        std::map<uint32_t, std::vector<uint32_t>> masks;  // by block * 32 + warp
        for (const Event* e : events_of(t, EventKind::WarpSync))
            if (!(e->flags & kFinisher)) masks[e->block * 32 + e->warp()].push_back(e->aux);
        CHECK(masks.size() == t.grid * (block / 32));
        for (auto& warp : masks) {
            CAPTURE(warp.first);
            std::sort(warp.second.begin(), warp.second.end());
            CHECK(warp.second == std::vector<uint32_t>{0x1u, 0x3u, 0xfu, 0xffu, 0xffffu, 0xffffffffu});
        }
    }
}

TEST_CASE("student kernel: fminf and atomicMin take the minimum") {
    // warp_min.cu: fminf down each warp, atomicMin per warp into out[0]. The minimum of the inputs by a plain
    // loop; the run's operator is min, taken from the kernel (one operator throughout).
    for (const Size z : {Size{100, 64}, Size{300, 128}, Size{5, 32}}) {
        CAPTURE(z.n);
        CAPTURE(z.block);
        const uint64_t n = z.n;
        const uint32_t block = z.block;
        const KernelOutcome o = run("warp_min.cu", n, block, 0, InputKind::Normal);
        INFO(o.error);
        REQUIRE(o.ok);
        const Trace& t = o.trace;
        INFO(hazard_list(t));
        CHECK(t.hazards.empty());
        CHECK(t.schedule.op == Op::Min);
        const std::vector<double> x = inputs_of(t);
        REQUIRE(x.size() == n);
        double least = x[0];
        for (double v : x) least = std::min(least, v);
        CHECK(!(t.result_flags & kUndefined));
        CHECK(unpack_value<float>(t.result_value) == float(least));
        CHECK(t.result_value == t.reference_value);
        CHECK(events_of(t, EventKind::Atomic).size() == t.grid * (block / 32));  // one per warp
    }
}

TEST_CASE("student kernel: *= multiplies (a product over 1..20 in double)") {
    // prod_assign.cu: each lane multiplies its elements into v with *=, the lanes' products meet with *= as well.
    // 1 * 2 * ... * 20 = 20! = 2432902008176640000 is exact in double, and so is every partial product of these
    // integers (each divides 20!, whose odd part is below 2^53), so the order does not matter. The product by a
    // plain long-double loop over the inputs.
    for (const uint64_t n : {20u, 7u}) {
        CAPTURE(n);
        const KernelOutcome o = run("prod_assign.cu", n, 32, 1);
        INFO(o.error);
        REQUIRE(o.ok);
        const Trace& t = o.trace;
        INFO(hazard_list(t));
        CHECK(t.hazards.empty());
        CHECK(t.schedule.op == Op::Prod);
        const std::vector<double> x = inputs_of(t);
        long double product = 1;
        for (double v : x) product *= v;
        CHECK(!(t.result_flags & kUndefined));
        CHECK(unpack_value<double>(t.result_value) == double(product));
        if (n == 20) CHECK(unpack_value<double>(t.result_value) == 2432902008176640000.0);
        CHECK(t.result_value == t.reference_value);
    }
}

TEST_CASE("bad kernel: a combine whose right operand is undefined is undefined, and so is all made of it") {
    // bad_undefined_operand.cu: s[t] = in[t] + never_set, then thread 0 adds the 32 slots into out[0]. The right
    // operand is the uninitialised register: each sum, each slot stored and loaded, and the result are undefined.
    const KernelOutcome o = run("bad_undefined_operand.cu", 32, 32);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    const std::vector<const Event*> stores = events_of(t, EventKind::SharedStore);
    REQUIRE(stores.size() == 32);
    for (const Event* e : stores) {
        CAPTURE(e->thread);
        CHECK(undefined(*e));
        REQUIRE(e->dep[0] < t.events.size());
        const Event& sum = t.events[e->dep[0]];  // in[t] + never_set
        CHECK(sum.kind == EventKind::Combine);
        CHECK(undefined(sum));
        REQUIRE(sum.dep[0] < t.events.size());
        REQUIRE(sum.dep[1] < t.events.size());
        CHECK(t.events[sum.dep[0]].kind == EventKind::Load);  // the left operand: defined
        CHECK(!undefined(t.events[sum.dep[0]]));
        CHECK(t.events[sum.dep[1]].kind == EventKind::IdentityFill);  // the right one: never set
        CHECK(undefined(t.events[sum.dep[1]]));
    }
    for (const Event* e : events_of(t, EventKind::SharedLoad)) CHECK(undefined(*e));
    CHECK((t.result_flags & kUndefined));
    INFO(hazard_list(t));
    CHECK(!t.hazards.empty());
    CHECK(std::all_of(t.hazards.begin(), t.hazards.end(), [](const Hazard& h) { return h.kind == HazardKind::UninitialisedTail; }));
}

TEST_CASE("student kernel: a right operand made by an earlier statement keeps its place in program order") {
    // bad_undefined_operand.cu: `rl::Value<float> never_set;` (line 7) comes before `in[t]` (line 9) in every
    // thread, so its IdentityFill is the thread's first event (step 0) and the load its second (step 1), as the
    // H200 records them; only operands made right to left within one expression (g++) trade places.
    const KernelOutcome o = run("bad_undefined_operand.cu", 32, 32);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    std::vector<int> fill_step(32, -1), load_step(32, -1);
    for (const Event& e : t.events) {
        if (e.kind == EventKind::IdentityFill && undefined(e)) fill_step[e.thread] = e.step;
        if (e.kind == EventKind::Load) load_step[e.thread] = e.step;
    }
    for (size_t i = 0; i < 32; ++i) {
        CAPTURE(i);
        CHECK(fill_step[i] == 0);
        CHECK(load_step[i] == 1);
    }
}

TEST_CASE("bad kernel: an atomic onto an output that holds an undefined value leaves it undefined") {
    // bad_atomic_onto_undefined.cu, one thread: atomicAdd(&out[0], never_set), then atomicAdd(&out[0], in[0]) (a
    // defined operand), then seen[0] = out[0]. The second atomic adds onto the undefined value, so what it leaves in
    // out[0] and what the read-back finds are undefined too.
    const KernelOutcome o = run("bad_atomic_onto_undefined.cu", 1, 1);
    INFO(o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    const std::vector<const Event*> atomics = events_of(t, EventKind::Atomic);
    REQUIRE(atomics.size() == 2);
    const Event* later = nullptr;  // the second in out[0]'s chain (its position, aux, is 1)
    for (const Event* e : atomics)
        if (e->aux == 1) later = e;
    REQUIRE(later != nullptr);
    const Event& second = *later;
    REQUIRE(second.dep[1] < t.events.size());
    CHECK(!undefined(t.events[second.dep[1]]));  // its own operand, in[0], is defined
    CHECK(undefined(second));
    const std::vector<const Event*> reads = events_of(t, EventKind::PartialLoad);
    REQUIRE(reads.size() == 1);
    CHECK(reads[0]->dep[0] == uint32_t(&second - t.events.data()));  // it reads what the second atomic left
    CHECK(reads[0]->value == second.value);
    CHECK(undefined(*reads[0]));
    const std::vector<const Event*> stores = events_of(t, EventKind::SharedStore);
    REQUIRE(stores.size() == 1);
    CHECK(undefined(*stores[0]));
    CHECK((t.result_flags & kUndefined));
}

}  // namespace rl::student::runtime_semantics
