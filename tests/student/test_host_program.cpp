// tests/student/test_host_program.cpp — a program with main() on the lab's CUDA runtime: clang's host-side compile,
// loading, main()'s status and exit(), the output redirect, device pointers, copies, errors and launch capture,
// against a device that only stores bytes and records launches (the SIMT engine is not involved here).
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "student/cuda_compile.h"
#include "student/cuda_runtime_lab.h"
#include "student/cuda_source.h"
#include "student/host_program.h"
#include "student/process.h"

namespace rl::student::host_program_tests {
namespace {

namespace fs = std::filesystem;

// Bytes per buffer, and every launch as the runtime handed it over. Kernels are declared by symbol.
struct RecordingDevice : ProgramDevice {
    std::map<std::string, std::vector<ProgramParam>> kernels;
    std::vector<std::vector<unsigned char>> buffers;
    std::vector<bool> released;
    std::vector<ProgramLaunch> launches;
    std::string fail_launch;  // a kernel error the next launch returns

    bool kernel_params(const std::string& symbol, std::vector<ProgramParam>& params) const override {
        auto it = kernels.find(symbol);
        if (it == kernels.end()) return false;
        params = it->second;
        return true;
    }
    uint32_t allocate(uint64_t bytes) override {
        buffers.emplace_back(bytes, 0xAB);  // cudaMalloc leaves memory undefined: a visible pattern
        released.push_back(false);
        return uint32_t(buffers.size() - 1);
    }
    void release(uint32_t b) override { released.at(b) = true; }
    void write(uint32_t b, uint64_t off, const void* bytes, uint64_t size) override {
        REQUIRE(off + size <= buffers.at(b).size());
        std::memcpy(buffers[b].data() + off, bytes, size);
    }
    void read(uint32_t b, uint64_t off, void* bytes, uint64_t size) override {
        REQUIRE(off + size <= buffers.at(b).size());
        std::memcpy(bytes, buffers[b].data() + off, size);
    }
    std::string launch(const ProgramLaunch& l) override {
        launches.push_back(l);
        return fail_launch;
    }
};

bool have_clang() { return !cuda_clang().empty() && !find_on_path(cuda_clang()).empty(); }

struct Ran {
    HostProgramCompile compile;
    ProgramOutcome outcome;
    std::string output;
    uint32_t launches = 0;
    std::vector<ProgramRuntime::Copy> to_host;
};

struct TempFolder {
    fs::path path;
    TempFolder() {
        std::string t = (fs::temp_directory_path() / "rlab-host-program-test-XXXXXX").string();
        REQUIRE(mkdtemp(t.data()));
        path = t;
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

Ran compile_and_run(const std::string& source, RecordingDevice& device) {
    Ran r;
    TempFolder tmp;
    const std::string file = (tmp.path / "prog.cu").string();
    std::ofstream(file) << source;
    r.compile = compile_cuda_host_program(file, source);
    if (!r.compile.ok) return r;
    ProgramRuntime runtime(device);
    const std::string out = (tmp.path / "out.txt").string();
    r.outcome = run_host_program(*r.compile.program, file, runtime, out);
    std::ifstream f(out);
    std::ostringstream s;
    s << f.rdbuf();
    r.output = s.str();
    r.launches = runtime.launches();
    r.to_host = runtime.device_to_host();
    return r;
}

#define SKIP_WITHOUT_CLANG()                                                           \
    if (!have_clang()) {                                                               \
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)"); \
        return;                                                                        \
    }

}  // namespace

TEST_CASE("a host stub's mangled name gives its kernel's") {
    // Itanium mangling by hand: the stub's source name has 15 more characters, `__device_stub__`.
    CHECK(kernel_symbol_of_stub("_Z16__device_stub__kPKfPfi") == "_Z1kPKfPfi");
    CHECK(kernel_symbol_of_stub("_ZN2ns17__device_stub__nkEPf") == "_ZN2ns2nkEPf");
    CHECK(kernel_symbol_of_stub("_ZL17__device_stub__skPf") == "_ZL2skPf");
    CHECK(kernel_symbol_of_stub("_Z22__device_stub__reduce6ILj256EEvPKiPij") == "_Z7reduce6ILj256EEvPKiPij");
    CHECK(kernel_symbol_of_stub("_Z1kPKfPfi").empty());
    CHECK(kernel_symbol_of_stub("main").empty());
}

TEST_CASE("main() is found in the text at file scope only") {
    CHECK(main_function_line("__global__ void k() {}\n\nint main() { return 0; }\n") == 3);
    CHECK(main_function_line("int main(int argc, char** argv)\n{ return 0; }") == 1);
    CHECK(main_function_line("// int main() in a comment\n__global__ void k() {}\n") == 0);
    CHECK(main_function_line("const char* s = \"int main()\";\n") == 0);
    CHECK(main_function_line("struct S { int main() { return 1; } };\n") == 0);
    CHECK(main_function_line("__global__ void k(const float* in, float* out, int n) {}\n") == 0);
}

TEST_CASE("a program's main() runs: copies, pointers with offsets, launches as configured, its output and status") {
    SKIP_WITHOUT_CLANG();
    RecordingDevice dev;
    dev.kernels["_Z6reducePKfPfi"] = {{true, 8}, {true, 8}, {false, 4}};
    dev.kernels["_Z6finishILj64EEvPKfPfj"] = {{true, 8}, {true, 8}, {false, 4}};
    const std::string src = R"(#include <cstdio>
__global__ void reduce(const float* in, float* out, int n) {}
template <unsigned B> __global__ void finish(const float* in, float* out, unsigned n) {}
int main() {
    float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof host);
    cudaMalloc((void**)&d_out, 3 * sizeof(float));
    cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, 3 * sizeof(float));
    reduce<<<dim3(3), 64, 256>>>(d_in + 2, d_out, 6);
    finish<64><<<1, 64>>>(d_out, d_out + 2, 3u);
    if (cudaGetLastError() != cudaSuccess) return 9;
    float back[8];
    cudaMemcpy(back, d_in, sizeof back, cudaMemcpyDeviceToHost);
    printf("back %g %g\n", back[0], back[7]);
    fprintf(stderr, "to stderr\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return back[7] == 8.0f ? 0 : 4;
}
)";
    Ran r = compile_and_run(src, dev);
    INFO(r.compile.log);
    REQUIRE(r.compile.ok);
    INFO(r.outcome.message);
    CHECK(r.outcome.end == ProgramOutcome::Returned);
    CHECK(r.outcome.status == 0);
    CHECK(r.output == "back 1 8\nto stderr\n");
    REQUIRE(dev.launches.size() == 2);
    CHECK(r.launches == 2);
    const ProgramLaunch& a = dev.launches[0];
    CHECK(a.symbol == "_Z6reducePKfPfi");
    CHECK(a.grid[0] == 3);
    CHECK(a.grid[1] == 1);
    CHECK(a.block[0] == 64);
    CHECK(a.shared_bytes == 256);
    REQUIRE(a.args.size() == 3);
    CHECK(a.args[0].pointer);
    CHECK(a.args[0].buffer == 0);
    CHECK(a.args[0].offset == 8);  // d_in + 2 floats
    CHECK(a.args[1].buffer == 1);
    CHECK(a.args[1].offset == 0);
    CHECK(!a.args[2].pointer);
    CHECK(a.args[2].bits == 6);
    const ProgramLaunch& b = dev.launches[1];
    CHECK(b.symbol == "_Z6finishILj64EEvPKfPfj");
    CHECK(b.grid[0] == 1);
    CHECK(b.block[0] == 64);
    CHECK(b.shared_bytes == 0);
    CHECK(b.args[1].buffer == 1);
    CHECK(b.args[1].offset == 8);
    CHECK(b.args[2].bits == 3);
    // The device holds what the program copied in and set: 1..8, and three zero floats.
    REQUIRE(dev.buffers.size() == 2);
    float in[8];
    std::memcpy(in, dev.buffers[0].data(), sizeof in);
    for (int i = 0; i < 8; ++i) CHECK(in[i] == float(i + 1));
    CHECK(dev.buffers[1] == std::vector<unsigned char>(12, 0));
    CHECK(dev.released == std::vector<bool>{true, true});
    REQUIRE(r.to_host.size() == 1);
    CHECK(r.to_host[0].buffer == 0);
    CHECK(r.to_host[0].bytes == 32);
    CHECK(r.to_host[0].after_launches == 2);
}

TEST_CASE("main()'s status, exit() and a kernel failure end the program as they should") {
    SKIP_WITHOUT_CLANG();
    SUBCASE("a non-zero return") {
        RecordingDevice dev;
        Ran r = compile_and_run("int main() { return 3; }\n", dev);
        REQUIRE(r.compile.ok);
        CHECK(r.outcome.end == ProgramOutcome::Returned);
        CHECK(r.outcome.status == 3);
        CHECK(r.launches == 0);
    }
    SUBCASE("exit() from a helper ends main(), not the caller") {
        RecordingDevice dev;
        Ran r = compile_and_run(
            "#include <cstdio>\n#include <cstdlib>\nstatic void check(int e) { if (e) { printf(\"bad %d\\n\", e); exit(5); } }\n"
            "int main() { check(cudaSetDevice(1)); return 0; }\n",
            dev);
        REQUIRE(r.compile.ok);
        CHECK(r.outcome.end == ProgramOutcome::Exited);
        CHECK(r.outcome.status == 5);
        CHECK(r.output == "bad 101\n");  // cudaErrorInvalidDevice: the lab has device 0 only
    }
    SUBCASE("a kernel that fails stops main() at its launch, with the kernel's line") {
        RecordingDevice dev;
        dev.kernels["_Z1kPf"] = {{true, 8}};
        dev.fail_launch = "launch 1, block 0, thread 5 on line 1: out of range";
        Ran r = compile_and_run(
            "#include <cstdio>\n__global__ void k(float* p) {}\nint main() { float* p; cudaMalloc(&p, 4); k<<<1, 32>>>(p);\n"
            "printf(\"after\\n\"); return 0; }\n",
            dev);
        REQUIRE(r.compile.ok);
        CHECK(r.outcome.end == ProgramOutcome::KernelFailed);
        CHECK(r.outcome.message == dev.fail_launch);
        CHECK(r.output.empty());
    }
}

TEST_CASE("errors are CUDA's codes: a bad configuration, a bad pointer, the wrong direction") {
    SKIP_WITHOUT_CLANG();
    RecordingDevice dev;
    dev.kernels["_Z1kPf"] = {{true, 8}};
    Ran r = compile_and_run(R"(#include <cstdio>
__global__ void k(float* p) {}
int main() {
    float* p;
    float h[4] = {0, 0, 0, 0};
    cudaMalloc(&p, 16);
    k<<<1, 2048>>>(p);                                   // more than 1024 threads a block
    int a = cudaGetLastError(), a2 = cudaGetLastError();  // the error is returned once
    int b = cudaMemcpy(p, h, 32, cudaMemcpyHostToDevice);  // past the end of the 16 bytes
    int c = cudaMemcpy(h, p, 16, cudaMemcpyHostToDevice);  // the direction does not fit the pointers
    int d = cudaFree(h);                                   // never allocated
    int e = cudaPeekAtLastError(), e2 = cudaGetLastError(), e3 = cudaGetLastError();
    printf("%d %d %d %d %d %d %d %d %s\n", a, a2, b, c, d, e, e2, e3, cudaGetErrorString(cudaErrorInvalidConfiguration));
    return 0;
}
)", dev);
    INFO(r.compile.log);
    REQUIRE(r.compile.ok);
    CHECK(r.outcome.end == ProgramOutcome::Returned);
    // CUDA's numbers: 9 invalid configuration, 1 invalid value, 17 invalid device pointer.
    CHECK(r.output == "9 0 1 1 17 17 17 0 invalid configuration argument\n");
    CHECK(dev.launches.empty());
    CHECK(r.launches == 0);
}

TEST_CASE("what the lab's runtime does not run is refused at the student's line, or before main() runs") {
    SKIP_WITHOUT_CLANG();
    SUBCASE("events: a compile error at the call") {
        RecordingDevice dev;
        Ran r = compile_and_run("int main() {\n    cudaEvent_t e;\n    cudaEventCreate(&e);\n    return 0;\n}\n", dev);
        CHECK(!r.compile.ok);
        REQUIRE(!r.compile.diagnostics.empty());
        CHECK(r.compile.diagnostics[0].line == 3);
        CHECK(r.compile.diagnostics[0].file.find("prog.cu") != std::string::npos);
        CHECK(r.compile.error.find("events are not supported") != std::string::npos);
    }
    SUBCASE("managed memory") {
        RecordingDevice dev;
        Ran r = compile_and_run("int main() {\n    float* p;\n\n    cudaMallocManaged(&p, 4);\n    return 0;\n}\n", dev);
        CHECK(!r.compile.ok);
        REQUIRE(!r.compile.diagnostics.empty());
        CHECK(r.compile.diagnostics[0].line == 4);
        CHECK(r.compile.error.find("managed memory") != std::string::npos);
    }
    SUBCASE("a runtime function the lab's runtime lacks: named when the program is loaded") {
        RecordingDevice dev;
        Ran r = compile_and_run("extern \"C\" int cudaThreadSynchronize();\nint main() { return cudaThreadSynchronize(); }\n", dev);
        REQUIRE(r.compile.ok);
        CHECK(r.outcome.end == ProgramOutcome::LoadFailed);
        CHECK(r.outcome.message.find("the program calls cudaThreadSynchronize") == 0);
    }
}

TEST_CASE("a kernel clang does not know from the module is an invalid device function, not a crash") {
    SKIP_WITHOUT_CLANG();
    RecordingDevice dev;  // no kernels: the module lacks the launched one
    Ran r = compile_and_run("#include <cstdio>\n__global__ void k(int n) {}\nint main() { k<<<1, 1>>>(3); "
                            "printf(\"%d\\n\", (int)cudaGetLastError()); return 0; }\n",
                            dev);
    REQUIRE(r.compile.ok);
    CHECK(r.output == "98\n");
    CHECK(dev.launches.empty());
}

}  // namespace rl::student::host_program_tests

