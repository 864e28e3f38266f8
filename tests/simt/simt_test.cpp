// tests/simt/simt_test.cpp — the simt tests' helpers: clang-14 with the tests' prelude, a launch, a runner run.
#include "simt_test.h"
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "core/error.h"
#include "core/input.h"
#include "simt/values.h"
#include "student/cuda_compile.h"

namespace rl::simt_test {
namespace fs = std::filesystem;

bool have_clang() { return std::system("clang-14 --version >/dev/null 2>&1") == 0; }

std::string kernel_path(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/simt/kernels/" + name; }

simt::Module compile(const std::string& source, const std::string& file) {
    char dir_template[] = "/tmp/rlab-simt-test-XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (!dir) throw Error("cannot make a temporary folder");
    const fs::path folder(dir), cu = folder / file, bc = folder / "kernel.bc", log = folder / "clang.log";
    std::ofstream(cu) << source;
    const std::string command = "cd " + folder.string() +
                                " && clang-14 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib "
                                "-Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx70 -O1 -gline-tables-only "
                                "-emit-llvm -c -include " + kernel_path("prelude.h") + " " + file + " -o kernel.bc 2>" + log.string();
    const int status = std::system(command.c_str());
    std::stringstream bitcode, messages;
    messages << std::ifstream(log).rdbuf();
    if (status != 0) {
        fs::remove_all(folder);
        throw Error("clang-14 failed: " + messages.str());
    }
    bitcode << std::ifstream(bc, std::ios::binary).rdbuf();
    fs::remove_all(folder);
    return simt::decode(bitcode.str(), file);
}

simt::Module compile_with_lab_headers(const std::string& source, const std::string& file) {
    const student::CudaCompile c = student::compile_cuda_device(file, source);
    if (!c.ok) throw Error("the lab's CUDA compile failed: " + c.error + "\n" + c.log);
    return simt::decode(c.bitcode, file);
}

simt::Module compile_file(const std::string& name) {
    std::stringstream text;
    text << std::ifstream(kernel_path(name)).rdbuf();
    return compile(text.str(), name);
}

Launched launch(const simt::Kernel& k, int n, uint32_t block, Op op, uint32_t record_base) {
    Schedule s;
    s.n = uint64_t(n);
    s.block = block;
    s.type = k.element == simt::Type::F64 ? DType::F64 : k.element == simt::Type::I32 ? DType::I32 : DType::F32;
    static InputData input;
    input = make_input(s);
    simt::LaunchRequest r;
    r.grid = (uint32_t(n) + block - 1) / block;
    r.block = block;
    r.dynamic_shared_bytes = block * simt::type_bytes(k.element);
    r.args = {{simt::ArgKind::Buffer, 0, 0, 0}, {simt::ArgKind::Buffer, 0, 1, 0}, {simt::ArgKind::Scalar, uint64_t(uint32_t(n)), 0, 0}};
    r.op = op;
    r.type = s.type;
    const uint32_t e = simt::type_bytes(k.element);
    std::vector<simt::GlobalBuffer> buffers(2);
    buffers[0].name = "in";
    buffers[0].input = true;
    buffers[0].input_elements = uint64_t(n);
    buffers[0].size = uint64_t(n) * e;
    buffers[0].mem.assign(buffers[0].size, 0);
    for (int i = 0; i < n; ++i) {
        const uint64_t bits = s.type == DType::F64 ? pack_value(input.f64[size_t(i)])
                              : s.type == DType::I32 ? pack_value(input.i32[size_t(i)]) : pack_value(input.f32[size_t(i)]);
        std::memcpy(&buffers[0].mem.bytes[size_t(i) * e], &bits, e);
    }
    buffers[1].name = "out";
    buffers[1].size = uint64_t(r.grid) * e;
    buffers[1].mem.assign(buffers[1].size, kIdentity);
    const uint64_t identity = simt::identity_of(s.type, op);
    for (uint32_t b = 0; b < r.grid; ++b) std::memcpy(&buffers[1].mem.bytes[size_t(b) * e], &identity, e);
    r.buffers = &buffers;
    r.record_base = record_base;
    Launched out;
    static_cast<simt::LaunchResult&>(out) = simt::run_launch(k, r);
    for (uint32_t b = 0; b < r.grid; ++b) {
        const size_t g = size_t(b) * e / 4;
        uint64_t bits = 0;
        std::memcpy(&bits, &buffers[1].mem.bytes[size_t(b) * e], e);
        out.out.push_back({buffers[1].mem.hist[g] != kNoEvent ? buffers[1].mem.value[g] : bits, buffers[1].mem.flags[g], buffers[1].mem.hist[g]});
    }
    return out;
}

std::vector<uint32_t> thread_records(const std::vector<StudentRecord>& records, uint32_t block, uint32_t thread) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < records.size(); ++i)
        if (records[i].block == block && records[i].thread == thread) out.push_back(i);
    std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return records[a].seq < records[b].seq; });
    return out;
}

namespace {
student::KernelOutcome run_path(const std::string& path, uint64_t n, uint32_t block, uint32_t grid, const std::string& launch) {
    student::KernelRequest r;
    r.file = path;
    r.launch = launch;
    r.schedule.n = n;
    r.schedule.block = block;
    r.schedule.grid = grid;
    r.time_limit_s = 60;
    return student::run_kernel(r);
}
}  // namespace

student::KernelOutcome run_file(const std::string& name, uint64_t n, uint32_t block, uint32_t grid, const std::string& launch) {
    return run_path(kernel_path(name), n, block, grid, launch);
}

std::string two_pass_plan(const std::string& kernel, uint64_t n, uint32_t block, uint32_t shared) {
    const uint64_t grid = (n + block - 1) / block;
    const std::string config = std::to_string(block) + ", " + std::to_string(shared) + ">>>";
    if (grid == 1) return kernel + "<<<1, " + config + "(in, out, n)";
    return kernel + "<<<" + std::to_string(grid) + ", " + config + "(in, tmp, n); " + kernel + "<<<1, " + config + "(tmp, out, " +
           std::to_string(grid) + ")";
}

student::KernelOutcome run_source(const std::string& source, uint64_t n, uint32_t block, const std::string& file, const std::string& launch) {
    char dir_template[] = "/tmp/rlab-simt-test-XXXXXX";
    const char* dir = mkdtemp(dir_template);
    if (!dir) throw Error("cannot make a temporary folder");
    const fs::path path = fs::path(dir) / file;
    std::ofstream(path) << source;
    student::KernelOutcome o = run_path(path.string(), n, block, 0, launch);
    fs::remove_all(dir);
    return o;
}

double result_of(const Trace& t) {
    switch (t.schedule.type) {
        case DType::F64: return unpack_value<double>(t.result_value);
        case DType::I32: return unpack_value<int32_t>(t.result_value);
        default: return unpack_value<float>(t.result_value);
    }
}

}  // namespace rl::simt_test
