// tests/simt/test_simt_errors.cpp — what the engine refuses or stops, each in one line: a construct outside the
// subset (decoder), the step budget of an endless loop, an index out of a shared array, barriers that hang, a
// kernel that does not take the lab's launch, and plain CUDA asked of the GPU backend.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include "core/error.h"
#include "simt_test.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

std::string decode_error(const std::string& source) {
    try {
        compile(source);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

TEST_CASE("simt: a construct outside the subset is one line naming the file, the line and the construct") {
    REQUIRE_CLANG();
    const std::string asm_line = decode_error(R"(__global__ void k(const float* in, float* out, int n) {
    float v = in[threadIdx.x];
    asm volatile("nanosleep.u32 100;");
    out[0] = v;
})");
    CHECK(asm_line == "kernel.cu:3: inline PTX (asm(\"nanosleep.u32 100;\")) is not supported by the lab's CUDA emulator");
    const std::string call_line = decode_error(R"(extern __device__ float helper(float);
__global__ void k(const float* in, float* out, int n) {
    out[0] = helper(in[threadIdx.x]);
})");
    CHECK(call_line ==
          "kernel.cu:3: a call to helper(float) (a function the lab's CUDA headers do not define) is not supported by the "
          "lab's CUDA emulator");
}

// Each pass records a Load and a Combine (line 4) and a BlockPartial (line 5), the first pass a fill as well: thread
// 0's records are seq 0-3, then 3 per pass, so the one that would be seq 65535 (65531 = 3 * 21843 + 2) is a store.
TEST_CASE("simt: an endless loop that records stops at the step budget") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void spin(const float* in, float* out, int n) {
    float s = 0;
    for (unsigned k = 0;; ++k) {
        s += in[k % n];
        out[blockIdx.x] = s;
    }
})");
    const Launched r = launch(m.kernels.at(0), 64, 64);
    CHECK(r.error == "thread 0 of block 0 on line 5 records its 65535th event: the step budget stops it (an endless loop?)");
}

// LLVM rotates this loop that never ends (unsigned h >= 0) so that the barrier loops on itself, and the post-
// dominator tree hangs the loop from the add: the lanes that skip the add must still rejoin the others at the
// barrier, every pass, until the step budget stops thread 0 at its barrier (line 5).
TEST_CASE("simt: a tree loop that never ends runs to the step budget, not to a false hang") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void endless(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    for (unsigned h = blockDim.x / 2; h >= 0; h >>= 1) { if (t < h) s[t] += s[t + h]; __syncthreads(); }
    out[0] = s[0];
})");
    const Launched r = launch(m.kernels.at(0), 64, 64);
    CHECK(r.error == "thread 0 of block 0 on line 5 records its 65535th event: the step budget stops it (an endless loop?)");
}

TEST_CASE("simt: an index past a shared array is one line with the thread, block, line and bound") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void k(const float* in, float* out, int n) {
    __shared__ float s[64];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[0] = s[threadIdx.x + 1];
})");
    const Launched r = launch(m.kernels.at(0), 64, 64);
    CHECK(r.error == "out of range: thread 63 of block 0 on line 5 indexes a shared array of 64 slots with 64 (allowed 0..63)");
}

TEST_CASE("simt: __syncthreads() in both arms of a per-thread branch hangs, naming both lines") {
    REQUIRE_CLANG();
    const simt::Module m = compile(R"(__global__ void two(const float* in, float* out, int n) {
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    if (t % 2 == 0) {
        s[t] = in[t];
        __syncthreads();
        s[t] += 1.0f;
    } else {
        s[t] = in[t] + 2.0f;
        __syncthreads();
        s[t] += 3.0f;
    }
    if (t == 0) out[0] = s[1];
})");
    const Launched r = launch(m.kernels.at(0), 64, 64);
    CHECK(r.error ==
          "the kernel hangs: in block 0, threads 0, 2, 4, ..., 62 wait at __syncthreads() on line 6 and threads 1, 3, 5, "
          "..., 63 on line 10: the threads of a warp must all reach the same __syncthreads()");
}

TEST_CASE("simt: a kernel that does not take (in, out, n) is one line naming the launch it must take") {
    REQUIRE_CLANG();
    const student::KernelOutcome o = run_source(R"(__global__ void k(float* a, int* b, int n) {
    if (threadIdx.x == 0) b[0] = n;
}
)", 8, 32);
    CHECK_FALSE(o.ok);
    // The file compiles; the request (the one contract launch, no --launch plan) does not fit it: bad input.
    CHECK(o.failure == student::KernelFailure::BadInput);
    CHECK(o.error.find("k(float*, int*, int) does not take the lab's launch K<<<grid, block, block * sizeof(T)>>>(in, out, n)") !=
          std::string::npos);
}

TEST_CASE("simt: plain CUDA asked of the GPU backend says it runs on the emulator") {
    REQUIRE_CLANG();
    const std::string command = std::string(RLAB_RUNNER_EXE) + " " + kernel_path("harris3_sequential.cu") +
                                " --out /dev/null --n 64 --block 64 --backend cuda 2>&1";
    FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[1024];
    while (size_t got = fread(buf, 1, sizeof buf, p)) out.append(buf, got);
    const int status = pclose(p);
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(out == "plain CUDA runs on the emulator (--backend cpu) for now\n");
}

}  // namespace
}  // namespace rl::simt_test