// ---- whole programs through rlab-kernel-runner (student::run_kernel), on the SIMT emulator ----------------------
namespace rl::student::host_program_runs {
namespace {

KernelOutcome run_program_file(const std::string& name) {
    KernelRequest r;
    r.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/" + name;
    r.time_limit_s = 60;
    return run_kernel(r);
}

float f32_of(uint64_t bits) {
    const uint32_t low = uint32_t(bits);
    float f;
    std::memcpy(&f, &low, 4);
    return f;
}

}  // namespace

TEST_CASE("a course's two-launch program runs as it is: both launches in one trace, its output, its result") {
    if (cuda_clang().empty()) {
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)");
        return;
    }
    const KernelOutcome o = run_program_file("program_two_kernels.cu");
    INFO(o.error);
    INFO(o.compiler_log);
    REQUIRE(o.ok);
    CHECK(o.program);
    CHECK(o.program_failure.empty());
    // 8192 elements i % 97 - 40: 84 cycles of 776 and 0..43 less 40 each (-814), by hand: 64370.
    CHECK(o.program_output == "sum of 8192 elements = 64370 (expected 64370): correct\n");
    const Trace& t = o.trace;
    REQUIRE(t.launches.size() == 2);
    CHECK(t.launches[0].grid == 32);
    CHECK(t.launches[0].block == 128);
    CHECK(t.launches[0].shared_bytes == 512);
    CHECK(t.launches[0].first_block == 0);
    CHECK(t.launches[1].grid == 1);
    CHECK(t.launches[1].block == 128);
    CHECK(t.launches[1].first_block == 32);
    CHECK(t.schedule.n == 8192);
    CHECK(t.schedule.type == DType::I32);
    CHECK(t.schedule.op == Op::Sum);
    REQUIRE(t.inputs.size() == 8192);
    CHECK(t.inputs[100] == double(100 % 97 - 40));
    CHECK(int32_t(uint32_t(t.result_value)) == 64370);
    CHECK(t.hazards.empty());
}

