// tests/student/test_student_kernels.cpp — kernels written as by a student (held back from the exercises), run on
// the emulator through rlab-kernel-runner exactly as rlab and the front ends run them: the right result against a
// sum computed here from the inputs, no hazard; and bad kernels, each reported in one line, never a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <ostream>
#include <string>

#include "core/emulator.h"
#include "core/error.h"
#include "core/input.h"
#include "core/ops.h"
#include "student/diagnostics.h"
#include "student/process.h"
#include "student/kernel_run.h"

namespace rl::student {
namespace {

// One launch geometry.
struct Size {
    uint64_t n;
    uint32_t block;
    uint32_t grid = 0;
};
// How a failing size shows in doctest's CAPTURE.
std::ostream& operator<<(std::ostream& o, const Size& z) {
    return o << "n=" << z.n << " block=" << z.block << " grid=" << z.grid;
}

std::string kernel_path(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + name; }

KernelOutcome run(const std::string& name, uint64_t n, uint32_t block, uint32_t grid = 0, double limit = 30,
                  InputKind input = InputKind::Iota) {
    KernelRequest r;
    r.file = kernel_path(name);
    r.schedule.n = n;
    r.schedule.block = block;
    r.schedule.grid = grid;
    r.schedule.input.kind = input;
    r.schedule.input.seed = 7;
    r.time_limit_s = limit;
    return run_kernel(r);
}

// The inputs as the kernel saw them (the trace keeps them), regenerated here from the schedule.
InputData inputs_of(const Trace& t) {
    Schedule s = t.schedule;
    return make_input(s);
}

bool has_hazard(const Trace& t, HazardKind k) {
    return std::any_of(t.hazards.begin(), t.hazards.end(), [&](const Hazard& h) { return h.kind == k; });
}

std::string hazard_list(const Trace& t) {
    std::string s;
    for (const Hazard& h : t.hazards) s += std::string(to_string(h.kind)) + ": " + h.what + "\n";
    return s;
}

int lines_in(const std::string& path) {
    std::ifstream f(path);
    return int(std::count(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>(), '\n'));
}

// A correct kernel: it ran, holds no hazard, its result is the exact sum (or max) of its inputs, and every event
// names a line of the student's file.
template <class A>
void check_exact(const KernelOutcome& o, const std::string& name, bool max_op = false) {
    INFO(name, ": ", o.error);
    REQUIRE(o.ok);
    const Trace& t = o.trace;
    INFO(hazard_list(t));
    CHECK(t.hazards.empty());
    CHECK(t.kernel_file == kernel_path(name));
    const InputData in = inputs_of(t);
    REQUIRE(in.size() == t.schedule.n);
    long double sum = 0, best = -1e300L;
    for (size_t i = 0; i < in.size(); ++i) {
        sum += in.value(i);
        best = std::max<long double>(best, in.value(i));
    }
    REQUIRE(t.result_event != kNoEvent);
    CHECK(!(t.result_flags & kUndefined));
    const A got = unpack_value<A>(t.result_value);
    CHECK(double(got) == double(max_op ? best : sum));
    CHECK(t.result_value == t.reference_value);
    REQUIRE(t.lines.size() == t.events.size());
    const int file_lines = lines_in(kernel_path(name));
    for (uint16_t l : t.lines) CHECK((l >= 1 && l <= file_lines));
}

}  // namespace

TEST_CASE("student kernel: warp shuffles (xor) with a tail, a partial last warp and the second launch") {
    for (const Size z : {Size{100, 64}, Size{77, 48}, Size{1, 1}, Size{1000, 256}, Size{40, 40}}) {
        CAPTURE(z);
        const KernelOutcome o = run("warp_xor.cu", z.n, z.block);
        check_exact<float>(o, "warp_xor.cu");
        if (o.ok && o.trace.grid > 1) CHECK(o.trace.finisher_block == o.trace.grid);  // the lab's second launch
    }
}

TEST_CASE("student kernel: --op witness checks the order of the merges (element ranges)") {
    KernelRequest r;
    r.file = kernel_path("warp_xor.cu");
    r.schedule.n = 77;
    r.schedule.block = 48;
    r.schedule.op = Op::Witness;
    r.op_given = true;
    const KernelOutcome o = run_kernel(r);
    INFO(o.error);
    REQUIRE(o.ok);
    INFO(hazard_list(o.trace));
    CHECK(o.trace.hazards.empty());
    const WitnessValue w = unpack_value<WitnessValue>(o.trace.result_value);
    CHECK(w.lo == 0);
    CHECK(w.hi == 76);
}

TEST_CASE("student kernel: --op names the run's operator; a kernel that combines with another is one line, not a wrong result") {
    KernelRequest r;
    r.file = kernel_path("warp_xor.cu");  // sums with +
    r.schedule.n = 64;
    r.schedule.block = 32;
    r.schedule.op = Op::Max;
    r.op_given = true;
    const KernelOutcome o = run_kernel(r);
    CHECK(!o.ok);
    CHECK(o.error ==
          "--op max: the kernel combines with +, so it cannot compute max: run it with the kernel's operator (leave --op "
          "out: the lab takes it from the kernel), or write max(a, b) in the kernel");
    // The kernel's own operator given: it runs.
    r.schedule.op = Op::Sum;
    CHECK(run_kernel(r).ok);
    // Without --op, a kernel of two operators (+ in the warps, atomicMax across them) is named as such.
    const KernelOutcome mixed = run("bad_mixed_ops.cu", 64, 64);
    CHECK(!mixed.ok);
    CHECK(mixed.error ==
          "the kernel combines with + and max(a, b): a reduction has one operator (the result is checked against one), "
          "so write every combine and atomic with the same one");
}

TEST_CASE("student kernel: shared-memory tree (int) with a tail") {
    for (const Size z : {Size{100, 64}, Size{300, 128}, Size{5, 8}}) {
        CAPTURE(z);
        check_exact<int32_t>(run("smem_tree.cu", z.n, z.block), "smem_tree.cu");
    }
}

TEST_CASE("student kernel: rl::Shared declared inside a loop is one array, as __shared__ is") {
    // Each pass reads what the pass before stored; two blocks, a tail, the lab's second launch.
    for (const Size z : {Size{64, 64}, Size{100, 64}, Size{7, 8}}) {
        CAPTURE(z);
        const KernelOutcome o = run("shared_in_loop.cu", z.n, z.block);
        check_exact<float>(o, "shared_in_loop.cu");
        if (!o.ok) continue;
        uint32_t top = 0;  // every pass stores into the same 64 slots (a new array per pass would take 64 more)
        for (const Event& e : o.trace.events)
            if (e.kind == EventKind::SharedStore || e.kind == EventKind::SharedLoad) top = std::max<uint32_t>(top, e.detail);
        CHECK(top < z.block);
    }
}

TEST_CASE("student kernel: grid-stride loop (double) with an atomic per block") {
    for (const Size z : {Size{1000, 64, 3}, Size{77, 40, 2}, Size{33, 32, 1}}) {
        CAPTURE(z);
        const KernelOutcome o = run("grid_stride.cu", z.n, z.block, z.grid);
        check_exact<double>(o, "grid_stride.cu");
        if (o.ok) CHECK(o.trace.grid == z.grid);
    }
}

TEST_CASE("student kernel: last-block finish (max, Counter, __threadfence, reading out[b])") {
    for (const Size z : {Size{300, 128}, Size{70, 32}, Size{9, 16}}) {
        CAPTURE(z);
        const KernelOutcome o = run("last_block.cu", z.n, z.block, 0, 30, InputKind::Normal);
        check_exact<float>(o, "last_block.cu", true);
        if (o.ok) CHECK(o.trace.schedule.op == Op::Max);  // taken from the kernel's combines
    }
}

// Constants the kernel made (identity fills that are not flagged undefined) whose bits are not the identity of the
// run's operator.
size_t non_identity_constants(const Trace& t) {
    const uint64_t identity = identity_bits(t.schedule);
    size_t count = 0;
    for (const Event& e : t.events)
        count += e.kind == EventKind::IdentityFill && !(e.flags & kUndefined) && e.value != identity;
    return count;
}

TEST_CASE("student kernel: a max started from -FLT_MAX is no wrong identity: it never changes the result") {
    // Every lane starts from -3.40282347e+38 and maxes in its element (lanes past n keep the start). -FLT_MAX is
    // not the identity of max (-inf), but max(-FLT_MAX, x) = x for every finite x, and r, the max of the (finite,
    // normal) inputs, is above it: max(-FLT_MAX, r) = r. The start reaches the result and changes nothing: the
    // checker finds no hazard, and the result is the max of the inputs.
    for (const Size z : {Size{20, 32}, Size{200, 32}, Size{32, 32}}) {
        CAPTURE(z);
        const KernelOutcome o = run("max_from_lowest.cu", z.n, z.block, 0, 30, InputKind::Normal);
        check_exact<float>(o, "max_from_lowest.cu", true);
        if (!o.ok) continue;
        CHECK(o.trace.schedule.op == Op::Max);
        CHECK(non_identity_constants(o.trace) >= z.block);  // every thread of every launch made the start
    }
}

TEST_CASE("student kernel: a flag broadcast through shared memory after a ticket is no starting value") {
    // Thread 0 of each block draws a ticket and stores 1 (the last block) or 0 (the others) to shared memory; every
    // thread reads it back with static_cast, a read that records no operand. Neither constant is the identity of
    // max (-inf), and neither reaches the result: the result's cone holds the loads, the tree's combines, the
    // partials and the last block's maxes, not the flag. No wrong-identity hazard; the result is the max.
    for (const Size z : {Size{300, 64}, Size{50, 64}, Size{256, 32}}) {
        CAPTURE(z);
        const KernelOutcome o = run("last_block_flag.cu", z.n, z.block, 0, 30, InputKind::Normal);
        check_exact<float>(o, "last_block_flag.cu", true);
        if (!o.ok) continue;
        CHECK(non_identity_constants(o.trace) == o.trace.grid);  // one flag per block, found nowhere
    }
}

// The first of NAMES on PATH, or "" when none is.
std::string first_on_path(std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (!find_on_path(name).empty()) return name;
    return {};
}

// g++ evaluates `s[t] + s[t + stride]` right to left, clang left to right: the records come out alike.
TEST_CASE("student kernel: the same file through g++ and clang++ gives the same trace") {
    // Debian's clang-14 package (what CI installs) provides clang++-14 only; the clang package adds clang++.
    const std::string clangxx = first_on_path({"clang++", "clang++-14", "clang++-15", "clang++-16"});
    const std::string gxx = first_on_path({"g++"});
    if (clangxx.empty() || gxx.empty()) {
        // CTest reports this as skipped (SKIP_REGULAR_EXPRESSION in tests/student/CMakeLists.txt)
        const std::string missing = gxx.empty() ? "g++" : "clang++ (nor clang++-14, -15, -16)";
        MESSAGE("SKIPPED: " << missing << " is not on PATH: the g++-against-clang++ comparison cannot run");
        return;
    }
    setenv("RLAB_CXX", gxx.c_str(), 1);
    const KernelOutcome gcc = run("smem_tree.cu", 100, 64);
    setenv("RLAB_CXX", clangxx.c_str(), 1);
    const KernelOutcome clang = run("smem_tree.cu", 100, 64);
    unsetenv("RLAB_CXX");
    REQUIRE(gcc.ok);
    REQUIRE(clang.ok);
    REQUIRE(gcc.trace.events.size() == clang.trace.events.size());
    for (size_t i = 0; i < gcc.trace.events.size(); ++i) {
        const Event &a = gcc.trace.events[i], &b = clang.trace.events[i];
        CHECK((a.kind == b.kind && a.step == b.step && a.thread == b.thread && a.block == b.block && a.value == b.value &&
               a.detail == b.detail && a.aux == b.aux && a.dep[0] == b.dep[0] && a.dep[1] == b.dep[1]));
    }
    CHECK(gcc.trace.lines == clang.trace.lines);
}

TEST_CASE("bad kernel: a syntax error is a diagnostic naming the student's file and line") {
    const KernelOutcome o = run("bad_syntax.cu", 8, 8);
    CHECK(!o.ok);
    REQUIRE(!o.diagnostics.empty());
    const Diagnostic& d = o.diagnostics.front();
    CHECK(d.file == kernel_path("bad_syntax.cu"));
    CHECK(d.line == 7);
    CHECK(d.column > 0);
    CHECK(d.message.rfind("error: ", 0) == 0);
    CHECK(o.error.find("bad_syntax.cu:7:") != std::string::npos);
    CHECK(o.error.find('\n') == std::string::npos);
    CHECK(!o.compiler_log.empty());
}

TEST_CASE("bad kernel: a signature RL_ENTRY rejects is one diagnostic on the kernel's line") {
    const KernelOutcome o = run("bad_signature.cu", 8, 8);
    CHECK(!o.ok);
    REQUIRE(o.diagnostics.size() == 1);
    CHECK(o.diagnostics[0].file == kernel_path("bad_signature.cu"));
    CHECK(o.diagnostics[0].line == 5);
    CHECK(o.diagnostics[0].message.find("RL_KERNEL bad_signature must be void bad_signature(rl::In<T> in") != std::string::npos);
}

TEST_CASE("bad kernel: reading past the input is the out-of-bounds-read hazard, not a crash") {
    const KernelOutcome o = run("bad_oob_read.cu", 100, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(has_hazard(o.trace, HazardKind::OutOfBoundsRead));
    // Where, by hand: n = 100 in blocks of 64 (two blocks); block 1's thread t reads in[64 + t], past the input for
    // t >= 36: threads 36-63, lanes 4-31 of warp 1, each at its first event (step 0), elements 100-127. One warp
    // instruction: one finding, named at its lowest lane's load.
    INFO(hazard_list(o.trace));
    std::vector<Hazard> oob;
    for (const Hazard& h : o.trace.hazards)
        if (h.kind == HazardKind::OutOfBoundsRead) oob.push_back(h);
    REQUIRE(oob.size() == 1);
    CHECK(oob[0].block == 1);
    CHECK(oob[0].warp == 1);
    CHECK(oob[0].lanes == 0xfffffff0u);
    const Event& first = o.trace.events[oob[0].event];
    CHECK(first.kind == EventKind::Load);
    CHECK(first.block == 1);
    CHECK(first.thread == 36);
    CHECK(first.step == 0);
    CHECK(first.aux == 100);
    CHECK(oob[0].what.starts_with("thread 36 of block 1 reads element 100, outside the 100 elements of the input"));
    // Every load past n is flagged, and none inside it.
    for (const Event& e : o.trace.events)
        if (e.kind == EventKind::Load)
            CHECK(((e.flags & kHazard) != 0) == (e.block == 1 && e.thread >= 36 && e.aux == 64 + uint32_t(e.thread)));
    CHECK((o.trace.result_flags & kUndefined));  // the poisoned value reaches the result
}

TEST_CASE("bad kernel: a shared index out of range stops the run with thread, block, line and bound") {
    const KernelOutcome o = run("bad_shared_index.cu", 8, 32);
    CHECK(!o.ok);
    CHECK(o.error == "out of range: thread 0 of block 0 on line 9 indexes a shared array of 32 slots with 32 (allowed 0..31)");
}

TEST_CASE("bad kernel: a ninth rl::Shared declaration stops the run with its line") {
    const KernelOutcome o = run("bad_shared_many.cu", 1, 1);
    CHECK(!o.ok);
    CHECK(o.error == "thread 0 of block 0 on line 9 declares more than 8 rl::Shared arrays (a declaration counts once, "
                     "inside a loop too)");
}

TEST_CASE("bad kernel: a wild pointer crashes the runner, and the caller reports it in one line") {
    const KernelOutcome o = run("bad_pointer.cu", 8, 8);
    CHECK(!o.ok);
    CHECK(o.error.find("crashed") != std::string::npos);
    CHECK(o.error.find("SIGSEGV") != std::string::npos);
    CHECK(o.error.find('\n') == std::string::npos);
}

TEST_CASE("bad kernel: an endless loop that records is stopped by the step budget") {
    const KernelOutcome o = run("bad_loop_records.cu", 4, 4);
    CHECK(!o.ok);
    CHECK(o.error.find("step budget") != std::string::npos);
    CHECK(o.error.find("line 7") != std::string::npos);
}

TEST_CASE("bad kernel: an endless loop that records nothing is stopped by the time limit") {
    const KernelOutcome o = run("bad_loop_silent.cu", 4, 4, 0, 1.0);
    CHECK(!o.ok);
    CHECK(o.error.find("did not finish within 1 s") != std::string::npos);
}

TEST_CASE("bad kernel: a barrier only half a warp reaches, before a full-mask shuffle, hangs") {
    const KernelOutcome o = run("bad_barrier_hang.cu", 32, 32);
    CHECK(!o.ok);
    CHECK(o.error ==
          "the kernel hangs: in block 0, threads 0-15 wait at __syncthreads() on line 8; threads 16-31 wait at "
          "__shfl_down_sync() on line 9 (a shuffle waits for a lane that waits elsewhere, or a barrier not every "
          "thread reaches)");
}

// The emulator's line for a block whose threads all wait at __syncthreads(), at different lines.
std::string barrier_lines_hang(const std::string& who_where) {
    return "the kernel hangs: in block 0, " + who_where + ": the threads of a warp must all reach the same __syncthreads()";
}

TEST_CASE("bad kernel: a barrier in each arm of a per-thread branch hangs, naming both lines and who waits where") {
    // Every thread arrives, but even threads at line 10 and odd ones at line 12: two barriers, as on the GPU (the
    // H200 never finishes this kernel), not one.
    const KernelOutcome o = run("bad_barrier_two_lines.cu", 64, 64);
    CHECK(!o.ok);
    CHECK(o.error == barrier_lines_hang("threads 0, 2, 4, ..., 62 wait at __syncthreads() on line 10 and threads 1, 3, 5, "
                                        "..., 63 on line 12"));
    // A block of 6: short lists are written out.
    const KernelOutcome six = run("bad_barrier_two_lines.cu", 6, 6);
    CHECK(six.error == barrier_lines_hang("threads 0, 2, 4 wait at __syncthreads() on line 10 and threads 1, 3, 5 on line 12"));
}

TEST_CASE("a barrier in each arm of a warp-uniform branch completes, as on the H200, and the checker flags it") {
    // Warp 0 waits at line 11, warp 1 at line 13: the hardware counts arrivals per warp, and the H200 finishes it.
    const KernelOutcome o = run("bad_barrier_warp_split.cu", 64, 64);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(o.trace.result_value == o.trace.reference_value);
    INFO(hazard_list(o.trace));
    CHECK(has_hazard(o.trace, HazardKind::DivergentBarrier));  // one barrier reached from two source lines
    CHECK(std::all_of(o.trace.hazards.begin(), o.trace.hazards.end(),
                      [](const Hazard& h) { return h.kind == HazardKind::DivergentBarrier; }));
    // Where, by hand: every thread loads (step 0) and stores s[t] (step 1), then warp 0 arrives on line 11 and
    // warp 1 on line 13 at step 2. The first line met is 11: the one finding is warp 1's arrival, all 32 lanes.
    REQUIRE(o.trace.hazards.size() == 1);
    const Hazard& h = o.trace.hazards[0];
    CHECK(h.block == 0);
    CHECK(h.warp == 1);
    CHECK(h.lanes == 0xffffffffu);
    const Event& arrival = o.trace.events[h.event];
    CHECK(arrival.kind == EventKind::Barrier);
    CHECK(arrival.step == 2);
    CHECK(arrival.detail == 13);
    CHECK(h.what == "`__syncthreads()` at step 2 is reached at line 13 by lanes 0-31 of warp 1 and at line 11 by other "
                    "threads: the branch around it is not the same for the whole block");
    // One warp takes only the first arm: one line, the barrier completes, the sum is right and nothing is flagged.
    const KernelOutcome one = run("bad_barrier_warp_split.cu", 20, 32);
    INFO(one.error);
    REQUIRE(one.ok);
    CHECK(one.trace.result_value == one.trace.reference_value);
    CHECK(one.trace.hazards.empty());
}

TEST_CASE("kernel files: exactly one RL_KERNEL, and bad requests are rl::Error") {
    CHECK(kernel_name("RL_KERNEL  void\n my_sum (rl::In<float> in") == "my_sum");
    // Each refusal is its own one line: what is wrong and what is allowed.
    CHECK_THROWS_WITH_AS(kernel_name("static void f() {}"),
                         "no kernel in the file: mark one function `RL_KERNEL void NAME(rl::In<T> in, rl::Out<T> out, int n)`",
                         Error);
    CHECK_THROWS_WITH_AS(kernel_name("RL_KERNEL void a() {}\nRL_KERNEL void b() {}"),
                         "the file has 2 RL_KERNEL functions (a, b): exactly one is allowed", Error);
    KernelRequest r;
    r.file = kernel_path("no_such_kernel.cu");
    CHECK_THROWS_WITH_AS(run_kernel(r), (r.file + ": cannot open the kernel file: No such file or directory").c_str(), Error);
    r.file = kernel_path("warp_xor.cu");
    r.schedule.block = 2000;
    CHECK_THROWS_WITH_AS(run_kernel(r), "--block 2000: expected 1 to 1024 threads", Error);
    r.schedule.block = 32;
    r.time_limit_s = 0;
    CHECK_THROWS_WITH_AS(run_kernel(r), "--time-limit 0: expected seconds above 0, at most 600", Error);
    r.time_limit_s = 600.5;
    CHECK_THROWS_WITH_AS(run_kernel(r), "--time-limit 600.5: expected seconds above 0, at most 600", Error);
}

TEST_CASE("compiler messages: g++/clang and NVRTC forms") {
    const auto d = parse_diagnostics(
        "k.cu: In function 'void f()':\n"
        "/tmp/a b/k.cu:7:24: error: expected ';' before '}' token\n"
        "k.cu:3: warning: unused\n"
        "k.cu(12): error: identifier \"x\" is undefined\n"
        "k.cu:9:1: note: here\n");
    REQUIRE(d.size() == 3);
    CHECK(d[0].file == "/tmp/a b/k.cu");
    CHECK(d[0].line == 7);
    CHECK(d[0].column == 24);
    CHECK(d[0].message == "error: expected ';' before '}' token");
    CHECK(d[1].line == 3);
    CHECK(d[1].column == 0);
    CHECK(d[2].file == "k.cu");
    CHECK(d[2].line == 12);
    CHECK(first_error_line(d) == "/tmp/a b/k.cu:7:24: error: expected ';' before '}' token");
}

}  // namespace rl::student
