// tests/cuda_frontend/test_cuda_constructs.cpp — each construct of the plain CUDA subset compiles with the lab's
// headers and is, in the bitcode, the NVVM intrinsic or instruction the decoder expects.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cuda_ir.h"

namespace rl::student::test {
namespace {

// Compiles `source` (extern "C" kernels, one per construct) and returns the IR; fails the test on a compile error.
std::string ir_of(const std::string& file, const std::string& source) {
    const CudaIr r = compile_to_ir(file, source);
    INFO(r.compile.log);
    REQUIRE(r.compile.ok);
    return r.ir;
}

struct Expect {
    std::string kernel;  // the extern "C" kernel's name
    std::string callee;  // an intrinsic it must call ("" when `text` is checked instead)
    int calls = 1;       // how many calls of it
    std::string text = {};  // else: a line of its body must hold this
};

void check(const std::string& ir, const std::vector<Expect>& expects) {
    for (const Expect& e : expects) {
        CAPTURE(e.kernel);
        const std::string body = function_body(ir, e.kernel);
        INFO(body);
        REQUIRE_FALSE(body.empty());
        if (!e.callee.empty()) {
            CAPTURE(e.callee);
            CHECK(count_calls(body, e.callee) == e.calls);
        } else {
            CAPTURE(e.text);
            CHECK(count_lines(body, e.text) >= 1);
        }
    }
}

TEST_CASE("the usual headers compile in a device-only compile") {
    if (skip_without_tools(false)) return;
    const std::string source = R"(#include <cstdio>
#include <cfloat>
#include <cmath>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <device_functions.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
__global__ void k(float* out) { out[threadIdx.x] = std::max(1.0f, 2.0f); }
)";
    const CudaCompile c = compile_cuda_device("headers.cu", source);
    INFO(c.log);
    CHECK(c.ok);
    CHECK(c.diagnostics.empty());
}

TEST_CASE("keywords: __global__, __device__, __host__, __shared__, __forceinline__, __restrict__, __launch_bounds__") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("keywords.cu", R"(
__device__ __forceinline__ float twice(float v) { return v + v; }
__inline__ __device__ float thrice(float v) { return v * 3; }
__host__ __device__ float half(float v) { return v / 2; }
extern "C" __global__ void __launch_bounds__(256) k_keywords(const float* __restrict__ in, float* __restrict__ out) {
    __shared__ float tile[256];
    extern __shared__ float dynamic_tile[];
    tile[threadIdx.x] = twice(in[threadIdx.x]);
    dynamic_tile[threadIdx.x] = thrice(in[threadIdx.x]);
    __syncthreads();
    out[threadIdx.x] = half(tile[255 - threadIdx.x] + dynamic_tile[0]);
}
)");
    CHECK(count_lines(ir, "addrspace(3) global [256 x float]") == 1);             // the static __shared__ array
    CHECK(count_lines(ir, "= external dso_local local_unnamed_addr addrspace(3) global [0 x float]") == 1);  // extern
    CHECK(count_lines(ir, "!\"kernel\", i32 1}") == 1);                            // a __global__ function
    CHECK(count_lines(ir, "!\"maxntidx\", i32 256}") == 1);                        // __launch_bounds__(256)
    const std::string body = function_body(ir, "k_keywords");
    CHECK(count_lines(body, "noalias") >= 1);  // __restrict__
    CHECK(count_lines(body, "call ") == 2);    // device functions inlined: tid.x and __syncthreads are left
    CHECK(count_calls(body, "llvm.nvvm.barrier0") == 1);
}