TEST_CASE("a program's main() that returns non-zero fails the run after its launch is recorded") {
    if (cuda_clang().empty()) {
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)");
        return;
    }
    const KernelOutcome o = run_program_file("program_main_returns_3.cu");
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(o.program_failure == "the program's main() returned 3");
    CHECK(o.program_output == "sum = 32896\n");  // 1 + ... + 256
    REQUIRE(o.trace.launches.size() == 1);
    CHECK(f32_of(o.trace.result_value) == 32896.0f);
}

TEST_CASE("a program that never launches is bad input, said in one line") {
    if (cuda_clang().empty()) {
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)");
        return;
    }
    const KernelOutcome o = run_program_file("program_never_launches.cu");
    CHECK(!o.ok);
    CHECK(o.failure == KernelFailure::BadInput);
    CHECK(o.error == "the program's main() returned 0 without launching a kernel: the lab records kernel launches "
                     "(kernel<<<grid, block>>>(...)); to run one kernel alone, name it with --kernel");
    CHECK(o.program_output == "sum = 0\n");  // memory the lab's cudaMalloc leaves unwritten reads as 0 on the host side
}

}  // namespace rl::student::host_program_runs

namespace rl::student::host_program_tests {

TEST_CASE("a CUDA call from a second host thread fails and is remembered, without ending the process") {
    SKIP_WITHOUT_CLANG();
    RecordingDevice dev;
    TempFolder tmp;
    const std::string file = (tmp.path / "threads.cu").string();
    const std::string src = R"(#include <cstdio>
#include <thread>
int main() {
    int e = -1;
    std::thread t([&] { float* p; e = cudaMalloc(&p, 4); });
    t.join();
    printf("%d\n", e);
    return 0;
}
)";
    std::ofstream(file) << src;
    HostProgramCompile c = compile_cuda_host_program(file, src);
    INFO(c.log);
    REQUIRE(c.ok);
    ProgramRuntime runtime(dev);
    const std::string out = (tmp.path / "out.txt").string();
    const ProgramOutcome o = run_host_program(*c.program, file, runtime, out);
    CHECK(o.end == ProgramOutcome::Returned);
    std::ifstream f(out);
    std::string printed;
    std::getline(f, printed);
    CHECK(printed == "999");  // cudaErrorUnknown
    CHECK(runtime.thread_problem().rfind("cudaMalloc was called from a second host thread", 0) == 0);
    CHECK(dev.buffers.empty());
}

}  // namespace rl::student::host_program_tests

