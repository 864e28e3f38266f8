// tests/gpu/plain/plain_launch.cu — one plain-CUDA corpus file on the GPU under the lab's launch contract
// (docs/plain-cuda.md): the file compiled as it is with NVRTC (or, for a file with main(), a cubin nvcc made: --cubin),
// the kernel launched as K<<<grid, block, block * sizeof(T)>>>(in, out, n) with `in` the input (1..n, or --input
// VALUES) and every slot of `out` (one per block) at the operator's identity, then the lab's second launch (one block
// of B threads, n = grid, in = the partials) when the first launch had more than one block and the file uses no
// atomic. Prints "RESULT VALUE" (as the lab writes it), "RESULT hang" when the kernel does not end within --timeout
// seconds (exit 3), "RESULT error: WHY" when it fails (exit 4); exit 2 for bad arguments or a compile error.
// --compile-only compiles and names the kernel's symbol without a GPU (arch sm_90 unless --arch).
// Flags as rlab run takes them: FILE [--kernel NAME] --n N --block B [--grid G] [--input iota|V1,V2,...] [--op OP],
// plus --type int|float|double|argmax (the manifest's type), --timeout S, --cubin PATH, --arch SM, --include DIR
// (the toolkit's include folder, default $CUDA_HOME/include or /usr/local/cuda/include); --backend, --time-limit,
// --format and --seed are accepted and ignored.
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
    std::string file, kernel, input = "iota", op = "sum", type = "float", cubin, include;
    long long n = -1;
    unsigned block = 8, grid = 0;
    double timeout = 10;
    int arch = 0;
    bool compile_only = false;
};

[[noreturn]] void fail(int code, const std::string& why) {
    printf("%s%s\n", code == 2 ? "error: " : "RESULT error: ", why.c_str());
    fflush(stdout);
    _exit(code);
}

void check_cu(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return;
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    fail(4, std::string(what) + ": " + (name ? name : "unknown CUDA error"));
}

void check_rt(cudaError_t r, const char* what) {
    if (r != cudaSuccess) fail(4, std::string(what) + ": " + cudaGetErrorName(r));
}

void check_nvrtc(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) fail(2, std::string(what) + ": " + nvrtcGetErrorString(r));
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(2, "cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) fail(2, a + " needs a value");
            return argv[++i];
        };
        if (a == "--kernel") o.kernel = value();
        else if (a == "--n") o.n = std::stoll(value());
        else if (a == "--block") o.block = unsigned(std::stoul(value()));
        else if (a == "--grid") o.grid = unsigned(std::stoul(value()));
        else if (a == "--input") o.input = value();
        else if (a == "--op") o.op = value();
        else if (a == "--type") o.type = value();
        else if (a == "--timeout") o.timeout = std::stod(value());
        else if (a == "--cubin") o.cubin = value();
        else if (a == "--arch") o.arch = std::stoi(value());
        else if (a == "--include") o.include = value();
        else if (a == "--compile-only") o.compile_only = true;
        else if (a == "--backend" || a == "--time-limit" || a == "--format" || a == "--seed") value();
        else if (!a.empty() && a[0] != '-' && o.file.empty()) o.file = a;
        else fail(2, "unknown argument " + a);
    }
    if (o.file.empty()) fail(2, "no file");
    if (o.type != "int" && o.type != "float" && o.type != "double" && o.type != "argmax") fail(2, "--type " + o.type);
    if (o.block == 0 || o.block > 1024) fail(2, "--block must be 1..1024");
    return o;
}

// The source without comments: what the scans below read.
std::string strip_comments(const std::string& s) {
    return std::regex_replace(std::regex_replace(s, std::regex(R"(/\*[\s\S]*?\*/)"), " "), std::regex(R"(//[^\n]*)"), "");
}