TEST_CASE("built-in variables, barriers and fences are NVVM intrinsics") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("builtins.cu", R"(
extern "C" __global__ void k_tid(unsigned* out) { out[0] = threadIdx.x; }
extern "C" __global__ void k_ctaid(unsigned* out) { out[0] = blockIdx.x; }
extern "C" __global__ void k_ntid(unsigned* out) { out[0] = blockDim.x; }
extern "C" __global__ void k_nctaid(unsigned* out) { out[0] = gridDim.x; }
extern "C" __global__ void k_tid_y(unsigned* out) { out[0] = threadIdx.y + threadIdx.z; }
extern "C" __global__ void k_warpsize(int* out) { out[0] = warpSize; }
extern "C" __global__ void k_syncthreads(int* out) { out[0] = 1; __syncthreads(); out[1] = 2; }
extern "C" __global__ void k_syncwarp(int* out) { out[0] = 1; __syncwarp(0x0000ffffu); out[1] = 2; }
extern "C" __global__ void k_syncwarp_all(int* out) { out[0] = 1; __syncwarp(); out[1] = 2; }
extern "C" __global__ void k_fence(int* out) { out[0] = 1; __threadfence(); out[1] = 2; }
extern "C" __global__ void k_fence_block(int* out) { out[0] = 1; __threadfence_block(); out[1] = 2; }
extern "C" __global__ void k_printf(int* out) { printf("%d\n", out[threadIdx.x]); }
)");
    check(ir, {
                  {"k_tid", "llvm.nvvm.read.ptx.sreg.tid.x"},
                  {"k_ctaid", "llvm.nvvm.read.ptx.sreg.ctaid.x"},
                  {"k_ntid", "llvm.nvvm.read.ptx.sreg.ntid.x"},
                  {"k_nctaid", "llvm.nvvm.read.ptx.sreg.nctaid.x"},
                  {"k_tid_y", "llvm.nvvm.read.ptx.sreg.tid.z"},
                  {"k_warpsize", "", 0, "store i32 32"},
                  {"k_syncthreads", "llvm.nvvm.barrier0"},
                  {"k_syncwarp", "", 0, "call void @llvm.nvvm.bar.warp.sync(i32 65535)"},
                  {"k_syncwarp_all", "", 0, "call void @llvm.nvvm.bar.warp.sync(i32 -1)"},
                  {"k_fence", "llvm.nvvm.membar.gl"},
                  {"k_fence_block", "llvm.nvvm.membar.cta"},
                  {"k_printf", "vprintf"},
              });
}

TEST_CASE("shuffles: each type, 32-bit ones one intrinsic, 64-bit ones two 32-bit ones") {
    if (skip_without_tools()) return;
    std::string source;
    std::vector<Expect> expects;
    const std::vector<std::pair<std::string, std::string>> ops = {
        {"__shfl_sync", "idx"}, {"__shfl_up_sync", "up"}, {"__shfl_down_sync", "down"}, {"__shfl_xor_sync", "bfly"}};
    const std::vector<std::pair<std::string, std::string>> types = {
        {"int", "i32"},  {"unsigned", "i32"}, {"float", "f32"}, {"double", "i32"}, {"long long", "i32"},
        {"unsigned long long", "i32"}};
    int n = 0;
    for (const auto& [fn, op] : ops)
        for (const auto& [type, suffix] : types) {
            const std::string name = "k_shfl_" + std::to_string(n++);
            source += "extern \"C\" __global__ void " + name + "(" + type + "* out) { out[threadIdx.x] = " + fn +
                      "(0xffffffffu, out[threadIdx.x], 1); }\n";
            const int calls = type == "double" || type.find("long long") != std::string::npos ? 2 : 1;
            expects.push_back({name, "llvm.nvvm.shfl.sync." + op + "." + suffix, calls});
        }
    check(ir_of("shuffles.cu", source), expects);
}

TEST_CASE("shuffles: the packed width operand for width 32, 16 and 8") {
    if (skip_without_tools()) return;
    struct Case {
        std::string fn, op;
        int width, packed;
    };
    // ((32 - width) << 8) | 0x1f for idx, down and xor; (32 - width) << 8 for up.
    const std::vector<Case> cases = {
        {"__shfl_sync", "idx", 32, 31},         {"__shfl_sync", "idx", 16, 4127},        {"__shfl_sync", "idx", 8, 6175},
        {"__shfl_down_sync", "down", 32, 31},   {"__shfl_down_sync", "down", 16, 4127}, {"__shfl_down_sync", "down", 8, 6175},
        {"__shfl_xor_sync", "bfly", 32, 31},    {"__shfl_xor_sync", "bfly", 16, 4127},  {"__shfl_xor_sync", "bfly", 8, 6175},
        {"__shfl_up_sync", "up", 32, 0},        {"__shfl_up_sync", "up", 16, 4096},     {"__shfl_up_sync", "up", 8, 6144},
    };
    std::string source;
    for (size_t i = 0; i < cases.size(); ++i)
        source += "extern \"C\" __global__ void k_width_" + std::to_string(i) + "(float* out) { out[threadIdx.x] = " +
                  cases[i].fn + "(0xffffffffu, out[threadIdx.x], 1, " + std::to_string(cases[i].width) + "); }\n";
    // The default width is warpSize.
    source += "extern \"C\" __global__ void k_width_default(float* out) { out[0] = __shfl_down_sync(0xffffffffu, out[0], 2); }\n";
    const std::string ir = ir_of("widths.cu", source);
    for (size_t i = 0; i < cases.size(); ++i) {
        CAPTURE(cases[i].fn);
        CAPTURE(cases[i].width);
        const std::string body = function_body(ir, "k_width_" + std::to_string(i));
        CHECK(last_operands(body, "llvm.nvvm.shfl.sync." + cases[i].op + ".f32") ==
              std::vector<std::string>{std::to_string(cases[i].packed)});
    }
    CHECK(last_operands(function_body(ir, "k_width_default"), "llvm.nvvm.shfl.sync.down.f32") ==
          std::vector<std::string>{"31"});
}