namespace rl::student::host_program_runs {

TEST_CASE("a program's input beyond 16384 elements stays in the trace's inputs, out of its schedule") {
    if (cuda_clang().empty()) {
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)");
        return;
    }
    // 20000 ones summed by 4 blocks of 256 threads in a grid-stride loop, one atomicAdd per block: 20000.
    const std::string src = R"(#include <cstdio>
#include <vector>
__global__ void sum(const float* in, float* out, int n) {
    __shared__ float s[256];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = 128; h > 0; h /= 2) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}
int main() {
    const int n = 20000;
    std::vector<float> h(n, 1.0f);
    float *d_in, *d_out, r = 0;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(float));
    sum<<<4, 256>>>(d_in, d_out, n);
    cudaMemcpy(&r, d_out, sizeof r, cudaMemcpyDeviceToHost);
    printf("%g\n", r);
    return 0;
}
)";
    host_program_tests::TempFolder tmp;
    const std::string file = (tmp.path / "big_input.cu").string();
    std::ofstream(file) << src;
    KernelRequest r;
    r.file = file;
    r.time_limit_s = 60;
    const KernelOutcome o = run_kernel(r);
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(o.program_output == "20000\n");
    CHECK(o.trace.schedule.n == 20000);
    // The schedule says where the values came from (input `program`), not a made-up kind such as iota.
    CHECK(o.trace.schedule.input.kind == InputKind::Program);
    CHECK(o.trace.schedule.input.values.empty());
    REQUIRE(o.trace.inputs.size() == 20000);
    CHECK(o.trace.inputs[19999] == 1.0);
    CHECK(f32_of(o.trace.result_value) == 20000.0f);
    CHECK(o.trace.hazards.empty());
}

}  // namespace rl::student::host_program_runs

