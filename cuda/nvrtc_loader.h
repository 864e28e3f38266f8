// cuda/nvrtc_loader.h — NVRTC's entry points, opened at run time (dlopen): the programs that compile kernels with it
// start, and run on the CPU, where no CUDA toolkit is installed.
#pragma once
#include <nvrtc.h>

#include <string>

namespace rl::cuda_rtc {

struct NvrtcApi {
    decltype(&nvrtcCreateProgram) create = nullptr;
    decltype(&nvrtcCompileProgram) compile = nullptr;
    decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
    decltype(&nvrtcGetProgramLog) log = nullptr;
    decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
    decltype(&nvrtcGetCUBIN) cubin = nullptr;
    decltype(&nvrtcDestroyProgram) destroy = nullptr;
    decltype(&nvrtcGetErrorString) error_string = nullptr;
    decltype(&nvrtcAddNameExpression) add_name_expression = nullptr;  // a template's instance by name
    decltype(&nvrtcGetLoweredName) lowered_name = nullptr;             // its symbol in the cubin
};

// The loaded API. Throws rl::Error (one line) when libnvrtc.so cannot be opened or lacks an entry point.
const NvrtcApi& nvrtc_api();
// NVRTC's failure as rl::Error "WHAT: NVRTC's message" unless r is NVRTC_SUCCESS.
void check_nvrtc(nvrtcResult r, const char* what);

}  // namespace rl::cuda_rtc
