// tests/gpu/student/test_student_gpu.cpp — a student's dialect kernel on the GPU against the emulator, both through
// rlab-kernel-runner as rlab and the front ends run them: README's example gives equal traces (events field by field,
// timestamps aside; lines, result, hazards); the exercises are plain CUDA, which the instrumented GPU backend does not
// run yet (docs/plain-cuda.md): tests/gpu/plain/test_exercises_time.sh runs them on the GPU; an endless loop is
// stopped at the time limit and an out-of-bounds read is reported;
// __syncthreads() in both arms of a branch: the GPU does not finish where the emulator reports the hang.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "core/ops.h"
#include "core/trace.h"
#include "tests/gpu/student/student_files.h"
#include "tests/support/gpu_compare.h"

namespace rl::test {
namespace {

using student::KernelOutcome;

std::set<std::string> hazard_kinds(const Trace& t) {
    std::set<std::string> k;
    for (const Hazard& h : t.hazards) k.insert(std::string(to_string(h.kind)));
    return k;
}
// Where a student trace's hazards are: kind, the kind and source line of the event each names, block, warp, and the
// lanes of every hazard with that key together. Not the step: a load's step follows the store it saw (a racing load
// may see another store on the GPU than on the emulator), and the lanes of one line split over two steps are the
// same lanes. One line per key, sorted.
std::string hazard_places(const Trace& t) {
    std::map<std::tuple<std::string, std::string, int, uint32_t, uint32_t>, uint32_t> lanes;
    for (const Hazard& h : t.hazards) {
        const bool known = h.event < t.events.size();
        const std::string at = known ? std::string(to_string(t.events[h.event].kind)) : "event " + std::to_string(h.event);
        const int line = known && h.event < t.lines.size() ? t.lines[h.event] : -1;
        lanes[{std::string(to_string(h.kind)), at, line, h.block, h.warp}] |= h.lanes;
    }
    std::string out;
    for (const auto& [k, l] : lanes) {
        char mask[16];
        std::snprintf(mask, sizeof mask, "0x%08x", l);
        out += std::get<0>(k) + " on " + std::get<1>(k) + " at line " + std::to_string(std::get<2>(k)) + ", block " +
               std::to_string(std::get<3>(k)) + " warp " + std::to_string(std::get<4>(k)) + " lanes " + mask + "\n";
    }
    return out;
}
std::string joined(const std::set<std::string>& s) {
    std::string out;
    for (const std::string& x : s) out += x + " ";
    return out;
}

// Canonical events with the order of atomics set aside: the hardware picks the order in which atomics on one word
// land (two warps of one block may swap), so an atomic's position, the atomic it followed, the running value it left
// and whether it met the identity are blanked, and so is any dependency on an atomic.
std::vector<Event> apart_from_atomic_order(const Trace& t) {
    std::vector<Event> ev = canonical_events(t);
    std::vector<bool> atomic(ev.size());
    for (size_t i = 0; i < ev.size(); ++i) atomic[i] = ev[i].kind == EventKind::Atomic;
    for (size_t i = 0; i < ev.size(); ++i) {
        Event& e = ev[i];
        if (atomic[i]) {
            e.aux = 0;
            e.dep[0] = kNoEvent;
            e.value = 0;
            // Whether the memory after an atomic holds only identities depends on which atomics came before it:
            // the hardware's order, not the emulator's (an atomic adding 0 first on the GPU is identity-only).
            e.flags &= uint8_t(~(kIdentityCombine | kIdentity));
        }
        for (uint32_t& d : e.dep)
            if (d != kNoEvent && atomic[d]) d = kNoEvent - 1;
    }
    return ev;
}

// The atomic chain of a sum, replayed in the trace's own order with plain host arithmetic: positions 0..k-1, each
// atomic follows the one before it (the first follows none), and each holds the sum so far of the operands it added.
// The first break, or "".
template <class V>
std::string sum_chain_break(const Trace& t, const std::vector<uint32_t>& chain) {
    V running = 0;
    for (size_t pos = 0; pos < chain.size(); ++pos) {
        const Event& e = t.events[chain[pos]];
        const std::string at = "atomic at position " + std::to_string(pos) + " (event " + std::to_string(chain[pos]) + ")";
        if (e.aux != pos) return at + " has position " + std::to_string(e.aux);
        if (e.dep[0] != (pos == 0 ? kNoEvent : chain[pos - 1])) return at + " does not follow the atomic before it";
        if (e.dep[1] >= t.events.size()) return at + " names no operand";
        running = V(running + unpack_value<V>(t.events[e.dep[1]].value));
        if (e.value != pack_value(running)) return at + " does not hold the sum so far";
    }
    return "";
}
std::string atomic_chain_break(const Trace& t) {
    std::vector<uint32_t> chain;
    for (uint32_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == EventKind::Atomic) chain.push_back(i);
    if (chain.empty()) return "";
    std::sort(chain.begin(), chain.end(), [&](uint32_t a, uint32_t b) { return t.events[a].aux < t.events[b].aux; });
    if (t.schedule.op != Op::Sum) return "atomics of another operator than sum: no replay here";
    switch (t.schedule.type) {
        case DType::F32: return sum_chain_break<float>(t, chain);
        case DType::F64: return sum_chain_break<double>(t, chain);
        case DType::I32: return sum_chain_break<int32_t>(t, chain);
        default: return "atomics of another type than f32, f64 or i32: no replay here";
    }
}

struct Both {
    KernelOutcome cpu, gpu;
};
Both run_both(const std::string& file, const std::vector<std::string>& run) {
    return {student::run_kernel(request_for(file, run, Backend::Cpu)), student::run_kernel(request_for(file, run, Backend::Cuda))};
}

// Both ran, and the GPU's trace is the emulator's: every event (canonical order), its line, the result, the hazards.
void check_equal(const std::string& file, const std::vector<std::string>& run) {
    INFO(file);
    const Both b = run_both(file, run);
    INFO("cpu: ", b.cpu.error, " | gpu: ", b.gpu.error);
    REQUIRE(b.cpu.ok);
    REQUIRE(b.gpu.ok);
    const Trace &g = b.gpu.trace, &c = b.cpu.trace;
    CHECK(g.backend == Backend::Cuda);
    CHECK(c.backend == Backend::Cpu);
    CHECK(first_difference(apart_from_atomic_order(g), apart_from_atomic_order(c)) == "");
    CHECK(atomic_chain_break(g) == "");
    CHECK(atomic_chain_break(c) == "");
    CHECK(g.events.size() == c.events.size());
    CHECK(g.step_count == c.step_count);
    CHECK(g.lines == c.lines);  // events are in canonical order in both traces
    CHECK(g.result_value == c.result_value);
    CHECK(g.result_flags == c.result_flags);
    CHECK(g.reference_value == c.reference_value);
    CHECK(joined(hazard_kinds(g)) == joined(hazard_kinds(c)));
    CHECK(hazard_places(g) == hazard_places(c));
    CHECK(!g.times.empty());  // the GPU's records carry their clocks
}

// The answer over the input 1, 2, ..., n, written down without the lab: the sum n(n + 1) / 2 or the maximum n, in
// the kernel's type (each partial sum of integers below 2^24 is exact in f32, so any order gives it); nullopt for
// another operator, type or input.
std::optional<uint64_t> iota_answer(const Schedule& s) {
    if (s.input.kind != InputKind::Iota || (s.op != Op::Sum && s.op != Op::Max)) return std::nullopt;
    const uint64_t a = s.op == Op::Sum ? s.n * (s.n + 1) / 2 : s.n;
    if (s.type == DType::F32 && a < (uint64_t(1) << 24)) return pack_value(float(a));
    if (s.type == DType::F64) return pack_value(double(a));
    if (s.type == DType::I32 && a < (uint64_t(1) << 31)) return pack_value(int32_t(a));
    return std::nullopt;
}

// A correct kernel, compiled by NVRTC and run on the GPU, gives the exact answer: the reference the host computed from
// the input, and on 1..n the closed form as well (which the flags below choose wherever the operator allows).
void check_exact(const std::string& file, const std::vector<std::string>& run, int& closed_forms) {
    INFO(file);
    const KernelOutcome gpu = student::run_kernel(request_for(file, run, Backend::Cuda));
    INFO("gpu: ", gpu.error);
    REQUIRE(gpu.ok);
    const Trace& t = gpu.trace;
    CHECK(t.backend == Backend::Cuda);
    CHECK(t.result_value == t.reference_value);
    CHECK(!(t.result_flags & (kUndefined | kStale | kOrderViolated)));
    if (const std::optional<uint64_t> want = iota_answer(t.schedule)) {
        CHECK(t.result_value == *want);
        ++closed_forms;
    }
}

}  // namespace

TEST_CASE("student kernel on the GPU: README's example gives the emulator's trace (one block, several, a tail)") {
    const std::string path = readme_example(RLAB_TEST_OUT_DIR);
    REQUIRE_MESSAGE(!path.empty(), "README.md shows no ```cuda block with RL_KERNEL");
    check_equal(path, {"--n", "1000", "--block", "256", "--input", "uniform", "--seed", "3"});  // 4 blocks: second launch
    check_equal(path, {"--n", "40", "--block", "64"});                                          // one block, a partial warp
    check_equal(path, {"--n", "2048", "--block", "1024", "--input", "uniform", "--seed", "9"});
}

TEST_CASE("student kernel on the GPU: every correct kernel the NVRTC suite compiles gives the exact answer") {
    // The kernels test_student_nvrtc.cpp compiles, run: README's example (one block with a partial warp, several blocks
    // and a second launch, blocks of 1024) and the correct kernels of the
    // emulator's CI set. Inputs 1..n, so that a correct float sum is exact in any order. (README's kernel finishes
    // with one block of the same threads over the partials, so a grid of more blocks than threads is outside it:
    // 5000 elements on blocks of 64 sum 8390656 on the emulator too.)
    int closed_forms = 0;
    const std::string readme = readme_example(RLAB_TEST_OUT_DIR);
    REQUIRE_MESSAGE(!readme.empty(), "README.md shows no ```cuda block with RL_KERNEL");
    for (auto [n, block] : {std::pair{"40", "64"}, {"40", "1024"}, {"1000", "64"}, {"1000", "256"}, {"5000", "256"}, {"5000", "1024"}})
        check_exact(readme, {"--n", n, "--block", block}, closed_forms);
    const std::string dir = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/";
    for (const char* name : {"warp_xor.cu", "smem_tree.cu", "shared_in_loop.cu"})
        for (const char* n : {"1", "100", "1000"}) check_exact(dir + name, {"--n", n, "--block", "64"}, closed_forms);
    check_exact(dir + "grid_stride.cu", {"--n", "5000", "--block", "128", "--grid", "8"}, closed_forms);
    check_exact(dir + "last_block.cu", {"--n", "5000", "--block", "128"}, closed_forms);
    // 6 README runs, 9 + 2 CI runs
    CHECK(closed_forms == 6 + 9 + 2);
}

TEST_CASE("student kernel on the GPU: every kernel the NVRTC suite compiles is run by a GPU test here") {
    // A kernel added to tests/student/kernels must be given a GPU run and what it must show; the three not run by
    // another test here run below. bad_barrier_hang.cu is left to the emulator's suite: whether the hardware finishes
    // a barrier only half a warp reaches depends on how it counts arrivals (the warp-split test above prints what this
    // GPU does), so its GPU run has no outcome the rules fix.
    const std::set<std::string> run_here{"bad_barrier_two_lines.cu", "bad_barrier_warp_split.cu", "bad_loop_records.cu",
                                         "bad_loop_silent.cu",       "bad_mixed_ops.cu",          "bad_oob_read.cu",
                                         "bad_pointer.cu",           "bad_shared_index.cu",       "bad_shared_many.cu",
                                         "grid_stride.cu",           "last_block.cu",             "shared_in_loop.cu",
                                         "smem_tree.cu",             "warp_xor.cu",
                                         // the runtime's semantics (tests/student/test_student_runtime.cpp), below
                                         "bad_atomic_onto_undefined.cu", "bad_shfl_half_mask.cu", "bad_undefined_operand.cu",
                                         "prod_assign.cu", "warp_min.cu", "warp_scan_up.cu", "warp_tree_syncwarp.cu",
                                         "xor_width.cu",
                                         // starting values that are not the identity, below
                                         "last_block_flag.cu", "max_from_lowest.cu"};
    std::set<std::string> compiled;
    for (const std::string& f : compiling_student_kernels()) compiled.insert(f.substr(f.rfind('/') + 1));
    compiled.erase("bad_barrier_hang.cu");
    CHECK(joined(compiled) == joined(run_here));
    const std::string dir = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/";
    // Two operators in one kernel: refused after the run with the emulator's one line (the records say + and max).
    const Both mixed = run_both(dir + "bad_mixed_ops.cu", {"--n", "64", "--block", "64"});
    CHECK(!mixed.cpu.ok);
    CHECK(!mixed.gpu.ok);
    CHECK(mixed.gpu.error == mixed.cpu.error);
    // A store through a wild pointer: the GPU's runner fails (an illegal address), the caller reports it in one line.
    const KernelOutcome wild = student::run_kernel(request_for(dir + "bad_pointer.cu", {"--n", "8", "--block", "8"}, Backend::Cuda));
    INFO("gpu: ", wild.error);
    CHECK(!wild.ok);
    CHECK(!wild.error.empty());
    CHECK(wild.error.find('\n') == std::string::npos);
}

TEST_CASE("student kernel on the GPU: the emulator's CI kernels without atomics give the same trace") {
    for (const char* name : {"warp_xor.cu", "smem_tree.cu", "bad_oob_read.cu", "shared_in_loop.cu"})
        check_equal(std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + name,
                    {"--n", "100", "--block", "64", "--input", "uniform", "--seed", "5"});
}

TEST_CASE("student kernel on the GPU: atomics and a last-block finish give the exact result with no hazard") {
    // grid_stride loops over the input with any grid; last_block reads one element per thread, so its grid is
    // the default ceil(n / block) (with --grid 8 it covers 1024 of the 5000 elements, on either backend).
    // grid_stride's double sum lands its blocks' atomics in the hardware's order, and on uniform values the rounding
    // follows that order (one unit in the last place apart on the H200): its input is 1..n, whose every partial sum
    // is exact in double, so the exact answer holds in any order. last_block takes a maximum, exact in any order.
    for (const char* name : {"grid_stride.cu", "last_block.cu"}) {
        INFO(name);
        const bool sum = std::string(name) == "grid_stride.cu";
        std::vector<std::string> run = {"--n", "5000", "--block", "128", "--input", sum ? "iota" : "uniform"};
        if (sum) run.insert(run.end(), {"--grid", "8"});
        const Both b = run_both(std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + name, run);
        INFO("cpu: ", b.cpu.error, " | gpu: ", b.gpu.error);
        REQUIRE(b.gpu.ok);
        REQUIRE(b.cpu.ok);
        CHECK(b.gpu.trace.events.size() == b.cpu.trace.events.size());
        CHECK(b.cpu.trace.result_value == b.cpu.trace.reference_value);
        CHECK(b.gpu.trace.result_value == b.gpu.trace.reference_value);
        CHECK(b.gpu.trace.hazards.empty());
        if (sum) CHECK(b.gpu.trace.result_value == pack_value(5000.0 * 5001.0 / 2.0));
    }
}

TEST_CASE("student kernel on the GPU: the runtime's semantics kernels give the emulator's trace") {
    // The kernels of tests/student/test_student_runtime.cpp, on the launches it checks on the emulator: __shfl_up_sync
    // (a warp scan), __shfl_xor_sync across width-8 segments, a shuffle whose mask leaves out the lanes read,
    // __syncwarp(mask) over the lanes still adding, *=, and undefined operands of a combine and of an atomic.
    const std::string dir = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/";
    check_equal(dir + "warp_scan_up.cu", {"--n", "20", "--block", "32"});
    check_equal(dir + "xor_width.cu", {"--n", "32", "--block", "32"});
    check_equal(dir + "bad_shfl_half_mask.cu", {"--n", "32", "--block", "32"});
    check_equal(dir + "warp_tree_syncwarp.cu", {"--n", "100", "--block", "64"});
    check_equal(dir + "prod_assign.cu", {"--n", "20", "--block", "32", "--grid", "1"});
    check_equal(dir + "bad_undefined_operand.cu", {"--n", "32", "--block", "32"});
    check_equal(dir + "bad_atomic_onto_undefined.cu", {"--n", "1", "--block", "1"});
    // fminf and atomicMin: check_equal replays sums only; a minimum lands the same whatever the atomics' order.
    const Both m = run_both(dir + "warp_min.cu", {"--n", "300", "--block", "128", "--input", "normal", "--seed", "7"});
    INFO("cpu: ", m.cpu.error, " | gpu: ", m.gpu.error);
    REQUIRE(m.cpu.ok);
    REQUIRE(m.gpu.ok);
    CHECK(first_difference(apart_from_atomic_order(m.gpu.trace), apart_from_atomic_order(m.cpu.trace)) == "");
    CHECK(m.gpu.trace.result_value == m.cpu.trace.result_value);
    CHECK(m.gpu.trace.result_value == m.gpu.trace.reference_value);
    CHECK(joined(hazard_kinds(m.gpu.trace)) == joined(hazard_kinds(m.cpu.trace)));
}

TEST_CASE("student kernel on the GPU: a max from -FLT_MAX and a flag through shared memory are no wrong identity") {
    // max_from_lowest starts every lane at -FLT_MAX (no atomics: the same trace event for event); last_block_flag
    // broadcasts a ticket's outcome as 1 or 0 through shared memory. Neither start changes the max of finite data,
    // so on both backends the result is the reference and no hazard is found (the emulator's suite derives why).
    const std::string dir = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/";
    check_equal(dir + "max_from_lowest.cu", {"--n", "200", "--block", "32", "--input", "normal", "--seed", "30"});
    for (const char* n : {"300", "50"}) {
        const Both b = run_both(dir + "last_block_flag.cu", {"--n", n, "--block", "64", "--input", "normal", "--seed", "30"});
        INFO("n ", n, " cpu: ", b.cpu.error, " | gpu: ", b.gpu.error);
        REQUIRE(b.cpu.ok);
        REQUIRE(b.gpu.ok);
        CHECK(b.gpu.trace.events.size() == b.cpu.trace.events.size());
        CHECK(b.gpu.trace.result_value == b.cpu.trace.reference_value);
        CHECK(b.cpu.trace.result_value == b.cpu.trace.reference_value);
        CHECK(b.gpu.trace.hazards.empty());
        CHECK(b.cpu.trace.hazards.empty());
    }
}

TEST_CASE("student kernel on the GPU: an endless loop is stopped at the time limit with the message") {
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/bad_loop_silent.cu";
    const KernelOutcome o = student::run_kernel(request_for(file, {"--n", "64", "--block", "32"}, Backend::Cuda, 2.0));
    CHECK(!o.ok);
    CHECK(o.error.find("the kernel did not finish within 2 s") != std::string::npos);
}

// The runner's time-limit line (cuda/student_kernel.cpp on the GPU, the runner's timer on the emulator).
bool did_not_finish(const KernelOutcome& o, const std::string& seconds) {
    return !o.ok && o.error.find("the kernel did not finish within " + seconds + " s") != std::string::npos;
}
bool hangs(const KernelOutcome& o) { return !o.ok && o.error.rfind("the kernel hangs: ", 0) == 0; }

TEST_CASE("student kernel on the GPU: __syncthreads() in both arms of a per-thread branch never finishes, and the emulator says it hangs") {
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/bad_barrier_two_lines.cu";
    const std::vector<std::string> run = {"--n", "100", "--block", "64", "--input", "uniform", "--seed", "5"};
    const KernelOutcome gpu = student::run_kernel(request_for(file, run, Backend::Cuda, 2.0));
    const KernelOutcome cpu = student::run_kernel(request_for(file, run, Backend::Cpu, 2.0));
    MESSAGE("GPU: ", gpu.ok ? "finished" : gpu.error, " | emulator: ", cpu.ok ? "finished" : cpu.error);
    CHECK(did_not_finish(gpu, "2"));
    CHECK(hangs(cpu));
    CHECK(cpu.error.find("wait at __syncthreads() on line 10 and threads 1, 3, 5, ..., 63 on line 12") != std::string::npos);
}

TEST_CASE("student kernel on the GPU: __syncthreads() in both arms of a warp-uniform branch: the emulator's verdict is the GPU's") {
    // Warp 0 waits at line 11, warp 1 at line 13. The Programming Guide leaves it undefined; the hardware counts
    // arrivals per warp, and the H200 finished it on 2026-12-01 (260 events, divergent-barrier), so the emulator's
    // rule is one line per warp. What the GPU does is printed; the verdicts, and then the traces, must agree.
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/bad_barrier_warp_split.cu";
    const std::vector<std::string> run = {"--n", "64", "--block", "64"};
    const KernelOutcome gpu = student::run_kernel(request_for(file, run, Backend::Cuda, 2.0));
    const KernelOutcome cpu = student::run_kernel(request_for(file, run, Backend::Cpu, 2.0));
    // Finished, its trace holds one barrier reached at two lines: the checker's two-line divergent-barrier rule.
    MESSAGE("GPU: ", gpu.ok ? "finished (" + std::to_string(gpu.trace.events.size()) + " events; hazards: " +
                                  joined(hazard_kinds(gpu.trace)) + ")"
                            : gpu.error,
            " | emulator: ", cpu.ok ? "finished" : cpu.error);
    REQUIRE((gpu.ok || did_not_finish(gpu, "2")));  // finished or stopped at the limit, nothing else
    REQUIRE((cpu.ok || hangs(cpu)));
    CHECK(did_not_finish(gpu, "2") == hangs(cpu));
    if (gpu.ok && cpu.ok) {
        CHECK(first_difference(gpu.trace, cpu.trace) == "");
        CHECK(joined(hazard_kinds(gpu.trace)) == joined(hazard_kinds(cpu.trace)));
        CHECK(gpu.trace.result_value == cpu.trace.result_value);
    }
}

TEST_CASE("student kernel on the GPU: an out-of-bounds in[] read is reported, not a crash") {
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/bad_oob_read.cu";
    const KernelOutcome o = student::run_kernel(request_for(file, {"--n", "100", "--block", "64"}, Backend::Cuda));
    INFO(o.error);
    REQUIRE(o.ok);
    // n = 100 over two blocks of 64: threads 36-63 of block 1 (lanes 4-31 of its warp 1) read elements 100-127 at
    // line 7's unguarded in[]; nothing else breaks a rule (the sum's loop reads slots every thread stored)
    CHECK(hazard_places(o.trace) == "out-of-bounds-read on load at line 7, block 1 warp 1 lanes 0xfffffff0\n");
    CHECK((o.trace.result_flags & kUndefined));
}

TEST_CASE("student kernel on the GPU: kernel errors stop the run with the emulator's one line") {
    const std::string dir = std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/";
    const Both index = run_both(dir + "bad_shared_index.cu", {"--n", "8", "--block", "32"});
    CHECK(!index.gpu.ok);
    CHECK(index.gpu.error == index.cpu.error);  // one thread breaks the bound: the same thread, line and bound
    const Both many = run_both(dir + "bad_shared_many.cu", {"--n", "1", "--block", "1"});  // a ninth rl::Shared
    CHECK(!many.gpu.ok);
    CHECK(many.gpu.error == many.cpu.error);
    // every thread loops: which one reaches the budget first is the hardware's choice
    const KernelOutcome loop = student::run_kernel(request_for(dir + "bad_loop_records.cu", {"--n", "4", "--block", "4"}, Backend::Cuda));
    CHECK(!loop.ok);
    CHECK(loop.error.find("on line 7 records its 65535th event: the step budget stops it") != std::string::npos);
}

}  // namespace rl::test
