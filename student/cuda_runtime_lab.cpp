// student/cuda_runtime_lab.cpp — the lab's CUDA runtime for programs with main(): device pointers are reserved,
// inaccessible address ranges (a host dereference faults as on a GPU), every call is synchronous, and launches go
// to the ProgramDevice. The C functions are exported as __wrap_NAME (the host compile links the program with
// ld --wrap=NAME), so a real libcudart in the same process is never shadowed.
#include "student/cuda_runtime_lab.h"
#include <sys/mman.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include "core/error.h"

namespace rl::student {

namespace {

// The runtime API's error codes the lab returns (include/rlab/cuda/rlab_runtime_api.h numbers them as CUDA does).
enum : int {
    kSuccess = 0,
    kInvalidValue = 1,
    kMemoryAllocation = 2,
    kInvalidConfiguration = 9,
    kInvalidDevicePointer = 17,
    kInvalidMemcpyDirection = 21,
    kInvalidDevice = 101,
    kInvalidDeviceFunction = 98,
    kLaunchFailure = 719,
    kUnknown = 999,
};
enum : int { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3, kDefault = 4 };

// The device the lab stands for (sm_80, as the device compile targets): limits a launch is checked against.
constexpr uint32_t kMaxThreadsPerBlock = 1024;
constexpr uint64_t kMaxSharedPerBlock = 48 * 1024;
constexpr uint64_t kMaxAllocation = 1ull << 32;  // 4 GiB: far beyond a reduction the emulator can record

ProgramRuntime* g_current = nullptr;
std::mutex g_install;

uint64_t page_size() {
    static const uint64_t size = uint64_t(sysconf(_SC_PAGESIZE));
    return size;
}

}  // namespace

ProgramRuntime::ProgramRuntime(ProgramDevice& device) : device_(device), owner_(std::this_thread::get_id()) {}

ProgramRuntime::~ProgramRuntime() {
    uninstall();
    for (const auto& [start, a] : allocations_) munmap(reinterpret_cast<void*>(start), a.reserved);
}

ProgramRuntime* ProgramRuntime::current() { return g_current; }

void ProgramRuntime::install() {
    std::lock_guard<std::mutex> lock(g_install);
    g_current = this;
    owner_ = std::this_thread::get_id();
}

void ProgramRuntime::uninstall() {
    std::lock_guard<std::mutex> lock(g_install);
    if (g_current == this) g_current = nullptr;
}

bool ProgramRuntime::on_main_thread(const char* function) {
    if (std::this_thread::get_id() == owner_) return true;
    // Not an exception: thrown in the program's own thread it would end the process (std::terminate). The first
    // such call is remembered; the run ends with it once main() returns.
    std::lock_guard<std::mutex> lock(g_install);
    if (thread_problem_.empty())
        thread_problem_ = std::string(function) + " was called from a second host thread: host threads are not supported "
                                                  "in the lab; make every CUDA call from main()'s thread";
    return false;
}

std::string ProgramRuntime::thread_problem() const {
    std::lock_guard<std::mutex> lock(g_install);
    return thread_problem_;
}

int ProgramRuntime::fail(int error) {
    last_error_ = error;
    return error;
}

bool ProgramRuntime::resolve(const void* ptr, uint32_t& buffer, int64_t& offset, uint64_t& room) const {
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    auto it = allocations_.upper_bound(p);
    if (it == allocations_.begin()) return false;
    --it;
    // Within the reserved range: one past the end (and a little beyond) still names the buffer, so a kernel that
    // reads past it is told which buffer it overran.
    if (p - it->first >= it->second.reserved) return false;
    buffer = it->second.buffer;
    offset = int64_t(p - it->first);
    room = offset <= int64_t(it->second.bytes) ? it->second.bytes - uint64_t(offset) : 0;
    return true;
}

int ProgramRuntime::malloc_(void** ptr, uint64_t bytes) {
    if (!on_main_thread("cudaMalloc")) return kUnknown;
    if (!ptr) return fail(kInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return kSuccess;  // as CUDA: success and a null pointer
    if (bytes > kMaxAllocation) return fail(kMemoryAllocation);
    // The range a pointer names: its pages and one guard page, inaccessible from the host.
    const uint64_t reserved = (bytes + page_size() - 1) / page_size() * page_size() + page_size();
    void* range = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) return fail(kMemoryAllocation);
    uint32_t buffer = 0;
    try {
        buffer = device_.allocate(bytes);
    } catch (const Error& e) {
        munmap(range, reserved);
        throw ProgramStop{ProgramStop::Unsupported, 0, e.what()};
    }
    allocations_[reinterpret_cast<uintptr_t>(range)] = {buffer, bytes, reserved};
    *ptr = range;
    return kSuccess;
}

int ProgramRuntime::free_(void* ptr) {
    if (!on_main_thread("cudaFree")) return kUnknown;
    if (!ptr) return kSuccess;
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end()) return fail(kInvalidDevicePointer);
    device_.release(it->second.buffer);
    munmap(ptr, it->second.reserved);
    allocations_.erase(it);
    return kSuccess;
}

