// tests/cuda_frontend/test_cuda_unsupported.cpp — a construct outside the subset is one error at the student's own
// FILE:LINE naming it; syntax errors keep the student's lines; warnings are kept and do not fail the compile.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "cuda_ir.h"

namespace rl::student::test {
namespace {

struct Unsupported {
    std::string what;    // the construct
    std::string source;  // a file using it once
    int line;            // where
    std::vector<std::string> says;  // the error's message holds each
};

const std::vector<Unsupported>& unsupported() {
    static const std::vector<Unsupported> cases = {
        {"texture object fetch",
         "__global__ void k(float* out, cudaTextureObject_t t, int n) {\n"
         "    int i = threadIdx.x;\n"
         "    out[i] = tex1Dfetch<float>(t, i);\n"
         "}\n",
         3, {"tex1Dfetch", "textures are not supported"}},
        {"texture reference",
         "texture<float, 1, cudaReadModeElementType> input_tex;\n"
         "__global__ void k(float* out) {\n"
         "    out[threadIdx.x] = tex1Dfetch(input_tex, threadIdx.x);\n"
         "}\n",
         1, {"texture references are not supported"}},
        {"surface write",
         "__global__ void k(cudaSurfaceObject_t s) {\n"
         "    surf2Dwrite(1.0f, s, 0, 0);\n"
         "}\n",
         2, {"surf2Dwrite", "surfaces are not supported"}},
        {"stream creation",
         "__global__ void k(float* out) { out[0] = 1; }\n"
         "int main() {\n"
         "    cudaStream_t stream;\n"
         "    cudaStreamCreate(&stream);\n"
         "    return 0;\n"
         "}\n",
         4, {"cudaStreamCreate", "streams are not supported"}},
        {"launch on a stream",
         "__global__ void k(float* out) { out[0] = 1; }\n"
         "void launch(float* out, cudaStream_t stream) {\n"
         "    k<<<1, 32, 0, stream>>>(out);\n"
         "}\n",
         3, {"launch on a stream is not supported", "default stream"}},
        {"dynamic parallelism (a launch in device code)",
         "__global__ void child(float* out) { out[0] = 1; }\n"
         "__global__ void parent(float* out) {\n"
         "    if (threadIdx.x == 0)\n"
         "        child<<<1, 32>>>(out);\n"
         "}\n",
         4, {"child", "dynamic parallelism", "not supported"}},
        {"the runtime in device code",
         "__global__ void k(float* out) {\n"
         "    out[0] = 1;\n"
         "    cudaDeviceSynchronize();\n"
         "}\n",
         3, {"cudaDeviceSynchronize", "dynamic parallelism"}},
        {"inline PTX",
         "__global__ void k(unsigned* out) {\n"
         "    unsigned lane;\n"
         "    asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
         "    out[threadIdx.x] = lane;\n"
         "}\n",
         3, {"inline PTX (asm) is not supported"}},
        {"__nanosleep",
         "__global__ void k(int* out) {\n"
         "    __nanosleep(100);\n"
         "}\n",
         2, {"__nanosleep", "not supported"}},
        {"a warp intrinsic without _sync",
         "__global__ void k(float* out) {\n"
         "    float v = out[threadIdx.x];\n"
         "    v += __shfl_down(v, 16);\n"
         "    out[threadIdx.x] = v;\n"
         "}\n",
         3, {"__shfl_down", "__shfl_down_sync"}},
        {"the sm_80 warp reduce",
         "__global__ void k(unsigned* out) {\n"
         "    out[0] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);\n"
         "}\n",
         2, {"__reduce_add_sync", "not supported"}},
        {"grid groups",
         "#include <cooperative_groups.h>\n"
         "namespace cg = cooperative_groups;\n"
         "__global__ void k(float* out) {\n"
         "    cg::grid_group grid = cg::this_grid();\n"
         "    grid.sync();\n"
         "}\n",
         4, {"this_grid", "grid groups"}},
        {"coalesced groups",
         "#include <cooperative_groups.h>\n"
         "namespace cg = cooperative_groups;\n"
         "__global__ void k(float* out) {\n"
         "    cg::coalesced_group active = cg::coalesced_threads();\n"
         "    out[active.thread_rank()] = 1;\n"
         "}\n",
         4, {"coalesced_threads", "coalesced groups"}},
        {"cg::reduce over a whole block",
         "#include <cooperative_groups.h>\n"
         "#include <cooperative_groups/reduce.h>\n"
         "namespace cg = cooperative_groups;\n"
         "__global__ void k(float* out) {\n"
         "    out[0] = cg::reduce(cg::this_thread_block(), out[threadIdx.x], cg::plus<float>());\n"
         "}\n",
         5, {"reduce", "whole thread_block"}},
        {"a host function called in device code",
         "#include <cmath>\n"
         "__global__ void k(float* out) {\n"
         "    out[threadIdx.x] = sqrtf(out[threadIdx.x]);\n"
         "}\n",
         3, {"'sqrtf'", "it is a host function", "fmaxf"}},
        {"__managed__",
         "__device__ __managed__ float total;\n"
         "__global__ void k(float* out) { out[0] = 1; }\n",
         1, {"__managed__ variables are not supported"}},
    };
    return cases;
}

TEST_CASE("each unsupported construct: one error at the student's FILE:LINE naming it") {
    if (skip_without_tools(false)) return;
    for (const Unsupported& u : unsupported()) {
        CAPTURE(u.what);
        const std::string file = "students/unsupported.cu";
        const CudaCompile c = compile_cuda_device(file, u.source);
        INFO(c.log);
        CHECK_FALSE(c.ok);
        const std::vector<Diagnostic> errors = errors_of(c);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].file == file);
        CHECK(errors[0].line == u.line);
        for (const std::string& s : u.says) CHECK(errors[0].message.find(s) != std::string::npos);
        // The summary line and the log say the same.
        CHECK(c.error.find(file + ":" + std::to_string(u.line) + ":") != std::string::npos);
        CHECK(c.log.find(file + ":" + std::to_string(u.line) + ":") != std::string::npos);
    }
}

