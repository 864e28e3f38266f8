// tests/gpu/student/test_student_nvrtc.cpp — rlab/kernel.h's device branch compiles every dialect kernel a student
// meets (README's example, the emulator's CI kernels) with NVRTC for sm_90, and NVRTC's errors name the student's file
// and line. Needs NVRTC, not a GPU: CI runs it (label nvcc). The exercises are plain CUDA: tests/gpu/test_plain_compile.cpp
// compiles them as they are. What these kernels compute once compiled is tested where a GPU runs them:
// tests/gpu/student/test_student_gpu.cpp runs every one (the same lists: README's example, compiling_student_kernels())
// against the emulator and the exact result.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda/student_compile.h"
#include "student/diagnostics.h"
#include "student/host_compile.h"
#include "tests/gpu/student/student_files.h"

namespace rl::student {
namespace {

std::string text_of(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

GpuProgram compile(const std::string& path) {
    return compile_for_gpu(path, compiled_text(path, text_of(path)), 90, kernel_include_dir());
}

void check_compiles(const std::string& path) {
    INFO(path);
    const GpuProgram p = compile(path);
    INFO(p.log);
    CHECK(p.ok);
    CHECK(!p.cubin.empty());
    CHECK(parse_diagnostics(p.log).empty());  // no error and no warning
}

std::string student_kernel(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/student/kernels/" + name; }

}  // namespace

TEST_CASE("NVRTC: README's example kernel compiles for sm_90") {
    const std::string path = test::readme_example(RLAB_TEST_OUT_DIR);
    REQUIRE_MESSAGE(!path.empty(), "README.md shows no ```cuda block with RL_KERNEL");
    check_compiles(path);
}

TEST_CASE("NVRTC: the emulator's student kernels compile for sm_90 too") {
    int n = 0;
    for (const std::string& f : test::compiling_student_kernels()) {
        check_compiles(f);
        ++n;
    }
    CHECK(n >= 10);
}

TEST_CASE("NVRTC: a syntax error names the student's file and line") {
    const std::string path = student_kernel("bad_syntax.cu");
    const GpuProgram p = compile(path);
    CHECK(!p.ok);
    const std::vector<Diagnostic> d = parse_diagnostics(p.log);
    REQUIRE(!d.empty());
    CHECK(d.front().file == path);
    // the `;` missing at the end of line 7: NVRTC names the line of the token it stopped at (the `}` on line 8),
    // where g++ names line 7
    CHECK(d.front().line == 8);
    CHECK(d.front().message.find("expected a \";\"") != std::string::npos);
}

TEST_CASE("NVRTC: a kernel with another signature is rejected at its RL_KERNEL line with the allowed ones") {
    const std::string path = student_kernel("bad_signature.cu");
    const GpuProgram p = compile(path);
    CHECK(!p.ok);
    const std::vector<Diagnostic> d = parse_diagnostics(p.log);
    REQUIRE(d.size() == 1);  // the static_assert alone: the entry compiles on
    CHECK(d.front().file == path);
    CHECK(d.front().line == 5);
    CHECK(d.front().message.find("rl::In<T> in, rl::Out<T> out, int n") != std::string::npos);
}

}  // namespace rl::student