int ProgramRuntime::memcpy_(void* dst, const void* src, uint64_t bytes, int kind) {
    if (!on_main_thread("cudaMemcpy")) return kUnknown;
    if (bytes == 0) return kSuccess;
    if (!dst || !src) return fail(kInvalidValue);
    uint32_t db = 0, sb = 0;
    int64_t doff = 0, soff = 0;
    uint64_t droom = 0, sroom = 0;
    const bool d_dev = resolve(dst, db, doff, droom), s_dev = resolve(src, sb, soff, sroom);
    if (kind == kDefault) kind = d_dev ? (s_dev ? kDeviceToDevice : kHostToDevice) : (s_dev ? kDeviceToHost : kHostToHost);
    // A direction that does not fit the pointers is CUDA's invalid value (a host pointer as the device side).
    const bool want_d = kind == kHostToDevice || kind == kDeviceToDevice, want_s = kind == kDeviceToHost || kind == kDeviceToDevice;
    if (kind < kHostToHost || kind > kDeviceToDevice) return fail(kInvalidMemcpyDirection);
    if (want_d != d_dev || want_s != s_dev) return fail(kInvalidValue);
    if ((d_dev && bytes > droom) || (s_dev && bytes > sroom)) return fail(kInvalidValue);
    switch (kind) {
        case kHostToHost: std::memmove(dst, src, bytes); break;
        case kHostToDevice: device_.write(db, uint64_t(doff), src, bytes); break;
        case kDeviceToHost:
            device_.read(sb, uint64_t(soff), dst, bytes);
            to_host_.push_back({sb, uint64_t(soff), bytes, launches_});
            break;
        default: {
            std::vector<unsigned char> tmp(bytes);
            device_.read(sb, uint64_t(soff), tmp.data(), bytes);
            device_.write(db, uint64_t(doff), tmp.data(), bytes);
        }
    }
    return kSuccess;
}

int ProgramRuntime::memset_(void* ptr, int value, uint64_t bytes) {
    if (!on_main_thread("cudaMemset")) return kUnknown;
    if (bytes == 0) return kSuccess;
    uint32_t b = 0;
    int64_t off = 0;
    uint64_t room = 0;
    if (!resolve(ptr, b, off, room) || bytes > room) return fail(kInvalidValue);
    const std::vector<unsigned char> fill(bytes, static_cast<unsigned char>(value));
    device_.write(b, uint64_t(off), fill.data(), bytes);
    return kSuccess;
}

int ProgramRuntime::last_error(bool reset) {
    if (!on_main_thread("cudaGetLastError")) return kUnknown;
    const int e = last_error_;
    if (reset) last_error_ = kSuccess;
    return e;
}

unsigned ProgramRuntime::push_config(const uint32_t grid[3], const uint32_t block[3], uint64_t shared) {
    if (!on_main_thread("a kernel launch")) return kUnknown;
    Config c{};
    std::memcpy(c.grid, grid, sizeof c.grid);
    std::memcpy(c.block, block, sizeof c.block);
    c.shared = shared;
    configs_.push_back(c);
    return 0;
}

