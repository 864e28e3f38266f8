// tests/gpu/nvrtc_runner.cpp — NVRTC compile of kernel_source(s) and a driver-API launch on the primary
// context (the one the runtime-based instrumented capture uses too).
#include "tests/gpu/nvrtc_runner.h"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "codegen/kernel_source.h"
#include "core/emulator.h"
#include "core/error.h"

namespace rl::test {
namespace {

// The runtime API (linked statically, it opens the driver at run time), so that this test starts and
// skips on machines without a driver, as the other gpu suites do.
void cu(cudaError_t r, const char* what) {
    if (r != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(r));
}
#define CU(call) cu((call), #call)

void nv(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string(what) + ": " + nvrtcGetErrorString(r));
}

struct Device {
    int major = 0, minor = 0, sms = 0;
    Device() {
        int dev = 0;
        CU(cudaGetDevice(&dev));
        CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
        CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    }
};
const Device& device() {
    static Device d;
    return d;
}

struct Compiled {
    std::vector<char> cubin;
    std::string reduce, finish;  // lowered names
};

Compiled compile(const std::string& src, const Device& d, bool two_pass) {
    nvrtcProgram prog;
    nv(nvrtcCreateProgram(&prog, src.c_str(), "generated.cu", 0, nullptr, nullptr), "nvrtcCreateProgram");
    struct Guard {
        nvrtcProgram& p;
        ~Guard() { nvrtcDestroyProgram(&p); }
    } guard{prog};
    nv(nvrtcAddNameExpression(prog, "reduce"), "nvrtcAddNameExpression");
    if (two_pass) nv(nvrtcAddNameExpression(prog, "finish"), "nvrtcAddNameExpression");
    const std::string arch = "--gpu-architecture=sm_" + std::to_string(d.major * 10 + d.minor);
    // the toolkit's headers, and CCCL's (cooperative_groups.h includes <cuda/std/...>)
    const std::string inc = std::string("-I") + RLAB_CUDA_INCLUDE, cccl = inc + "/cccl";
    const char* opts[] = {arch.c_str(), "-std=c++17", inc.c_str(), cccl.c_str()};
    if (nvrtcCompileProgram(prog, 4, opts) != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        std::string log(n, '\0');
        nvrtcGetProgramLog(prog, log.data());
        throw std::runtime_error("NVRTC could not compile the generated source:\n" + log);
    }
    Compiled c;
    const char* name = nullptr;
    nv(nvrtcGetLoweredName(prog, "reduce", &name), "nvrtcGetLoweredName");
    c.reduce = name;
    if (two_pass) {
        nv(nvrtcGetLoweredName(prog, "finish", &name), "nvrtcGetLoweredName");
        c.finish = name;
    }
    size_t size = 0;
    nv(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    c.cubin.resize(size);
    nv(nvrtcGetCUBIN(prog, c.cubin.data()), "nvrtcGetCUBIN");
    return c;
}

struct Buffers {
    void* p[4] = {nullptr, nullptr, nullptr, nullptr};  // in, partials, out, done
    ~Buffers() {
        for (void* x : p)
            if (x) cudaFree(x);
    }
};

}  // namespace

unsigned value_bytes(const Schedule& s) {
    const bool two_part = s.op == Op::ArgMax || s.op == Op::SumCount || s.op == Op::Witness;
    return two_part || s.type == DType::F64 ? 8 : 4;
}

GeneratedRun run_generated(const Schedule& s, const InputData& in, double seconds) {
    const Device& d = device();
    const GridStage gs = s.effective_grid_stage();
    const uint32_t G = s.grid_size(), B = s.block, P = s.finish_threads();
    const bool two_pass = gs == GridStage::TwoPass && G > 1;
    const Compiled c = compile(kernel_source(s).text(), d, two_pass);

    cudaLibrary_t lib = nullptr;
    CU(cudaLibraryLoadData(&lib, c.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    struct LibraryGuard {
        cudaLibrary_t l;
        ~LibraryGuard() { cudaLibraryUnload(l); }
    } library_guard{lib};
    cudaKernel_t reduce = nullptr, finish = nullptr;
    CU(cudaLibraryGetKernel(&reduce, lib, c.reduce.c_str()));
    if (two_pass) CU(cudaLibraryGetKernel(&finish, lib, c.finish.c_str()));

    GeneratedRun run;
    const bool cooperative = gs == GridStage::Cooperative && G > 1;
    if (cooperative) {
        int per_sm = 0;
        CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(reduce), int(B), 0));
        if (uint64_t(per_sm) * uint64_t(d.sms) < G) {
            run.why = "the cooperative grid of " + std::to_string(G) + " blocks cannot be resident at once";
            return run;
        }
    }
    Buffers b;
    const size_t in_bytes = in.size() * in.element_bytes();
    CU(cudaMalloc(&b.p[0], in_bytes));
    CU(cudaMalloc(&b.p[1], size_t(G) * 8));
    CU(cudaMalloc(&b.p[2], 8));
    CU(cudaMalloc(&b.p[3], 4));
    CU(cudaMemcpy(b.p[0], in.data(), in_bytes, cudaMemcpyHostToDevice));
    CU(cudaMemset(b.p[1], 0, size_t(G) * 8));
    const uint64_t start = identity_bits(s);  // what the atomics combine into (0 under wrong-identity)
    CU(cudaMemcpy(b.p[2], &start, 8, cudaMemcpyHostToDevice));
    CU(cudaMemset(b.p[3], 0, 4));
    cudaStream_t stream = nullptr;
    CU(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    void* args[] = {&b.p[0], &b.p[1], &b.p[2], &b.p[3]};
    const void* reduce_fn = reinterpret_cast<const void*>(reduce);
    if (cooperative) CU(cudaLaunchCooperativeKernel(reduce_fn, dim3(G), dim3(B), args, 0, stream));
    else CU(cudaLaunchKernel(reduce_fn, dim3(G), dim3(B), args, 0, stream));
    if (two_pass) {
        void* fargs[] = {&b.p[1], &b.p[2]};
        CU(cudaLaunchKernel(reinterpret_cast<const void*>(finish), dim3(1), dim3(P), fargs, 0, stream));
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const cudaError_t q = cudaStreamQuery(stream);
        if (q == cudaSuccess) break;
        if (q != cudaErrorNotReady) cu(q, "the generated kernel failed (cudaStreamQuery)");
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds)
            throw DeviceHung("the generated kernel did not finish within " + std::to_string(int(seconds)) + " s");
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    uint64_t bits = 0;
    CU(cudaMemcpy(&bits, b.p[2], 8, cudaMemcpyDeviceToHost));
    CU(cudaStreamDestroy(stream));
    if (value_bytes(s) == 4) bits &= 0xffffffffull;
    run.ran = true;
    run.bits = bits;
    return run;
}

}  // namespace rl::test