TEST_CASE("votes: __ballot_sync, __activemask, __any_sync, __all_sync") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("votes.cu", R"(
extern "C" __global__ void k_ballot(unsigned* out) { out[0] = __ballot_sync(0xffffffffu, threadIdx.x & 1); }
extern "C" __global__ void k_activemask(unsigned* out) { out[0] = __activemask(); }
extern "C" __global__ void k_any(int* out) { out[0] = __any_sync(0xffffffffu, threadIdx.x > 3); }
extern "C" __global__ void k_all(int* out) { out[0] = __all_sync(0xffffffffu, threadIdx.x > 3); }
)");
    check(ir, {
                  {"k_ballot", "llvm.nvvm.vote.ballot.sync"},
                  {"k_activemask", "", 0, "call i32 @llvm.nvvm.vote.ballot(i1 true)"},
                  {"k_any", "llvm.nvvm.vote.any.sync"},
                  {"k_all", "llvm.nvvm.vote.all.sync"},
              });
}

TEST_CASE("atomics: atomicAdd, atomicMax, atomicMin, atomicInc, atomicCAS, atomicExch") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("atomics.cu", R"(
extern "C" __global__ void k_add_int(int* p) { p[1] = atomicAdd(p, 1); }
extern "C" __global__ void k_add_unsigned(unsigned* p) { p[1] = atomicAdd(p, 1u); }
extern "C" __global__ void k_add_ull(unsigned long long* p) { p[1] = atomicAdd(p, 1ull); }
extern "C" __global__ void k_add_float(float* p) { p[1] = atomicAdd(p, 1.5f); }
extern "C" __global__ void k_add_double(double* p) { p[1] = atomicAdd(p, 1.5); }
extern "C" __global__ void k_max_int(int* p) { p[1] = atomicMax(p, 7); }
extern "C" __global__ void k_max_unsigned(unsigned* p) { p[1] = atomicMax(p, 7u); }
extern "C" __global__ void k_min_int(int* p) { p[1] = atomicMin(p, 7); }
extern "C" __global__ void k_min_unsigned(unsigned* p) { p[1] = atomicMin(p, 7u); }
extern "C" __global__ void k_inc(unsigned* p) { p[1] = atomicInc(p, gridDim.x); }
extern "C" __global__ void k_cas(int* p) { p[1] = atomicCAS(p, 0, 1); }
extern "C" __global__ void k_exch(int* p) { p[1] = atomicExch(p, 3); }
__device__ unsigned int counter;
extern "C" __global__ void k_counter(unsigned* p) { p[0] = atomicInc(&counter, gridDim.x - 1); }
)");
    check(ir, {
                  {"k_add_int", "", 0, "atomicrmw add i32*"},
                  {"k_add_unsigned", "", 0, "atomicrmw add i32*"},
                  {"k_add_ull", "", 0, "atomicrmw add i64*"},
                  {"k_add_float", "", 0, "atomicrmw fadd float*"},
                  {"k_add_double", "", 0, "atomicrmw fadd double*"},
                  {"k_max_int", "", 0, "atomicrmw max i32*"},
                  {"k_max_unsigned", "", 0, "atomicrmw umax i32*"},
                  {"k_min_int", "", 0, "atomicrmw min i32*"},
                  {"k_min_unsigned", "", 0, "atomicrmw umin i32*"},
                  {"k_inc", "llvm.nvvm.atomic.load.inc.32.p0i32"},
                  {"k_cas", "", 0, "cmpxchg i32*"},
                  {"k_exch", "", 0, "atomicrmw xchg i32*"},
                  {"k_counter", "llvm.nvvm.atomic.load.inc.32.p0i32"},
              });
}

