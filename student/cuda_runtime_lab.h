// student/cuda_runtime_lab.h — the lab's own CUDA runtime for a student's program with main(): cudaMalloc, cudaMemcpy,
// cudaMemset, cudaFree, errors, device queries and clang's `<<< >>>` launch ABI, over a ProgramDevice (the runner's
// PlainSession on the SIMT engine; a recording fake in tests). docs/plain-cuda.md, "Programs with main()".
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace rl::student {

// A kernel parameter as the host side passes it: a pointer (8 bytes) or a scalar of `bytes` bytes.
struct ProgramParam {
    bool pointer = false;
    uint32_t bytes = 8;
};

// One launch argument: a device pointer (buffer + byte offset; buffer kNoBuffer for a null or a host pointer,
// whose raw value is in `bits`), or a scalar's bits (zero-extended).
inline constexpr uint32_t kNoBuffer = 0xffffffffu;
struct ProgramArg {
    bool pointer = false;
    uint32_t buffer = kNoBuffer;
    int64_t offset = 0;
    uint64_t bits = 0;
};

struct ProgramLaunch {
    std::string symbol;  // the device kernel's mangled name (the host stub's, with __device_stub__ taken out)
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    uint64_t shared_bytes = 0;
    std::vector<ProgramArg> args;
};

// What the program's CUDA calls do to the device. Buffers are numbered by the device; a launch runs at once
// (the lab's runtime is synchronous: every call completes before it returns, as if each were followed by
// cudaDeviceSynchronize) and returns "" or one line saying why the kernel failed.
class ProgramDevice {
public:
    virtual ~ProgramDevice() = default;
    // The kernel's parameters, or false when the module has no kernel of that symbol.
    virtual bool kernel_params(const std::string& symbol, std::vector<ProgramParam>& params) const = 0;
    virtual uint32_t allocate(uint64_t bytes) = 0;  // throws rl::Error (one line) when no more buffers fit
    virtual void release(uint32_t buffer) = 0;
    virtual void write(uint32_t buffer, uint64_t offset, const void* bytes, uint64_t size) = 0;
    virtual void read(uint32_t buffer, uint64_t offset, void* bytes, uint64_t size) = 0;
    virtual std::string launch(const ProgramLaunch& launch) = 0;
};

// Why the program must stop (thrown through main()): exit() was called, a kernel failed, or the program used what
// the lab does not run. Caught by run_program (student/host_program.h).
struct ProgramStop {
    enum Kind { Exit, KernelFailed, Unsupported } kind = Exit;
    int code = 0;         // Exit: exit()'s status
    std::string message;  // KernelFailed, Unsupported: one line
};

// The runtime's state for one program: device pointers handed out, the pending launch configuration, the last
// error, and what the program copied (for the lab's input and result: docs/plain-cuda.md).
class ProgramRuntime {
public:
    explicit ProgramRuntime(ProgramDevice& device);
    ~ProgramRuntime();
    ProgramRuntime(const ProgramRuntime&) = delete;
    ProgramRuntime& operator=(const ProgramRuntime&) = delete;

    // Maps a host stub's address (what `<<< >>>` and cudaLaunchKernel pass) to the device kernel's mangled name
    // ("" for an address that is no stub). Set when the program is loaded.
    void set_stub_symbol(std::function<std::string(const void*)> stub_symbol) { stub_symbol_ = std::move(stub_symbol); }

    // The runtime the exported cuda* functions reach (one at a time; nullptr: none, every call fails).
    static ProgramRuntime* current();
    void install();
    void uninstall();

    // What a program did, for the verdict and the trace.
    uint32_t launches() const { return launches_; }
    struct Copy {
        uint32_t buffer;
        uint64_t offset, bytes;
        uint32_t after_launches;  // launches made before the copy
    };
    const std::vector<Copy>& device_to_host() const { return to_host_; }

    // The C API's work (the exported functions call these).
    int malloc_(void** ptr, uint64_t bytes);
    int free_(void* ptr);
    int memcpy_(void* dst, const void* src, uint64_t bytes, int kind);
    int memset_(void* ptr, int value, uint64_t bytes);
    int last_error(bool reset);
    unsigned push_config(const uint32_t grid[3], const uint32_t block[3], uint64_t shared);
    int pop_config(uint32_t grid[3], uint32_t block[3], uint64_t* shared, void** stream);
    int launch(const void* stub, const uint32_t grid[3], const uint32_t block[3], void** args, uint64_t shared);

    // A device pointer's buffer and offset, or false for a pointer the runtime never handed out.
    bool resolve(const void* ptr, uint32_t& buffer, int64_t& offset, uint64_t& room) const;
    // False for a call from a thread other than the one that runs main() (host threads are outside the subset): the
    // call fails with cudaErrorUnknown and thread_problem() says so in one line.
    bool on_main_thread(const char* function);
    std::string thread_problem() const;

private:
    struct Allocation {
        uint32_t buffer;
        uint64_t bytes;     // what was asked for
        uint64_t reserved;  // the address range (whole pages)
    };
    ProgramDevice& device_;
    std::function<std::string(const void*)> stub_symbol_;
    std::map<uintptr_t, Allocation> allocations_;  // by start address
    struct Config {
        uint32_t grid[3], block[3];
        uint64_t shared;
    };
    std::vector<Config> configs_;  // pushed by `<<< >>>`, popped by the stub
    int last_error_ = 0;
    uint32_t launches_ = 0;
    std::vector<Copy> to_host_;
    std::thread::id owner_;
    std::string thread_problem_;
    int fail(int error);
};

// The names of the runtime functions a program may call; the host compile redirects each (ld --wrap) to the lab's
// __wrap_NAME, so that the lab's runtime never clashes with a real CUDA runtime linked into the same process.
const std::vector<std::string>& program_runtime_symbols();

// cudaGetErrorString's text for an error code.
const char* program_error_string(int error);
// cudaGetErrorName's: "cudaErrorInvalidValue".
const char* program_error_name(int error);

}  // namespace rl::student
