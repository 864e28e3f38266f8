// tests/simt/test_simt_session.cpp — student::PlainSession: buffers that outlive a launch, a later launch's loads
// naming an earlier launch's stores, buffers renumbered for the trace, __device__ variables kept between launches, and
// the launches the lab refuses to make, each held to values worked out by hand.
#include <doctest/doctest.h>

#include <cstring>
#include "core/error.h"
#include "simt_test.h"
#include "student/plain_session.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

constexpr const char* kPass = R"(__global__ void pass(const int* a, int* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}
)";

InputData ints(std::initializer_list<int32_t> v) {
    InputData d;
    d.i32.assign(v);
    return d;
}

// in = {5, 6, 7, 8}; pass<<<1, 4>>>(in, tmp, 4) copies it to tmp, pass<<<1, 4>>>(tmp, out, 4) to out: out[0] = 5.
// The buffers are allocated in the order in, tmp, out, so out (id 2) is renumbered 1 for the trace.
TEST_CASE("PlainSession: launch 2 reads what launch 1 stored, with the store as its operand; out[0] is the result") {
    REQUIRE_CLANG();
    const simt::Module m = compile(kPass);
    student::PlainSession s(m, Op::Sum, DType::I32);
    const int32_t host[4] = {5, 6, 7, 8};
    const uint32_t in = s.allocate(16, "in");
    s.write(in, 0, host, 16);
    s.mark_input(in, 4);
    const uint32_t tmp = s.allocate(16, "tmp", student::BufferStart::Identity);
    const uint32_t out = s.allocate(16, "out", student::BufferStart::Identity);
    const simt::Kernel* k = s.kernel("pass");
    REQUIRE(k);
    using A = student::SessionArg;
    CHECK(s.launch(*k, "pass", 1, 4, 0, {A::in_buffer(in), A::in_buffer(tmp), A::scalar(4)}) == "");
    CHECK(s.launch(*k, "pass", 1, 4, 0, {A::in_buffer(tmp), A::in_buffer(out), A::scalar(4)}) == "");
    int32_t back[4] = {};
    s.read(out, 0, back, 16);
    CHECK(back[0] == 5);
    CHECK(back[3] == 8);
    student::PlainSession::Finish how;
    how.schedule.n = 4;
    how.schedule.block = 4;
    const InputData input = ints({5, 6, 7, 8});
    how.input = &input;
    how.result_buffer = out;
    const Trace t = s.finish(how);
    REQUIRE(t.launches.size() == 2);
    CHECK(t.launches[1].first_block == 1);
    CHECK(unpack_value<int32_t>(t.result_value) == 5);
    // Each thread of launch 2 (the trace's block 1) loads tmp[i] stored by the same thread of launch 1 (block 0).
    int crossing = 0;
    for (const Event& e : t.events) {
        if (e.kind != EventKind::PartialLoad || e.block != 1) continue;
        REQUIRE(e.dep[0] != kNoEvent);
        const Event& store = t.events[e.dep[0]];
        CHECK(store.kind == EventKind::BlockPartial);
        CHECK(store.block == 0);
        CHECK(store.thread == e.thread);
        CHECK(unpack_value<int32_t>(e.value) == 5 + int(e.thread));
        ++crossing;
    }
    CHECK(crossing == 4);
}

// `calls` starts at 0: launch 1 stores 0 to b[0] and leaves calls = 1; launch 2 stores 1 and leaves 2.
TEST_CASE("PlainSession: a __device__ variable keeps its value from one launch to the next") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__device__ int calls;
__global__ void count(const int* a, int* b, int n) {
    if (threadIdx.x == 0) {
        b[0] = calls;
        calls = calls + 1;
    }
}
)");
    student::PlainSession s(m, Op::Sum, DType::I32);
    const uint32_t in = s.allocate(4, "in");
    const uint32_t out = s.allocate(4, "out", student::BufferStart::Identity);
    const simt::Kernel* k = s.kernel("count");
    REQUIRE(k);
    using A = student::SessionArg;
    int32_t got = -1;
    CHECK(s.launch(*k, "count", 1, 32, 0, {A::in_buffer(in), A::in_buffer(out), A::scalar(1)}) == "");
    s.read(out, 0, &got, 4);
    CHECK(got == 0);
    CHECK(s.launch(*k, "count", 1, 32, 0, {A::in_buffer(in), A::in_buffer(out), A::scalar(1)}) == "");
    s.read(out, 0, &got, 4);
    CHECK(got == 1);
}

TEST_CASE("PlainSession: launches the lab cannot make are one line; a kernel error ends the run") {
    REQUIRE_CLANG();
    const simt::Module m = compile(kPass);
    student::PlainSession s(m, Op::Sum, DType::I32);
    const uint32_t in = s.allocate(16, "in");
    const uint32_t out = s.allocate(8, "out", student::BufferStart::Identity);
    const simt::Kernel& k = *s.kernel("pass");
    using A = student::SessionArg;
    auto error_of = [&](const std::vector<A>& args, uint32_t block) {
        try {
            s.launch(k, "pass", 1, block, 0, args);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    CHECK(error_of({A::in_buffer(in), A::scalar(4), A::scalar(4)}, 4) ==
          "launch 1 (pass): argument 2 is a number, and pass's parameter 2 is a pointer");
    CHECK(error_of({A::in_buffer(in), A::in_buffer(out)}, 4) == "launch 1 (pass): pass takes 3 arguments, and the launch passes 2");
    CHECK(error_of({A::in_buffer(in), A::in_buffer(7), A::scalar(4)}, 4) ==
          "launch 1 (pass): argument 2: buffer 7 does not exist (the run has 2)");
    CHECK(error_of({A::in_buffer(in), A::in_buffer(out), A::scalar(4)}, 1025) ==
          "launch 1 (pass): <<<1, 1025>>>: a launch has at least one block, of 1..1024 threads");
    // out holds 2 ints: thread 2 stores out[2], past it. The run stops with the kernel's line; nothing runs after it.
    const std::string error = s.launch(k, "pass", 1, 4, 0, {A::in_buffer(in), A::in_buffer(out), A::scalar(4)});
    CHECK(error == "out of range: thread 2 of block 0 on line 3 writes out[2], and out has 2 elements (0..1)");
    CHECK(error_of({A::in_buffer(in), A::in_buffer(out), A::scalar(1)}, 4) == "the run stopped at a kernel error: no launch runs after it");
}

TEST_CASE("PlainSession: at most 8 buffers, and a copy outside a buffer is refused") {
    REQUIRE_CLANG();
    const simt::Module m = compile(kPass);
    student::PlainSession s(m, Op::Sum, DType::I32);
    for (int b = 0; b < 8; ++b) s.allocate(4, "b" + std::to_string(b));
    CHECK_THROWS_WITH_AS(s.allocate(4, "ninth"), "a run has at most 8 global buffers (ninth would be the 9th)", Error);
    const int32_t v[2] = {1, 2};
    CHECK_THROWS_WITH_AS(s.write(0, 0, v, 8), "a copy to the device of 8 bytes at byte 0 of b0, which has 4 bytes", Error);
}

}  // namespace
}  // namespace rl::simt_test