TEST_CASE("math: fmaxf, fminf, fmax, fmin, max, min, fabsf and the limits") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("math.cu", R"(#include <cfloat>
#include <climits>
#include <cmath>
extern "C" __global__ void k_fmaxf(float* p) { p[0] = fmaxf(p[1], p[2]); }
extern "C" __global__ void k_fminf(float* p) { p[0] = fminf(p[1], p[2]); }
extern "C" __global__ void k_fmax(double* p) { p[0] = fmax(p[1], p[2]); }
extern "C" __global__ void k_fmin(double* p) { p[0] = fmin(p[1], p[2]); }
extern "C" __global__ void k_fabsf(float* p) { p[0] = fabsf(p[1]); }
extern "C" __global__ void k_max_int(int* p) { p[0] = max(p[1], p[2]); }
extern "C" __global__ void k_min_int(int* p) { p[0] = min(p[1], p[2]); }
extern "C" __global__ void k_max_unsigned(unsigned* p) { p[0] = max(p[1], p[2]); }
extern "C" __global__ void k_min_unsigned(unsigned* p) { p[0] = min(p[1], p[2]); }
extern "C" __global__ void k_max_float(float* p) { p[0] = max(p[1], p[2]); }
extern "C" __global__ void k_min_float(float* p) { p[0] = min(p[1], p[2]); }
extern "C" __global__ void k_flt_max(float* p) { p[0] = FLT_MAX; }
extern "C" __global__ void k_neg_flt_max(float* p) { p[0] = -FLT_MAX; }
extern "C" __global__ void k_infinity(float* p) { p[0] = INFINITY; }
extern "C" __global__ void k_int_min(int* p) { p[0] = INT_MIN; }
extern "C" __global__ void k_int_max(int* p) { p[0] = INT_MAX; }
)");
    check(ir, {
                  {"k_fmaxf", "llvm.maxnum.f32"},
                  {"k_fminf", "llvm.minnum.f32"},
                  {"k_fmax", "llvm.maxnum.f64"},
                  {"k_fmin", "llvm.minnum.f64"},
                  {"k_fabsf", "llvm.fabs.f32"},
                  // Integer max and min are a compare and a select at -O1.
                  {"k_max_int", "", 0, "icmp sgt i32"},
                  {"k_min_int", "", 0, "icmp slt i32"},
                  {"k_max_unsigned", "", 0, "icmp ugt i32"},
                  {"k_min_unsigned", "", 0, "icmp ult i32"},
                  {"k_max_float", "llvm.maxnum.f32"},
                  {"k_min_float", "llvm.minnum.f32"},
                  {"k_flt_max", "", 0, "store float 0x47EFFFFFE0000000"},
                  {"k_neg_flt_max", "", 0, "store float 0xC7EFFFFFE0000000"},
                  {"k_infinity", "", 0, "store float 0x7FF0000000000000"},
                  {"k_int_min", "", 0, "store i32 -2147483648"},
                  {"k_int_max", "", 0, "store i32 2147483647"},
              });
}

