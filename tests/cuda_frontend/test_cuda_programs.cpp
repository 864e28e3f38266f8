// tests/cuda_frontend/test_cuda_programs.cpp — whole student programs (Harris's seven reductions, the blog's
// warp-shuffle reduction, a course's two-kernel program with main(), cooperative groups) compile unchanged; the
// device side holds every kernel, template kernels as launched, and line tables of the student's file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cuda_ir.h"

namespace rl::student::test {
namespace {

CudaIr compile_kernel_file(const std::string& name) {
    CudaIr r = compile_to_ir("kernels/" + name, kernel_source(name));
    INFO(r.compile.log);
    REQUIRE(r.compile.ok);
    CHECK(errors_of(r.compile).empty());
    return r;
}

// The 1-based line of the first line of `source` holding `text`.
int line_of(const std::string& source, const std::string& text) {
    const size_t at = source.find(text);
    REQUIRE(at != std::string::npos);
    int line = 1;
    for (size_t i = 0; i < at; ++i) line += source[i] == '\n';
    return line;
}

TEST_CASE("Harris's reductions 1-7 compile, with main() and its launches") {
    if (skip_without_tools()) return;
    const CudaIr r = compile_kernel_file("harris_reductions.cu");
    for (const std::string kernel : {"_Z7reduce1PKiPij", "_Z7reduce2PKiPij", "_Z7reduce3PKiPij", "_Z7reduce4PKiPij",
                                     "_Z7reduce5PKiPij", "_Z7reduce6ILj256EEvPKiPij", "_Z7reduce7ILj256EEvPKiPij"}) {
        CAPTURE(kernel);
        CHECK_FALSE(function_body(r.ir, kernel).empty());
        CHECK(count_lines(r.ir, "@" + kernel + ", !\"kernel\", i32 1}") == 1);
    }
    CHECK(function_body(r.ir, "main").empty());  // the host side is parsed, not compiled
    // 1: the modulo of interleaved addressing is there to be seen.
    CHECK(count_lines(function_body(r.ir, "_Z7reduce1PKiPij"), "urem i32") == 1);
    // 5 and 6: the warp-synchronous tail reads and writes shared memory through volatile.
    CHECK(count_lines(function_body(r.ir, "_Z7reduce5PKiPij"), "load volatile i32") == 12);
    // 6 for 256 threads: unrolled, one barrier after the load and one for each of the 256 and 128 steps.
    CHECK(count_calls(function_body(r.ir, "_Z7reduce6ILj256EEvPKiPij"), "llvm.nvvm.barrier0") == 3);
}

TEST_CASE("a template kernel launched as reduce6<256> emits that instantiation only") {
    if (skip_without_tools()) return;
    const CudaIr r = compile_kernel_file("template_launch.cu");
    CHECK_FALSE(function_body(r.ir, "_Z7reduce6ILj256EEvPKfPfj").empty());
    CHECK(count_lines(r.ir, "define ") == 1);
    // Unrolled by #pragma unroll: eight halving steps and the barrier after the load.
    CHECK(count_calls(r.ir, "llvm.nvvm.barrier0") == 9);
    CHECK(count_lines(r.ir, "addrspace(3) global [256 x float]") == 1);
}

TEST_CASE("the blog's warp-shuffle reduction: every shuffle is there, at its own source line") {
    if (skip_without_tools()) return;
    const std::string source = kernel_source("warp_shuffle_reduce.cu");
    const CudaIr r = compile_kernel_file("warp_shuffle_reduce.cu");
    const std::string reduce = function_body(r.ir, "_Z13device_reducePKiPii");
    const std::string atomic = function_body(r.ir, "_Z20device_reduce_atomicPKiPii");
    // warp_sum's loop (-O1 keeps it a loop): one shuffle in it, twice in block_sum.
    CHECK(count_calls(reduce, "llvm.nvvm.shfl.sync.down.i32") == 2);
    CHECK(count_calls(atomic, "llvm.nvvm.shfl.sync.down.i32") == 1);
    CHECK(count_lines(atomic, "atomicrmw add i32*") == 1);
    CHECK(last_operands(reduce, "llvm.nvvm.shfl.sync.down.i32") == std::vector<std::string>(2, "31"));
    // The line tables give the student's own lines, not the lab's headers'.
    const int shuffle_line = line_of(source, "value += __shfl_down_sync");
    const std::string kernel = "_Z13device_reducePKiPii";
    CHECK(call_lines(r.ir, "llvm.nvvm.shfl.sync.down.i32", kernel) == std::vector<int>(2, shuffle_line));
    CHECK(call_lines(r.ir, "llvm.nvvm.barrier0", kernel) == std::vector<int>{line_of(source, "__syncthreads")});
    CHECK(call_lines(r.ir, "llvm.nvvm.read.ptx.sreg.tid.x", kernel).front() == line_of(source, "for (int i = blockIdx"));
    CHECK(count_lines(r.ir, "!DIFile(filename: \"kernels/warp_shuffle_reduce.cu\"") == 1);
}

TEST_CASE("a course's two-kernel program with main(), macros, events and iostream compiles") {
    if (skip_without_tools()) return;
    const std::string source = kernel_source("course_two_kernels.cu");
    const CudaIr r = compile_kernel_file("course_two_kernels.cu");
    CHECK_FALSE(function_body(r.ir, "_Z12partial_sumsPKfPfi").empty());
    CHECK_FALSE(function_body(r.ir, "_Z9final_sumPfS_i").empty());
    CHECK(count_lines(r.ir, "define ") == 2);
    CHECK(call_lines(r.ir, "llvm.nvvm.barrier0", "_Z12partial_sumsPKfPfi").front() == line_of(source, "__syncthreads"));
}

TEST_CASE("cooperative groups: thread_group, tile shuffles and cg::reduce in one file") {
    if (skip_without_tools()) return;
    const CudaIr r = compile_kernel_file("cooperative_groups_reduce.cu");
    const std::string tiles = function_body(r.ir, "_Z12sum_by_tilesPKfPfi");
    CHECK(count_calls(tiles, "llvm.nvvm.shfl.sync.down.f32") == 1);  // in tile_sum's loop
    CHECK(count_lines(tiles, "atomicrmw fadd float*") == 1);
    const std::string group = function_body(r.ir, "_Z12sum_by_groupPKiPii");
    CHECK(count_calls(group, "llvm.nvvm.barrier0") >= 2);
    const std::string max = function_body(r.ir, "_Z16max_by_cg_reducePKfPfi");
    CHECK(count_calls(max, "llvm.nvvm.shfl.sync.bfly.f32") == 10);  // cg::reduce is unrolled: 5 steps, twice
    const std::string source = kernel_source("cooperative_groups_reduce.cu");
    // Each step of cg::reduce carries the line of the student's call.
    std::vector<int> lines(5, line_of(source, "float value = cg::reduce("));
    lines.insert(lines.end(), 5, line_of(source, "value = cg::reduce(warp, value"));
    CHECK(call_lines(r.ir, "llvm.nvvm.shfl.sync.bfly.f32", "_Z16max_by_cg_reducePKfPfi") == lines);
    CHECK(count_calls(max, "llvm.nvvm.barrier0") == 1);
}

}  // namespace
}  // namespace rl::student::test