int ProgramRuntime::pop_config(uint32_t grid[3], uint32_t block[3], uint64_t* shared, void** stream) {
    if (configs_.empty()) return kInvalidConfiguration;
    const Config c = configs_.back();
    configs_.pop_back();
    std::memcpy(grid, c.grid, sizeof c.grid);
    std::memcpy(block, c.block, sizeof c.block);
    if (shared) *shared = c.shared;
    if (stream) *stream = nullptr;
    return kSuccess;
}

int ProgramRuntime::launch(const void* stub, const uint32_t grid[3], const uint32_t block[3], void** args, uint64_t shared) {
    if (!on_main_thread("a kernel launch")) return kUnknown;
    ProgramLaunch l;
    l.symbol = stub_symbol_ ? stub_symbol_(stub) : std::string();
    std::vector<ProgramParam> params;
    if (l.symbol.empty() || !device_.kernel_params(l.symbol, params)) return fail(kInvalidDeviceFunction);
    const uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
    if (threads == 0 || threads > kMaxThreadsPerBlock || grid[0] == 0 || grid[1] == 0 || grid[2] == 0 ||
        shared > kMaxSharedPerBlock)
        return fail(kInvalidConfiguration);
    std::memcpy(l.grid, grid, sizeof l.grid);
    std::memcpy(l.block, block, sizeof l.block);
    l.shared_bytes = shared;
    for (size_t i = 0; i < params.size(); ++i) {
        ProgramArg a;
        a.pointer = params[i].pointer;
        const uint32_t bytes = params[i].pointer ? 8 : std::min<uint32_t>(params[i].bytes, 8);
        if (!args || !args[i]) return fail(kInvalidValue);
        std::memcpy(&a.bits, args[i], bytes);
        if (a.pointer) {
            uint64_t room = 0;
            if (!resolve(reinterpret_cast<const void*>(uintptr_t(a.bits)), a.buffer, a.offset, room)) a.buffer = kNoBuffer;
        }
        l.args.push_back(a);
    }
    ++launches_;
    const std::string error = device_.launch(l);
    // The lab's launches complete before the call returns; a kernel that fails stops the program there, with the
    // kernel's own line (CUDA would report cudaErrorIllegalAddress later, at a synchronising call).
    if (!error.empty()) throw ProgramStop{ProgramStop::KernelFailed, 0, error};
    return kSuccess;
}

const char* program_error_string(int error) {
    switch (error) {
        case kSuccess: return "no error";
        case kInvalidValue: return "invalid argument";
        case kMemoryAllocation: return "out of memory";
        case kInvalidConfiguration: return "invalid configuration argument";
        case kInvalidDevicePointer: return "invalid device pointer";
        case kInvalidMemcpyDirection: return "invalid copy direction for memcpy";
        case kInvalidDeviceFunction: return "invalid device function";
        case kInvalidDevice: return "invalid device ordinal";
        case kLaunchFailure: return "unspecified launch failure";
        default: return "unknown error";
    }
}

namespace {
const char* error_name_of(int error) {
    switch (error) {
        case kSuccess: return "cudaSuccess";
        case kInvalidValue: return "cudaErrorInvalidValue";
        case kMemoryAllocation: return "cudaErrorMemoryAllocation";
        case kInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case kInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case kInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case kInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
        case kInvalidDevice: return "cudaErrorInvalidDevice";
        case kLaunchFailure: return "cudaErrorLaunchFailure";
        default: return "cudaErrorUnknown";
    }
}
}  // namespace

const char* program_error_name(int error) { return error_name_of(error); }

