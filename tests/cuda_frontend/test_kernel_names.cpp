// tests/cuda_frontend/test_kernel_names.cpp — --kernel NAME on a plain CUDA file: the file's text read for its
// kernels (student/cuda_source), a template's instance made to exist by the front end, and the kernel a run names
// chosen from the compiled ones with one-line errors that list what is there (student/ir_backend's choose_kernel).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/file_io.h"
#include "cuda_ir.h"
#include "student/cuda_source.h"
#ifdef RLAB_HAVE_SIMT
#include "simt/program.h"
#include "student/ir_backend.h"
#endif

namespace rl::student::test {
namespace {

std::vector<std::string> names_of(const std::vector<CudaKernelDecl>& ks) {
    std::vector<std::string> out;
    for (const CudaKernelDecl& k : ks) out.push_back(k.name + (k.is_template ? "<" + k.template_params + ">" : ""));
    return out;
}

// Harris's kernel 6 as the corpus has it: a template, launched nowhere in the file.
const char* kHarris6 = "tests/cuda/corpus/harris6_complete_unroll.cu";
const char* kCourse = "tests/cuda/corpus/course_two_kernels.cu";

std::string corpus_text(const char* path) {
    return read_text_file(std::string(RLAB_SOURCE_DIR) + "/" + path, "corpus file", 1 << 20);
}

}  // namespace

TEST_CASE("is_plain_cuda: neither RL_KERNEL in the code nor the dialect's header") {
    CHECK(is_plain_cuda("__global__ void k(float* in, float* out, int n) {}"));
    CHECK(is_plain_cuda("// unlike the lab's RL_KERNEL files, this is nvcc's CUDA\n__global__ void k() {}"));
    CHECK(is_plain_cuda("const char* s = \"RL_KERNEL\";\n__global__ void k() {}"));
    CHECK_FALSE(is_plain_cuda("#include <rlab/kernel.h>\n__global__ void k() {}"));
    CHECK_FALSE(is_plain_cuda("  #  include \"rlab/kernel.h\"\n"));
    CHECK_FALSE(is_plain_cuda("#define K RL_KERNEL\n"));
    CHECK_FALSE(is_plain_cuda("RL_KERNEL void k(rl::In<int> in, rl::Out<int> out, int n) {}"));
}

TEST_CASE("cuda_kernel_declarations: the file's __global__ functions, templates with their parameters") {
    CHECK(names_of(cuda_kernel_declarations(corpus_text(kHarris6))) == std::vector<std::string>{"harris6<unsigned int blockSize>"});
    CHECK(names_of(cuda_kernel_declarations(corpus_text(kCourse))) == std::vector<std::string>{"block_partials", "finish_sum"});
    const std::vector<CudaKernelDecl> ks = cuda_kernel_declarations(R"CU(// __global__ void in_a_comment(int* a) {}
/* __global__ void in_a_block_comment(int* a) {} */
#define KERNEL __global__
const char* text = "__global__ void in_a_string(int* a)";
__global__ void declared_first(float* in, float* out, int n);
__global__ void __launch_bounds__(256, 2) bounded(float* in, float* out, int n) {}
template <typename T, int B>
static __global__ void
    __launch_bounds__(B) two_params(const T* in, T* out, int n) {}
template __global__ void two_params<float, 4>(const float*, float*, int);
template <> __global__ void two_params<int, 2>(const int* in, int* out, int n) {}
template <unsigned int B> __launch_bounds__(B) __global__ void bounds_first(int* in, int* out, int n) {}
__device__ float helper(float a) { return a; }
__global__ void declared_first(float* in, float* out, int n) {}
namespace lab { __global__ void in_namespace(int* in, int* out, int n) {} }
)CU");
    CHECK(names_of(ks) == std::vector<std::string>{"declared_first", "bounded", "two_params<typename T, int B>",
                                                   "bounds_first<unsigned int B>", "in_namespace"});
    REQUIRE(ks.size() == 5);
    CHECK(ks[0].line == 5);
    CHECK(ks[2].line == 9);
}

TEST_CASE("kernel_name_example: a template of one integer takes the block size, others ARGS") {
    const std::vector<CudaKernelDecl> ks = cuda_kernel_declarations(
        "template <unsigned int blockSize> __global__ void h(int* a, int* b, unsigned n) {}\n"
        "template <typename T> __global__ void t(T* a, T* b, int n) {}\n"
        "template <class T, int B> __global__ void u(T* a, T* b, int n) {}\n"
        "__global__ void plain(int* a, int* b, int n) {}\n");
    REQUIRE(ks.size() == 4);
    CHECK(kernel_name_example(ks[0], 128) == "h<128>");
    CHECK(kernel_name_example(ks[1], 128) == "t<ARGS>");
    CHECK(kernel_name_example(ks[2], 128) == "u<ARGS>");
    CHECK(kernel_name_example(ks[3], 128) == "plain");
}

TEST_CASE("kernel_name_problem: a name, or a template's name with its arguments, and nothing else") {
    for (const char* good : {"k", "reduce6<256>", "reduce6<256u>", "ns::k", "t<float, 4>", "r<-1>", "a<b<1>>", "_k2"}) {
        CAPTURE(good);
        CHECK(kernel_name_problem(good).empty());
    }
    for (const char* bad : {"", "a;b", "k<1>x", "k<1", "k>", "k(1)", "k\nint x", "1k", "k,2", "k<1>; int y", "k<\"x\">",
                            "k<1>{}", "-k"}) {
        CAPTURE(bad);
        CHECK(kernel_name_problem(bad).rfind("expected a kernel's name, or a template kernel's name with its arguments", 0) == 0);
    }
}

TEST_CASE("kernel_instance_problem: arguments a template does not take, a non-template, no such kernel") {
    const std::vector<CudaKernelDecl> ks = cuda_kernel_declarations(
        "template <unsigned int blockSize> __global__ void h(int* a, int* b, unsigned n) {}\n"
        "__global__ void plain(int* a, int* b, int n) {}\n");
    CHECK(kernel_instance_problem("h<64,3>", ks, 64) ==
          "--kernel h<64,3>: h does not take the template arguments <64,3> (template <unsigned int blockSize>): e.g. "
          "--kernel h<64>");
    CHECK(kernel_instance_problem("plain<64>", ks, 64) == "--kernel plain<64>: plain is not a template kernel: name it --kernel plain");
    CHECK(kernel_instance_problem("other<64>", ks, 64) ==
          "--kernel other<64>: the file has no kernel other (its kernels: h<...> (a template), plain)");
    CHECK(kernel_instance_problem("other<64>", {}, 64) == "--kernel other<64>: the file has no kernel other (it declares none)");
}

TEST_CASE("compile_cuda_device: --kernel NAME<ARGS> makes the instance a file never launches") {
    if (skip_without_tools(false)) return;
    const std::string text = corpus_text(kHarris6);
    const CudaCompile plain = compile_cuda_device("harris6.cu", text);
    REQUIRE(plain.ok);
    const CudaCompile named = compile_cuda_device("harris6.cu", text, "harris6<64>");
    INFO(named.log);
    REQUIRE(named.ok);
    CHECK(named.bitcode.size() > plain.bitcode.size());
    const CudaCompile wrong = compile_cuda_device("harris6.cu", text, "harris6<64,3>");
    CHECK_FALSE(wrong.ok);
    CHECK(wrong.kernel_not_instantiated);
    // An error of the student's own file is a compile error as ever, even with --kernel.
    const CudaCompile broken = compile_cuda_device("broken.cu", text + "\nint oops = ;\n", "harris6<64>");
    CHECK_FALSE(broken.ok);
    CHECK_FALSE(broken.kernel_not_instantiated);
    CHECK(broken.error.find("broken.cu:") != std::string::npos);
#ifdef RLAB_HAVE_SIMT
    const simt::Module m = simt::decode(named.bitcode, "harris6.cu");
    REQUIRE(m.kernels.size() == 1);
    CHECK(m.kernels[0].name == "harris6<64u>");
    CHECK(choose_kernel(m, "harris6<64>", cuda_kernel_declarations(text), 64).name == "harris6<64u>");
#endif
}

#ifdef RLAB_HAVE_SIMT
TEST_CASE("choose_kernel: the one named, the only one, or one line listing the file's kernels") {
    if (skip_without_tools(false)) return;
    auto module_of = [](const std::string& text, const std::string& kernel = {}) {
        const CudaCompile c = compile_cuda_device("k.cu", text, kernel);
        INFO(c.log);
        REQUIRE(c.ok);
        return simt::decode(c.bitcode, "k.cu");
    };
    auto error_of = [](const simt::Module& m, const std::string& name, const std::vector<CudaKernelDecl>& declared) {
        try {
            choose_kernel(m, name, declared, 256);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // Two kernels: each by its name; none named is one line listing both.
    const std::string course = corpus_text(kCourse);
    const std::vector<CudaKernelDecl> two = cuda_kernel_declarations(course);
    const simt::Module m2 = module_of(course);
    CHECK(choose_kernel(m2, "block_partials", two, 256).name == "block_partials");
    CHECK(choose_kernel(m2, "finish_sum", two, 256).name == "finish_sum");
    CHECK(error_of(m2, "", two) == "the file has 2 kernels (block_partials, finish_sum): name the one to run with --kernel NAME");
    CHECK(error_of(m2, "finish", two) == "--kernel finish: the file has no kernel finish (its kernels: block_partials, finish_sum)");
    CHECK(error_of(m2, "finish_sum<4>", two) == "--kernel finish_sum<4>: finish_sum is not a template kernel: name it --kernel finish_sum");

    // A template no launch instantiates: not the only kernel by default, and its name needs its arguments.
    const std::string h6 = corpus_text(kHarris6);
    const std::vector<CudaKernelDecl> h6d = cuda_kernel_declarations(h6);
    const simt::Module none = module_of(h6);
    CHECK(none.kernels.empty());
    CHECK(error_of(none, "", h6d) ==
          "harris6 is a template kernel (template <unsigned int blockSize>) that the file never instantiates: name the "
          "instance to run with its template arguments, --kernel harris6<256>");
    CHECK(error_of(none, "harris6", h6d) ==
          "--kernel harris6: harris6 is a template kernel: name it with its template arguments, e.g. --kernel harris6<256> "
          "(the file launches no instance of it; the lab makes the one named)");
    CHECK(error_of(none, "last_warp<64>", h6d) == "--kernel last_warp<64>: the file has no kernel last_warp<64> (its kernels: harris6<...> (a template))");

    // Instances the file makes itself: a bare name with two of them lists them; with one, it is that one.
    const std::string launched = h6 + R"(
template __global__ void harris6<128>(int*, int*, unsigned int);
template __global__ void harris6<256>(int*, int*, unsigned int);
__global__ void other(int* in, int* out, int n) {}
)";
    const std::vector<CudaKernelDecl> ld = cuda_kernel_declarations(launched);
    const simt::Module m3 = module_of(launched);
    CHECK(error_of(m3, "", ld) ==
          "the file has 3 kernels (harris6<128u>, harris6<256u>, other): name the one to run with --kernel NAME");
    CHECK(error_of(m3, "harris6", ld) ==
          "--kernel harris6: harris6 is a template kernel: name it with its template arguments, e.g. --kernel harris6<256> "
          "(the file instantiates harris6<128u>, harris6<256u>)");
    CHECK(choose_kernel(m3, "harris6<256>", ld, 256).name == "harris6<256u>");
    const simt::Module m4 = module_of(h6 + "template __global__ void harris6<64>(int*, int*, unsigned int);\n");
    CHECK(choose_kernel(m4, "harris6", h6d, 64).name == "harris6<64u>");

    // One plain kernel and an uninstantiated template: two candidates, the template's example with its arguments.
    const std::string mixed = h6 + "__global__ void plain(int* in, int* out, int n) {}\n";
    CHECK(error_of(module_of(mixed), "", cuda_kernel_declarations(mixed)) ==
          "the file has 2 kernels (plain, harris6<...> (a template)): name the one to run with --kernel NAME, a "
          "template's with its arguments: --kernel harris6<256>");
}
#endif

}  // namespace rl::student::test
