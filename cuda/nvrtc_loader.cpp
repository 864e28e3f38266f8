// cuda/nvrtc_loader.cpp — libnvrtc.so opened once with dlopen, its entry points looked up (cuda/nvrtc_loader.h).
#include "cuda/nvrtc_loader.h"

#include <dlfcn.h>

#include <type_traits>

#include "core/error.h"

namespace rl::cuda_rtc {
namespace {

struct Loaded {
    NvrtcApi api;
    std::string missing;  // why NVRTC cannot be used ("" when it can)

    Loaded() {
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
        get(api.create, "nvrtcCreateProgram");
        get(api.compile, "nvrtcCompileProgram");
        get(api.log_size, "nvrtcGetProgramLogSize");
        get(api.log, "nvrtcGetProgramLog");
        get(api.cubin_size, "nvrtcGetCUBINSize");
        get(api.cubin, "nvrtcGetCUBIN");
        get(api.destroy, "nvrtcDestroyProgram");
        get(api.error_string, "nvrtcGetErrorString");
        get(api.add_name_expression, "nvrtcAddNameExpression");
        get(api.lowered_name, "nvrtcGetLoweredName");
        if (!ok) missing = "the NVRTC found (libnvrtc.so) lacks an entry point the lab needs";
    }
};

}  // namespace

const NvrtcApi& nvrtc_api() {
    static const Loaded n;
    if (!n.missing.empty()) throw Error(n.missing);
    return n.api;
}

void check_nvrtc(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw Error(std::string(what) + ": " + nvrtc_api().error_string(r));
}

}  // namespace rl::cuda_rtc