TEST_CASE("a syntax error is reported at the student's own line, the prelude not counted") {
    if (skip_without_tools(false)) return;
    const std::string source = "#include <cstdio>\n"
                               "#include <cuda_runtime.h>\n"
                               "\n"
                               "__global__ void k(float* in, float* out, int n) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    float v = i < n ? in[i] : 0.0f\n"
                               "    out[i] = v;\n"
                               "}\n";
    const CudaCompile c = compile_cuda_device("lab/syntax.cu", source);
    INFO(c.log);
    CHECK_FALSE(c.ok);
    const std::vector<Diagnostic> errors = errors_of(c);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].file == "lab/syntax.cu");
    CHECK(errors[0].line == 6);
    CHECK(errors[0].message.find("expected ';'") != std::string::npos);
    CHECK(c.error.rfind("compile error: lab/syntax.cu:6:", 0) == 0);
}

TEST_CASE("a file saved with a byte-order mark keeps its lines") {
    if (skip_without_tools(false)) return;
    const CudaCompile c = compile_cuda_device("bom.cu", "\xEF\xBB\xBF__global__ void k(float* out) {\n"
                                                        "    out[0] = 1.0f\n}\n");
    INFO(c.log);
    const std::vector<Diagnostic> errors = errors_of(c);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == 2);
}

TEST_CASE("an undeclared name is reported at its line in the student's file") {
    if (skip_without_tools(false)) return;
    const CudaCompile c = compile_cuda_device("undeclared.cu", "\n\n__global__ void k(float* out) {\n"
                                                               "    out[0] = not_declared;\n}\n");
    INFO(c.log);
    const std::vector<Diagnostic> errors = errors_of(c);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].file == "undeclared.cu");
    CHECK(errors[0].line == 4);
}

TEST_CASE("warnings are kept and do not fail the compile") {
    if (skip_without_tools(false)) return;
    const CudaCompile c = compile_cuda_device("warn.cu", "__device__ int f(int x) {\n"
                                                         "    if (x > 0) return x;\n"
                                                         "}\n"
                                                         "__global__ void k(int* out) { out[0] = f(out[1]); }\n");
    INFO(c.log);
    CHECK(c.ok);
    CHECK_FALSE(c.bitcode.empty());
    REQUIRE(c.diagnostics.size() == 1);
    CHECK(c.diagnostics[0].file == "warn.cu");
    CHECK(c.diagnostics[0].line == 3);
    CHECK(c.diagnostics[0].message.rfind("warning: ", 0) == 0);
}

TEST_CASE("a file's own headers are found next to it") {
    if (skip_without_tools(false)) return;
    const std::string file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda_frontend/kernels/uses_local_header.cu";
    const CudaCompile c = compile_cuda_device(file, kernel_source("uses_local_header.cu"));
    INFO(c.log);
    CHECK(c.ok);
}

// Sets an environment variable for one scope (empty: unset), and puts the old value back.
struct ScopedEnv {
    std::string name, old;
    bool had;
    ScopedEnv(const std::string& n, const std::string& value) : name(n), had(std::getenv(n.c_str()) != nullptr) {
        if (had) old = std::getenv(n.c_str());
        if (value.empty())
            unsetenv(n.c_str());
        else
            setenv(n.c_str(), value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (had)
            setenv(name.c_str(), old.c_str(), 1);
        else
            unsetenv(name.c_str());
    }
};

TEST_CASE("without clang: one line naming the package to install") {
    {
        // A PATH without clang stands for a machine without clang-14.
        ScopedEnv clang("RLAB_CLANG", "");
        ScopedEnv path("PATH", "/nonexistent");
        const CudaCompile c = compile_cuda_device("k.cu", "__global__ void k() {}\n");
        CHECK_FALSE(c.ok);
        CHECK(c.error == "clang-14 was not found: install the clang-14 package (or set RLAB_CLANG to a clang)");
    }
    ScopedEnv clang("RLAB_CLANG", "/nonexistent/clang-14");
    const CudaCompile c = compile_cuda_device("k.cu", "__global__ void k() {}\n");
    CHECK_FALSE(c.ok);
    CHECK(c.error == "RLAB_CLANG=/nonexistent/clang-14 was not found or is not executable");
}

TEST_CASE("the command line is the documented one") {
    const std::vector<std::string> argv = cuda_compile_command("clang-14", "/inc/rlab/cuda", "k.cu", "k.bc");
    const std::vector<std::string> expected = {
        "clang-14", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
        "-Wno-unknown-cuda-version", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-std=c++17", "-O1",
        "-gline-tables-only", "-fno-color-diagnostics", "-emit-llvm", "-c", "-o", "k.bc", "-include",
        "/inc/rlab/cuda/rlab_prelude.h", "-I", "/inc/rlab/cuda", "k.cu"};
    CHECK(argv == expected);
}

}  // namespace
}  // namespace rl::student::test