namespace rl::student::host_program_tests {

TEST_CASE("a static kernel and a kernel in a namespace are found from their stubs") {
    SKIP_WITHOUT_CLANG();
    // A static kernel's stub has internal linkage: it is in the object's full symbol table only, not the dynamic one
    // that dladdr reads, so the stub table must come from .symtab.
    RecordingDevice dev;
    dev.kernels["_ZL2skPf"] = {{true, 8}};
    dev.kernels["_ZN2ns2nkEPfi"] = {{true, 8}, {false, 4}};
    Ran r = compile_and_run(R"(static __global__ void sk(float* p) {}
namespace ns { __global__ void nk(float* p, int n) {} }
int main() {
    float* p;
    cudaMalloc(&p, 64);
    sk<<<2, 32>>>(p);
    ns::nk<<<1, 64>>>(p + 3, 7);
    return cudaGetLastError();
}
)", dev);
    INFO(r.compile.log);
    REQUIRE(r.compile.ok);
    CHECK(r.outcome.end == ProgramOutcome::Returned);
    CHECK(r.outcome.status == 0);
    REQUIRE(dev.launches.size() == 2);
    CHECK(dev.launches[0].symbol == "_ZL2skPf");
    CHECK(dev.launches[0].grid[0] == 2);
    CHECK(dev.launches[1].symbol == "_ZN2ns2nkEPfi");
    CHECK(dev.launches[1].args[0].offset == 12);
    CHECK(dev.launches[1].args[1].bits == 7);
}

}  // namespace rl::student::host_program_tests