TEST_CASE("cooperative groups: block and tile operations are barriers, warp syncs and shuffles") {
    if (skip_without_tools()) return;
    const std::string ir = ir_of("groups.cu", R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k_block_sync(int* p) { cg::thread_block b = cg::this_thread_block(); p[b.thread_rank()] = 1; b.sync(); }
extern "C" __global__ void k_free_sync(int* p) { cg::thread_block b = cg::this_thread_block(); p[0] = 1; cg::sync(b); }
extern "C" __global__ void k_tile_sync(int* p) { auto t = cg::tiled_partition<32>(cg::this_thread_block()); p[0] = 1; t.sync(); }
extern "C" __global__ void k_tile32_down(float* p) {
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
    p[threadIdx.x] = t.shfl_down(p[threadIdx.x], 4);
}
extern "C" __global__ void k_tile16_xor(float* p) {
    auto t = cg::tiled_partition<16>(cg::this_thread_block());
    p[threadIdx.x] = t.shfl_xor(p[threadIdx.x], 4);
}
extern "C" __global__ void k_tile8_shfl(float* p) {
    auto t = cg::tiled_partition<8>(cg::this_thread_block());
    p[threadIdx.x] = t.shfl(p[threadIdx.x], 0);
}
extern "C" __global__ void k_tile4_up(int* p) {
    auto t = cg::tiled_partition<4>(cg::this_thread_block());
    p[threadIdx.x] = t.shfl_up(p[threadIdx.x], 1);
}
extern "C" __global__ void k_tile_ranks(unsigned* p) {
    auto t = cg::tiled_partition<32>(cg::this_thread_block());
    p[threadIdx.x] = t.thread_rank() + t.size() * 1000 + t.meta_group_rank() * 100000;
}
)");
    check(ir, {
                  {"k_block_sync", "llvm.nvvm.barrier0"},
                  {"k_free_sync", "llvm.nvvm.barrier0"},
                  {"k_tile_sync", "", 0, "call void @llvm.nvvm.bar.warp.sync(i32 -1)"},
                  {"k_tile32_down", "", 0, "@llvm.nvvm.shfl.sync.down.f32(i32 -1, float"},
                  {"k_tile16_xor", "llvm.nvvm.shfl.sync.bfly.f32"},
                  {"k_tile8_shfl", "llvm.nvvm.shfl.sync.idx.f32"},
                  {"k_tile4_up", "llvm.nvvm.shfl.sync.up.i32"},
                  {"k_tile_ranks", "", 0, "add i32"},
              });
    // Each tile shuffles within its own segment: the packed operand carries the tile's width.
    CHECK(last_operands(function_body(ir, "k_tile32_down"), "llvm.nvvm.shfl.sync.down.f32") == std::vector<std::string>{"31"});
    CHECK(last_operands(function_body(ir, "k_tile16_xor"), "llvm.nvvm.shfl.sync.bfly.f32") == std::vector<std::string>{"4127"});
    CHECK(last_operands(function_body(ir, "k_tile8_shfl"), "llvm.nvvm.shfl.sync.idx.f32") == std::vector<std::string>{"6175"});
    CHECK(last_operands(function_body(ir, "k_tile4_up"), "llvm.nvvm.shfl.sync.up.i32") == std::vector<std::string>{"7168"});
}

TEST_CASE("cooperative groups: reduce over a tile of N is log2(N) shuffles, each with its combine") {
    if (skip_without_tools()) return;
    std::string source = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                         "namespace cg = cooperative_groups;\n";
    for (int n : {32, 16, 8, 4, 2})
        for (const std::string op : {"plus", "greater", "less"})
            source += "extern \"C\" __global__ void k_reduce_" + op + "_" + std::to_string(n) +
                      "(float* p) { auto t = cg::tiled_partition<" + std::to_string(n) +
                      ">(cg::this_thread_block()); p[threadIdx.x] = cg::reduce(t, p[threadIdx.x], cg::" + op +
                      "<float>()); }\n";
    source += "extern \"C\" __global__ void k_reduce_int(int* p) { auto t = cg::tiled_partition<32>(cg::this_thread_block()); "
              "p[threadIdx.x] = cg::reduce(t, p[threadIdx.x], cg::plus<int>()); }\n";
    const std::string ir = ir_of("group_reduce.cu", source);
    for (int n : {32, 16, 8, 4, 2}) {
        int steps = 0;
        for (int m = n; m > 1; m /= 2) ++steps;
        for (const std::string op : {"plus", "greater", "less"}) {
            CAPTURE(n);
            CAPTURE(op);
            const std::string body = function_body(ir, "k_reduce_" + op + "_" + std::to_string(n));
            CHECK(count_calls(body, "llvm.nvvm.shfl.sync.bfly.f32") == steps);
            if (op == "plus")
                CHECK(count_lines(body, "fadd") == steps);
            else
                CHECK(count_lines(body, "fcmp") == steps);
            // The butterfly's lane distances, N/2 down to 1, all within the tile's segment.
            const std::string packed = std::to_string(((32 - n) << 8) | 31);
            for (const std::string& last : last_operands(body, "llvm.nvvm.shfl.sync.bfly.f32")) CHECK(last == packed);
        }
    }
    const std::string body = function_body(ir, "k_reduce_int");
    CHECK(count_calls(body, "llvm.nvvm.shfl.sync.bfly.i32") == 5);
    CHECK(count_lines(body, " = add nsw i32") == 5);
}

TEST_CASE("is_plain_cuda: a file without RL_KERNEL") {
    CHECK(is_plain_cuda("__global__ void k(float* in, float* out, int n) {}"));
    CHECK(is_plain_cuda("#define RL_KERNELS 1\n__global__ void k() {}"));
    CHECK_FALSE(is_plain_cuda("#include <rlab/kernel.h>\nRL_KERNEL void k(rl::In<float> in, rl::Out<float> out, int n) {}"));
    CHECK_FALSE(is_plain_cuda("RL_KERNEL void k(rl::In<int> in, rl::Out<int> out, int n) {}"));
}

}  // namespace
}  // namespace rl::student::test