std::string only_kernel(const std::string& code) {
    std::regex global(R"(__global__\s+void\s+([A-Za-z_]\w*))");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), global); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    if (names.size() != 1) fail(2, "the file has " + std::to_string(names.size()) + " __global__ functions: name one with --kernel");
    return names[0];
}

// Headers NVRTC has no copy of, for the files' own includes: the <cfloat> limits.
const char* kFloatLimits =
    "#pragma once\n"
    "#define FLT_MAX 3.402823466e+38F\n#define FLT_MIN 1.175494351e-38F\n#define FLT_EPSILON 1.192092896e-07F\n"
    "#define DBL_MAX 1.7976931348623158e+308\n#define DBL_MIN 2.2250738585072014e-308\n"
    "#define DBL_EPSILON 2.2204460492503131e-16\n";

struct Compiled {
    std::vector<char> cubin;
    std::string symbol;
};

Compiled compile_nvrtc(const Options& o, const std::string& source, const std::string& kernel, int arch) {
    const char* header_text[] = {kFloatLimits, kFloatLimits};
    const char* header_name[] = {"cfloat", "float.h"};
    nvrtcProgram prog;
    check_nvrtc(nvrtcCreateProgram(&prog, source.c_str(), o.file.c_str(), 2, header_text, header_name), "nvrtcCreateProgram");
    check_nvrtc(nvrtcAddNameExpression(prog, kernel.c_str()), "nvrtcAddNameExpression");
    std::string inc = o.include;
    if (inc.empty()) {
        const char* home = getenv("CUDA_HOME");
        inc = std::string(home && *home ? home : "/usr/local/cuda") + "/include";
    }
    const std::string arch_opt = "--gpu-architecture=sm_" + std::to_string(arch);
    const std::string inc_opt = "-I" + inc, cccl_opt = "-I" + inc + "/cccl";
    const char* opts[] = {arch_opt.c_str(), "-std=c++17", inc_opt.c_str(), cccl_opt.c_str(), "-lineinfo"};
    const nvrtcResult r = nvrtcCompileProgram(prog, 5, opts);
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    std::string log(log_size, '\0');
    if (log_size) nvrtcGetProgramLog(prog, &log[0]);
    if (r != NVRTC_SUCCESS) {
        fprintf(stderr, "%s\n", log.c_str());
        fail(2, "NVRTC could not compile " + o.file + ": " + nvrtcGetErrorString(r));
    }
    const char* lowered = nullptr;
    check_nvrtc(nvrtcGetLoweredName(prog, kernel.c_str(), &lowered), "nvrtcGetLoweredName");
    Compiled c;
    c.symbol = lowered;
    size_t size = 0;
    check_nvrtc(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    c.cubin.resize(size);
    check_nvrtc(nvrtcGetCUBIN(prog, c.cubin.data()), "nvrtcGetCUBIN");
    nvrtcDestroyProgram(&prog);
    return c;
}

// A kernel of an nvcc-made cubin by its source name: the function whose mangled name is _Z<len><name>..., or the name.
CUfunction find_in_module(CUmodule mod, const std::string& kernel) {
    unsigned count = 0;
    check_cu(cuModuleGetFunctionCount(&count, mod), "cuModuleGetFunctionCount");
    std::vector<CUfunction> fns(count);
    check_cu(cuModuleEnumerateFunctions(fns.data(), count, mod), "cuModuleEnumerateFunctions");
    const std::string mangled = "_Z" + std::to_string(kernel.size()) + kernel;
    for (CUfunction f : fns) {
        const char* name = nullptr;
        if (cuFuncGetName(&name, f) != CUDA_SUCCESS || !name) continue;
        if (name == kernel || std::string(name).rfind(mangled, 0) == 0) return f;
    }
    fail(2, "no kernel " + kernel + " in " + std::to_string(count) + " function(s) of the cubin");
}

struct ArgMaxPair {
    float value;
    unsigned index;
};

std::vector<double> input_values(const Options& o, long long& n) {
    std::vector<double> v;
    if (o.input == "iota") {
        if (n < 0) n = 8;
        for (long long i = 0; i < n; ++i) v.push_back(double(i + 1));
        return v;
    }
    std::stringstream s(o.input);
    std::string item;
    while (std::getline(s, item, ',')) {
        char* end = nullptr;
        const double x = strtod(item.c_str(), &end);
        if (item.empty() || *end) fail(2, "--input: only iota or a list of numbers (" + item + ")");
        v.push_back(x);
    }
    if (n >= 0 && n != (long long)v.size()) fail(2, "--n differs from the number of --input values");
    n = (long long)v.size();
    return v;
}

// The bytes of `count` elements of the type: the input values, or every slot at the operator's identity.
std::vector<unsigned char> as_bytes(const std::string& type, const std::vector<double>& values) {
    std::vector<unsigned char> b;
    auto put = [&](const void* p, size_t size) { b.insert(b.end(), (const unsigned char*)p, (const unsigned char*)p + size); };
    for (double x : values) {
        if (type == "int") { int v = int(x); put(&v, 4); }
        else if (type == "double") put(&x, 8);
        else { float v = float(x); put(&v, 4); }  // float, and argmax's input
    }
    return b;
}
std::vector<unsigned char> identity_slots(const Options& o, unsigned count) {
    std::vector<unsigned char> b;
    for (unsigned k = 0; k < count; ++k) {
        if (o.type == "argmax") {
            ArgMaxPair p{-INFINITY, 0xffffffffu};
            b.insert(b.end(), (unsigned char*)&p, (unsigned char*)&p + sizeof p);
            continue;
        }
        double e = 0;
        if (o.op == "max") e = o.type == "int" ? double(INT32_MIN) : -INFINITY;
        else if (o.op == "min") e = o.type == "int" ? double(INT32_MAX) : INFINITY;
        else if (o.op == "prod") e = 1;
        std::vector<unsigned char> one = as_bytes(o.type, {e});
        b.insert(b.end(), one.begin(), one.end());
    }
    return b;
}

std::string number(double v) {  // as the lab writes a value (core/trace.cpp)
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) snprintf(buf, sizeof buf, "%.0f", v);
    else snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void wait_for(double timeout_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
        const CUresult r = cuStreamQuery(nullptr);
        if (r == CUDA_SUCCESS) return;
        if (r != CUDA_ERROR_NOT_READY) check_cu(r, "the kernel");
        if (std::chrono::steady_clock::now() > end) {
            printf("RESULT hang (the kernel did not finish within %g s)\n", timeout_s);
            fflush(stdout);
            _exit(3);  // the driver ends the kernel with the process
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void launch(CUfunction f, unsigned grid, unsigned block, size_t shared, CUdeviceptr in, CUdeviceptr out, int n, double timeout) {
    void* params[] = {&in, &out, &n};
    check_cu(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, unsigned(shared), nullptr, params, nullptr), "cuLaunchKernel");
    wait_for(timeout);
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse(argc, argv);
    const std::string source = read_file(o.file), code = strip_comments(source);
    const std::string kernel = o.kernel.empty() ? only_kernel(code) : o.kernel;
    const bool has_main = std::regex_search(code, std::regex(R"(\bint\s+main\s*\()"));
    const bool uses_atomic = code.find("atomic") != std::string::npos;
    if (has_main && o.cubin.empty()) fail(2, o.file + " has main(): NVRTC cannot compile host code; give --cubin (nvcc -cubin)");

    int arch = o.arch;
    if (o.compile_only) {
        if (!arch) arch = 90;
        if (!o.cubin.empty()) fail(2, "--compile-only compiles with NVRTC; a --cubin needs a GPU to look into");
        const Compiled c = compile_nvrtc(o, source, kernel, arch);
        printf("compiled %s for sm_%d: %s is %s (%zu bytes of cubin; second launch: %s)\n", o.file.c_str(), arch,
               kernel.c_str(), c.symbol.c_str(), c.cubin.size(), uses_atomic ? "no, it uses atomics" : "when grid > 1");
        return 0;
    }

    check_rt(cudaFree(nullptr), "creating the CUDA context");
    if (!arch) {
        int dev = 0, major = 0, minor = 0;
        check_rt(cudaGetDevice(&dev), "cudaGetDevice");
        check_rt(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "compute capability");
        check_rt(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "compute capability");
        arch = major * 10 + minor;
    }
    CUmodule mod;
    CUfunction fn;
    if (o.cubin.empty()) {
        const Compiled c = compile_nvrtc(o, source, kernel, arch);
        check_cu(cuModuleLoadData(&mod, c.cubin.data()), "cuModuleLoadData");
        check_cu(cuModuleGetFunction(&fn, mod, c.symbol.c_str()), "cuModuleGetFunction");
    } else {
        const std::string bytes = read_file(o.cubin);
        check_cu(cuModuleLoadData(&mod, bytes.data()), "cuModuleLoadData (--cubin)");
        fn = find_in_module(mod, kernel);
    }

    long long n = o.n;
    const std::vector<double> values = input_values(o, n);
    if (n <= 0 || n > (1ll << 30)) fail(2, "--n must be 1 .. 2^30");
    const unsigned grid = o.grid ? o.grid : unsigned((n + o.block - 1) / o.block);
    const size_t elem = o.type == "double" ? 8 : 4, slot = o.type == "argmax" ? sizeof(ArgMaxPair) : elem;
    const size_t shared = size_t(o.block) * elem;

    // `in` exactly n elements (a read past it is past the allocation, as compute-sanitizer memcheck sees it)
    const std::vector<unsigned char> in_bytes = as_bytes(o.type, values), out_bytes = identity_slots(o, grid);
    CUdeviceptr d_in, d_out;
    check_cu(cuMemAlloc(&d_in, in_bytes.size()), "cuMemAlloc in");
    check_cu(cuMemAlloc(&d_out, out_bytes.size()), "cuMemAlloc out");
    check_cu(cuMemcpyHtoD(d_in, in_bytes.data(), in_bytes.size()), "copy in");
    check_cu(cuMemcpyHtoD(d_out, out_bytes.data(), out_bytes.size()), "copy out");
    launch(fn, grid, o.block, shared, d_in, d_out, int(n), o.timeout);

    CUdeviceptr d_result = d_out;
    if (grid > 1 && !uses_atomic && o.type != "argmax") {  // the lab's second launch over the block partials
        const std::vector<unsigned char> one = identity_slots(o, 1);
        CUdeviceptr d_final;
        check_cu(cuMemAlloc(&d_final, one.size()), "cuMemAlloc (second launch)");
        check_cu(cuMemcpyHtoD(d_final, one.data(), one.size()), "copy (second launch)");
        launch(fn, 1, o.block, shared, d_out, d_final, int(grid), o.timeout);
        d_result = d_final;
        printf("launches 2 (the second over %u partials)\n", grid);
    } else {
        printf("launches 1\n");
    }

    std::vector<unsigned char> r(slot);
    check_cu(cuMemcpyDtoH(r.data(), d_result, slot), "copy the result back");
    std::string text;
    if (o.type == "argmax") {
        ArgMaxPair p;
        memcpy(&p, r.data(), sizeof p);
        text = p.index == 0xffffffffu ? number(p.value) + " @ none" : number(p.value) + " @ " + std::to_string(p.index);
    } else if (o.type == "int") {
        int v;
        memcpy(&v, r.data(), 4);
        text = std::to_string(v);
    } else if (o.type == "double") {
        double v;
        memcpy(&v, r.data(), 8);
        text = number(v);
    } else {
        float v;
        memcpy(&v, r.data(), 4);
        text = number(v);
    }
    printf("RESULT %s\n", text.c_str());
    return 0;
}
