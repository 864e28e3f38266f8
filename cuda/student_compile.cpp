// cuda/student_compile.cpp — NVRTC compile of a student's kernel against rlab/kernel.h's device branch.
#include "cuda/student_compile.h"

#include <nvrtc.h>

#include "core/error.h"

namespace rl::student {
namespace {

void nv(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw Error(std::string(what) + ": " + nvrtcGetErrorString(r));
}

}  // namespace

GpuProgram compile_for_gpu(const std::string& file, const std::string& text, int arch, const std::string& include_dir) {
    nvrtcProgram prog;
    nv(nvrtcCreateProgram(&prog, text.c_str(), file.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    struct Guard {
        nvrtcProgram& p;
        ~Guard() { nvrtcDestroyProgram(&p); }
    } guard{prog};
    const std::string arch_opt = "-arch=sm_" + std::to_string(arch), inc = "-I" + include_dir;
    // -default-device: a helper written without __device__ compiles as it does for the emulator's host compiler;
    // -lineinfo: compute-sanitizer and the profilers name the student's lines; -fmad=false: a combine's a * b is
    // never fused into a later a + b (the emulator rounds each, so the bits would differ)
    const char* opts[] = {arch_opt.c_str(), "-std=c++20", inc.c_str(), "-default-device", "-lineinfo", "-fmad=false"};
    const nvrtcResult r = nvrtcCompileProgram(prog, 6, opts);
    GpuProgram p;
    size_t n = 0;
    nv(nvrtcGetProgramLogSize(prog, &n), "nvrtcGetProgramLogSize");
    p.log.assign(n, '\0');
    nv(nvrtcGetProgramLog(prog, p.log.data()), "nvrtcGetProgramLog");
    while (!p.log.empty() && (p.log.back() == '\0' || p.log.back() == '\n')) p.log.pop_back();
    if (r == NVRTC_ERROR_COMPILATION) return p;
    nv(r, "nvrtcCompileProgram");
    size_t size = 0;
    nv(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    p.cubin.resize(size);
    nv(nvrtcGetCUBIN(prog, p.cubin.data()), "nvrtcGetCUBIN");
    p.ok = true;
    return p;
}

}  // namespace rl::student
