// tests/gpu/test_gpu_generated.cpp — the code you see is the code that ran: the generated kernel
// (rlab kernel), compiled at run time with NVRTC, gives the instrumented kernel's result bits.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/emulator.h"
#include "core/error.h"
#include "cuda/host_api.h"
#include "tests/codegen/bug_schedules.h"
#include "tests/gpu/nvrtc_runner.h"
#include "tests/random_schedule.h"

using namespace rl;

namespace {

// Whether the result's bits do not depend on the hardware's order: atomics combine in arrival order,
// which changes a float sum or product and the order witness; exact operators do not care.
bool deterministic(const Schedule& s) {
    const GridStage gs = s.effective_grid_stage();
    if (gs != GridStage::AtomicBlock && gs != GridStage::AtomicElement) return true;
    if (s.op == Op::Max || s.op == Op::Min || s.op == Op::ArgMax) return true;
    return s.type == DType::I32 && (s.op == Op::Sum || s.op == Op::Prod || s.op == Op::SumCount);
}

// A hung kernel leaves the context unusable: say which schedule and end the process.
test::GeneratedRun run_or_exit(const Schedule& s, const InputData& in) {
    try {
        return test::run_generated(s, in);
    } catch (const DeviceHung& e) {
        std::printf("FATAL: %s: %s\n", describe(s).c_str(), e.what());
        std::fflush(stdout);
        std::_Exit(1);
    }
}

}  // namespace

TEST_CASE("generated kernels: 120 random deterministic schedules give the instrumented kernel's result bits") {
    std::mt19937_64 rng(15150);
    int compared = 0, tried = 0;
    while (compared < 120 && tried < 400) {
        ++tried;
        const Schedule s = testing::random_schedule(rng, 6000);
        if (!deterministic(s)) continue;
        INFO("schedule: " << describe(s));
        const InputData in = make_input(s);
        Trace gpu;
        try {
            gpu = cuda::capture_trace(s, in);
        } catch (const Error& e) {
            REQUIRE(std::string(e.what()).find("cannot all be resident") != std::string::npos);
            continue;
        }
        const test::GeneratedRun run = run_or_exit(s, in);
        if (!run.ran) continue;  // the same cooperative limit, met by the generated kernel
        CHECK(run.bits == gpu.result_value);
        ++compared;
    }
    MESSAGE("compared " << compared << " schedules");
    CHECK(compared >= 100);
}

TEST_CASE("generated kernels: each bug that finishes gives the same kind of wrong or undefined result") {
    for (const Schedule& s : testing::bug_schedules()) {
        const Bug bug = bug_list(s.bugs).front();
        INFO("schedule: " << describe(s));
        const InputData in = make_input(s);
        Trace gpu;
        try {
            gpu = cuda::capture_trace(s, in);
        } catch (const DeviceHung& e) {
            MESSAGE(to_string(bug) << ": the instrumented kernel does not finish (" << e.what() << "); not run");
            std::fflush(stdout);
            std::_Exit(1);  // the context is gone; the remaining bugs cannot run in this process
        }
        const test::GeneratedRun run = run_or_exit(s, in);
        REQUIRE(run.ran);
        const bool undefined = gpu.result_flags & (kUndefined | kStale);
        const bool wrong = gpu.result_value != gpu.reference_value || (gpu.result_flags & kOrderViolated);
        MESSAGE(to_string(bug) << ": instrumented " << format_value(s.op, s.type, gpu.result_value, gpu.result_flags)
                               << " (flags " << format_flags(gpu.result_flags) << "), generated "
                               << format_value(s.op, s.type, run.bits) << ", reference "
                               << format_value(s.op, s.type, gpu.reference_value));
        if (undefined) continue;  // undefined by the rules: any bits are that kind of result
        if (bug == Bug::WrongIdentity || bug == Bug::GridStrideOrder || bug == Bug::DescendingOrder) {
            // deterministic wrong results: wrong in exactly the same way
            CHECK(wrong);
            CHECK(run.bits == gpu.result_value);
        } else if (deterministic(s) && !wrong) {
            CHECK(run.bits == gpu.result_value);  // the bug did not show on this run: both right
        }
    }
}