const std::vector<std::string>& program_runtime_symbols() {
    static const std::vector<std::string> names = {
        "cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaMemsetAsync",
        "cudaMallocHost", "cudaHostAlloc", "cudaFreeHost", "cudaDeviceSynchronize", "cudaDeviceReset",
        "cudaDeviceSetLimit", "cudaStreamSynchronize", "cudaGetLastError", "cudaPeekAtLastError",
        "cudaGetErrorString", "cudaGetErrorName", "cudaSetDevice", "cudaGetDevice", "cudaGetDeviceCount",
        "cudaGetDeviceProperties", "cudaDeviceGetAttribute", "cudaLaunchKernel", "__cudaPopCallConfiguration",
        // clang's `<<< >>>` calls the C++ declarations of include/rlab/cuda/rlab_runtime_api.h
        "_Z27__cudaPushCallConfiguration4dim3S_m21__rlab_default_stream",
        "_Z17cudaConfigureCall4dim3S_m21__rlab_default_stream",
        // exit() ends main(), not the runner (student/host_program.cpp catches it)
        "exit"};
    return names;
}

}  // namespace rl::student

// ---- the C API, as the program's calls reach it (ld --wrap=NAME: the program's NAME is __wrap_NAME) -----------
using rl::student::ProgramRuntime;
using rl::student::ProgramStop;

namespace {
// dim3 by value, laid out as include/rlab/cuda/rlab_types.h's (x86-64 passes it in two registers either way).
struct Dim3 {
    unsigned x, y, z;
};
// cudaDeviceProp as include/rlab/cuda/rlab_runtime_api.h declares it.
struct DeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
    size_t totalConstMem;
    int major, minor, multiProcessorCount, memoryClockRate, memoryBusWidth, l2CacheSize, maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, cooperativeLaunch;
};

