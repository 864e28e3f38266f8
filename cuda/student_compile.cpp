// cuda/student_compile.cpp — NVRTC compile of a student's kernel against rlab/kernel.h's device branch. NVRTC is
// opened at run time (dlopen), so the runner starts and runs kernels on the CPU where no CUDA toolkit is installed.
#include "cuda/student_compile.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <string>
#include <type_traits>

#include "core/error.h"

namespace rl::student {
namespace {

// NVRTC's entry points, looked up once.
struct Nvrtc {
    decltype(&nvrtcCreateProgram) create = nullptr;
    decltype(&nvrtcCompileProgram) compile = nullptr;
    decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
    decltype(&nvrtcGetProgramLog) log = nullptr;
    decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
    decltype(&nvrtcGetCUBIN) cubin = nullptr;
    decltype(&nvrtcDestroyProgram) destroy = nullptr;
    decltype(&nvrtcGetErrorString) error_string = nullptr;
    std::string missing;  // why NVRTC cannot be used ("" when it can)

    Nvrtc() {
        void* h = nullptr;
        // the loader's path first, then the toolkit this program was built with
        for (const char* name : {"libnvrtc.so", "libnvrtc.so." RLAB_NVRTC_MAJOR, RLAB_NVRTC_LIBRARY})
            if ((h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
        if (!h) {
            missing = "NVRTC (libnvrtc.so) was not found: install the CUDA toolkit's NVRTC or use --backend cpu";
            return;
        }
        bool ok = true;
        auto get = [&](auto& fn, const char* sym) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, sym));
            ok = ok && fn;
        };
        get(create, "nvrtcCreateProgram");
        get(compile, "nvrtcCompileProgram");
        get(log_size, "nvrtcGetProgramLogSize");
        get(log, "nvrtcGetProgramLog");
        get(cubin_size, "nvrtcGetCUBINSize");
        get(cubin, "nvrtcGetCUBIN");
        get(destroy, "nvrtcDestroyProgram");
        get(error_string, "nvrtcGetErrorString");
        if (!ok) missing = "the NVRTC found (libnvrtc.so) lacks an entry point the lab needs";
    }
};
const Nvrtc& nvrtc() {
    static const Nvrtc n;
    if (!n.missing.empty()) throw Error(n.missing);
    return n;
}

void nv(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw Error(std::string(what) + ": " + nvrtc().error_string(r));
}

}  // namespace

GpuProgram compile_for_gpu(const std::string& file, const std::string& text, int arch, const std::string& include_dir) {
    nvrtcProgram prog;
    const Nvrtc& api = nvrtc();
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