namespace rl::student::host_program_runs {

TEST_CASE("a program whose kernels take a max runs again with max, its globals afresh") {
    if (cuda_clang().empty()) {
        MESSAGE("SKIPPED: clang-14 is not installed (the plain CUDA front end needs it)");
        return;
    }
    // (i * 37) % 101 over i < 256 takes every residue 0..100 (37 is invertible mod 101): the max is 100 - 50 = 50.
    const std::string src = R"(#include <cstdio>
#include <cfloat>
int calls = 0;
__global__ void block_max(const float* in, float* out, int n) {
    __shared__ float s[64];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : -FLT_MAX;
    __syncthreads();
    for (int h = 32; h > 0; h /= 2) {
        if (t < h) s[t] = fmaxf(s[t], s[t + h]);
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
    const int n = 256;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = float((i * 37) % 101) - 50.0f;
    float *d_in, *d_part, *d_out;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_part, 4 * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    block_max<<<4, 64>>>(d_in, d_part, n);
    block_max<<<1, 64>>>(d_part, d_out, 4);
    float m;
    cudaMemcpy(&m, d_out, sizeof m, cudaMemcpyDeviceToHost);
    printf("max %g, run %d\n", m, ++calls);
    return 0;
}
)";
    host_program_tests::TempFolder tmp;
    const std::string file = (tmp.path / "max_program.cu").string();
    std::ofstream(file) << src;
    KernelRequest r;
    r.file = file;
    r.time_limit_s = 60;
    const KernelOutcome o = run_kernel(r);
    INFO(o.error);
    REQUIRE(o.ok);
    // The second run's output only, and its global counter started again from 0.
    CHECK(o.program_output == "max 50, run 1\n");
    CHECK(o.trace.schedule.op == Op::Max);
    CHECK(f32_of(o.trace.result_value) == 50.0f);
    CHECK(o.trace.hazards.empty());  // -FLT_MAX is an identity for this input
    REQUIRE(o.trace.launches.size() == 2);
}

}  // namespace rl::student::host_program_runs