ProgramRuntime& rt(const char* function) {
    ProgramRuntime* r = ProgramRuntime::current();
    if (!r) throw ProgramStop{ProgramStop::Unsupported, 0, std::string(function) + " was called outside the program's run"};
    return *r;
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) int __wrap_cudaMalloc(void** p, size_t bytes) { return rt("cudaMalloc").malloc_(p, bytes); }
__attribute__((visibility("default"))) int __wrap_cudaFree(void* p) { return rt("cudaFree").free_(p); }
__attribute__((visibility("default"))) int __wrap_cudaMemcpy(void* d, const void* s, size_t n, int kind) {
    return rt("cudaMemcpy").memcpy_(d, s, n, kind);
}
// The default stream only (a stream cannot be made): as synchronous as the lab's every other call.
__attribute__((visibility("default"))) int __wrap_cudaMemcpyAsync(void* d, const void* s, size_t n, int kind, void*) {
    return rt("cudaMemcpyAsync").memcpy_(d, s, n, kind);
}
__attribute__((visibility("default"))) int __wrap_cudaMemset(void* p, int v, size_t n) { return rt("cudaMemset").memset_(p, v, n); }
__attribute__((visibility("default"))) int __wrap_cudaMemsetAsync(void* p, int v, size_t n, void*) {
    return rt("cudaMemsetAsync").memset_(p, v, n);
}
// Pinned host memory is host memory to the lab.
__attribute__((visibility("default"))) int __wrap_cudaMallocHost(void** p, size_t bytes) {
    if (!p) return 1;
    *p = std::malloc(bytes ? bytes : 1);
    return *p ? 0 : 2;
}
__attribute__((visibility("default"))) int __wrap_cudaHostAlloc(void** p, size_t bytes, unsigned) { return __wrap_cudaMallocHost(p, bytes); }
__attribute__((visibility("default"))) int __wrap_cudaFreeHost(void* p) {
    std::free(p);
    return 0;
}
__attribute__((visibility("default"))) int __wrap_cudaDeviceSynchronize() {
    return rt("cudaDeviceSynchronize").on_main_thread("cudaDeviceSynchronize") ? 0 : 999;
}
__attribute__((visibility("default"))) int __wrap_cudaDeviceReset() { return 0; }
__attribute__((visibility("default"))) int __wrap_cudaDeviceSetLimit(int, size_t) { return 0; }
__attribute__((visibility("default"))) int __wrap_cudaStreamSynchronize(void*) { return 0; }
__attribute__((visibility("default"))) int __wrap_cudaGetLastError() { return rt("cudaGetLastError").last_error(true); }
__attribute__((visibility("default"))) int __wrap_cudaPeekAtLastError() { return rt("cudaPeekAtLastError").last_error(false); }
__attribute__((visibility("default"))) const char* __wrap_cudaGetErrorString(int e) { return rl::student::program_error_string(e); }
__attribute__((visibility("default"))) const char* __wrap_cudaGetErrorName(int e) { return rl::student::program_error_name(e); }
__attribute__((visibility("default"))) int __wrap_cudaSetDevice(int device) { return device == 0 ? 0 : 101; }
__attribute__((visibility("default"))) int __wrap_cudaGetDevice(int* device) {
    if (!device) return 1;
    *device = 0;
    return 0;
}
__attribute__((visibility("default"))) int __wrap_cudaGetDeviceCount(int* count) {
    if (!count) return 1;
    *count = 1;
    return 0;
}
__attribute__((visibility("default"))) int __wrap_cudaGetDeviceProperties(DeviceProp* p, int device) {
    if (!p) return 1;
    if (device != 0) return 101;
    *p = DeviceProp{};
    std::snprintf(p->name, sizeof p->name, "Reduction Lab emulator (sm_80)");
    p->totalGlobalMem = size_t(16) << 30;
    p->sharedMemPerBlock = 48 * 1024;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 8;
    p->minor = 0;
    p->multiProcessorCount = 1;  // the emulator runs one block at a time
    p->maxThreadsPerMultiProcessor = 2048;
    p->sharedMemPerMultiprocessor = 164 * 1024;
    p->regsPerMultiprocessor = 65536;
    p->l2CacheSize = 0;
    return 0;
}
__attribute__((visibility("default"))) int __wrap_cudaDeviceGetAttribute(int* value, int attr, int device) {
    if (!value) return 1;
    if (device != 0) return 101;
    switch (attr) {
        case 1: *value = 1024; return 0;       // max threads per block
        case 8: *value = 48 * 1024; return 0;  // max shared memory per block
        case 10: *value = 32; return 0;        // warp size
        case 16: *value = 1; return 0;         // multiprocessors
        case 39: *value = 2048; return 0;      // max threads per multiprocessor
        default: return 1;
    }
}
__attribute__((visibility("default"))) int __wrap_cudaLaunchKernel(const void* func, Dim3 grid, Dim3 block, void** args, size_t shared,
                                                                  void*) {
    const uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    return rt("cudaLaunchKernel").launch(func, g, b, args, shared);
}
__attribute__((visibility("default"))) int __wrap___cudaPopCallConfiguration(Dim3* grid, Dim3* block, size_t* shared, void** stream) {
    uint32_t g[3], b[3];
    uint64_t s = 0;
    const int e = rt("a kernel launch").pop_config(g, b, &s, stream);
    if (e) return e;
    if (grid) *grid = {g[0], g[1], g[2]};
    if (block) *block = {b[0], b[1], b[2]};
    if (shared) *shared = s;
    return 0;
}
// `k<<<grid, block, shared>>>(...)`: the stream parameter is an empty class, which the C++ ABI passes in no
// register, so three parameters receive the call.
__attribute__((visibility("default"))) unsigned rlab_push_call_configuration(Dim3 grid, Dim3 block, size_t shared) __asm__(
    "__wrap__Z27__cudaPushCallConfiguration4dim3S_m21__rlab_default_stream");
unsigned rlab_push_call_configuration(Dim3 grid, Dim3 block, size_t shared) {
    const uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    return rt("a kernel launch").push_config(g, b, shared);
}
__attribute__((visibility("default"))) int rlab_configure_call(Dim3 grid, Dim3 block, size_t shared) __asm__(
    "__wrap__Z17cudaConfigureCall4dim3S_m21__rlab_default_stream");
int rlab_configure_call(Dim3 grid, Dim3 block, size_t shared) {
    const uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    return int(rt("a kernel launch").push_config(g, b, shared));
}
// exit() inside the program ends main() (its status is the program's), not the runner that records it.
__attribute__((visibility("default"), noreturn)) void __wrap_exit(int code) { throw ProgramStop{ProgramStop::Exit, code, {}}; }

}  // extern "C"
