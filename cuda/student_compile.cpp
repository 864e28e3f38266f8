// cuda/student_compile.cpp — NVRTC compile of a student's kernel against rlab/kernel.h's device branch. NVRTC is
// opened at run time (cuda/nvrtc_loader.h), so the runner starts and runs kernels on the CPU where no CUDA toolkit is installed.
#include "cuda/student_compile.h"

#include <string>

#include "core/error.h"
#include "cuda/nvrtc_loader.h"

namespace rl::student {
namespace {

using cuda_rtc::check_nvrtc;
const cuda_rtc::NvrtcApi& nvrtc() { return cuda_rtc::nvrtc_api(); }
void nv(nvrtcResult r, const char* what) { check_nvrtc(r, what); }

}  // namespace

GpuProgram compile_for_gpu(const std::string& file, const std::string& text, int arch, const std::string& include_dir) {
    nvrtcProgram prog;
    const cuda_rtc::NvrtcApi& api = nvrtc();
    nv(api.create(&prog, text.c_str(), file.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    struct Guard {
        nvrtcProgram& p;
        ~Guard() { nvrtc().destroy(&p); }
    } guard{prog};
    const std::string arch_opt = "-arch=sm_" + std::to_string(arch), inc = "-I" + include_dir;
    // -default-device: a helper written without __device__ compiles as it does for the emulator's host compiler;
    // -lineinfo: compute-sanitizer and the profilers name the student's lines; -fmad=false: a combine's a * b is
    // never fused into a later a + b (the emulator rounds each, so the bits would differ)
    const char* opts[] = {arch_opt.c_str(), "-std=c++20", inc.c_str(), "-default-device", "-lineinfo", "-fmad=false"};
    const nvrtcResult r = api.compile(prog, 6, opts);
    GpuProgram p;
    size_t n = 0;
    nv(api.log_size(prog, &n), "nvrtcGetProgramLogSize");
    p.log.assign(n, '\0');
    nv(api.log(prog, p.log.data()), "nvrtcGetProgramLog");
    while (!p.log.empty() && (p.log.back() == '\0' || p.log.back() == '\n')) p.log.pop_back();
    if (r == NVRTC_ERROR_COMPILATION) return p;
    nv(r, "nvrtcCompileProgram");
    size_t size = 0;
    nv(api.cubin_size(prog, &size), "nvrtcGetCUBINSize");
    p.cubin.resize(size);
    nv(api.cubin(prog, p.cubin.data()), "nvrtcGetCUBIN");
    p.ok = true;
    return p;
}

}  // namespace rl::student
