// cuda/plain_compile.cpp — NVRTC over a plain CUDA file as nvcc takes it (the header stand-ins below for the host
// headers students include), every kernel the plan names added as a name expression so templates get instantiated.
#include "cuda/plain_compile.h"

#include "core/error.h"
#include "cuda/nvrtc_loader.h"

namespace rl::cuda {
namespace {

// NVRTC compiles device code only and ships no host headers. Students' files include a few for what the device
// side uses of them: <cfloat>'s limits, <cmath>'s INFINITY/NAN (the functions are NVRTC's built-ins), and
// cuda_runtime.h / device_launch_parameters.h / cstdio, whose device parts NVRTC already has.
const char* kFloatLimits =
    "#pragma once\n"
    "#define FLT_MAX 3.402823466e+38F\n#define FLT_MIN 1.175494351e-38F\n#define FLT_EPSILON 1.192092896e-07F\n"
    "#define DBL_MAX 1.7976931348623158e+308\n#define DBL_MIN 2.2250738585072014e-308\n"
    "#define DBL_EPSILON 2.2204460492503131e-16\n";
const char* kMath =
    "#pragma once\n"
    "#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif\n"
    "#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif\n";
const char* kIntLimits =
    "#pragma once\n#define INT_MAX 2147483647\n#define INT_MIN (-INT_MAX - 1)\n#define UINT_MAX 4294967295U\n";
const char* kEmpty = "#pragma once\n";

}  // namespace

PlainProgram compile_plain_for_gpu(const std::string& file, const std::string& source, const std::vector<std::string>& kernels,
                                   int arch, const std::string& cuda_include) {
    using namespace cuda_rtc;
    const NvrtcApi& api = nvrtc_api();
    const char* header_text[] = {kFloatLimits, kFloatLimits, kMath, kMath, kIntLimits, kIntLimits,
                                 kEmpty,       kEmpty,       kEmpty, kEmpty};
    const char* header_name[] = {"cfloat", "float.h", "cmath", "math.h", "climits", "limits.h",
                                 "cuda_runtime.h", "device_launch_parameters.h", "cstdio", "stdio.h"};
    nvrtcProgram prog;
    check_nvrtc(api.create(&prog, source.c_str(), file.c_str(), int(std::size(header_text)), header_text, header_name),
                "nvrtcCreateProgram");
    struct Guard {
        nvrtcProgram& p;
        ~Guard() { nvrtc_api().destroy(&p); }
    } guard{prog};
    for (const std::string& k : kernels) check_nvrtc(api.add_name_expression(prog, k.c_str()), "nvrtcAddNameExpression");
    const std::string arch_opt = "--gpu-architecture=sm_" + std::to_string(arch), inc = "-I" + cuda_include,
                      cccl = "-I" + cuda_include + "/cccl";
    // as nvcc compiles the file: no fast-math, FMA contraction on (nvcc's default), line tables for the profilers
    const char* opts[] = {arch_opt.c_str(), "-std=c++17", inc.c_str(), cccl.c_str(), "-lineinfo"};
    const nvrtcResult r = api.compile(prog, int(std::size(opts)), opts);
    PlainProgram p;
    size_t n = 0;
    check_nvrtc(api.log_size(prog, &n), "nvrtcGetProgramLogSize");
    p.log.assign(n, '\0');
    check_nvrtc(api.log(prog, p.log.data()), "nvrtcGetProgramLog");
    while (!p.log.empty() && (p.log.back() == '\0' || p.log.back() == '\n')) p.log.pop_back();
    if (r == NVRTC_ERROR_COMPILATION) return p;
    check_nvrtc(r, "nvrtcCompileProgram");
    for (const std::string& k : kernels) {
        const char* lowered = nullptr;
        const nvrtcResult lr = api.lowered_name(prog, k.c_str(), &lowered);
        if (lr != NVRTC_SUCCESS || !lowered)
            throw Error("kernel " + k + ": NVRTC found no __global__ function of that name in " + file);
        p.symbols.push_back(lowered);
    }
    size_t size = 0;
    check_nvrtc(api.cubin_size(prog, &size), "nvrtcGetCUBINSize");
    p.cubin.resize(size);
    check_nvrtc(api.cubin(prog, p.cubin.data()), "nvrtcGetCUBIN");
    p.ok = true;
    return p;
}

}  // namespace rl::cuda
