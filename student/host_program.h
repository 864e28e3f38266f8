// student/host_program.h — a plain CUDA program with main(): its host side compiled by clang into a shared object
// (student's own lines in the messages), loaded into the runner, and main() run against the lab's CUDA runtime
// (student/cuda_runtime_lab.h) with its output into a file of its own. docs/plain-cuda.md, "Programs with main()".
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "student/cuda_runtime_lab.h"
#include "student/kernel_run.h"

namespace rl::student {

struct HostProgramCompile;

// The host side of a program, compiled: a shared object in a private folder that lives as long as this does.
class HostProgram {
public:
    ~HostProgram();
    const std::string& library() const { return library_; }

private:
    friend HostProgramCompile compile_cuda_host_program(const std::string& file, const std::string& source);
    std::string folder_, library_;
};

struct HostProgramCompile {
    bool ok = false;
    std::shared_ptr<HostProgram> program;  // when ok
    std::vector<Diagnostic> diagnostics;   // clang's errors and warnings in the student's file
    std::string log;                       // clang's whole output
    std::string error;                     // when !ok: one line
};

// clang's command line for the host side of `source_path` into the shared object `library_path`.
std::vector<std::string> cuda_host_compile_command(const std::string& clang, const std::string& include_dir,
                                                   const std::string& source_path, const std::string& library_path);

// Compiles the host side of `source` (the text of `file`) with the lab's CUDA headers in program mode
// (__RLAB_HOST_PROGRAM: what the lab's runtime does not run, events, managed memory, symbols, is an error at its
// line). Throws rl::Error when the lab's headers are not found.
HostProgramCompile compile_cuda_host_program(const std::string& file, const std::string& source);

// How a program's run ended.
struct ProgramOutcome {
    enum End { Returned, Exited, KernelFailed, Unsupported, LoadFailed, Threw } end = Returned;
    int status = 0;       // Returned: main()'s value; Exited: exit()'s status
    std::string message;  // otherwise: one line
};

// Loads the program and runs main(1, {file}) with `runtime` installed. The program's stdout and stderr (file
// descriptors 1 and 2) go to `output_path` while it runs (empty: they stay the caller's), and come back to the
// caller's afterwards. `before_main` runs just before main(), before the redirect (the runner arms its time limit
// there, keeping its own stderr for the time limit's line).
ProgramOutcome run_host_program(const HostProgram& program, const std::string& file, ProgramRuntime& runtime,
                                const std::string& output_path, const std::function<void()>& before_main = {});

// The host stubs of a loaded program by address: a host stub `__device_stub__k` is what `k<<<...>>>` passes to
// cudaLaunchKernel; the name returned is the device kernel's mangled name. Reads the object's symbol table (a
// `static __global__` kernel's stub is no dynamic symbol).
class StubTable {
public:
    // Throws rl::Error when the file cannot be read as an ELF shared object.
    explicit StubTable(const std::string& library);
    // `base`: the object's load address (dladdr's dli_fbase).
    std::string kernel_symbol(const void* stub, const void* base) const;
    size_t size() const { return stubs_.size(); }

private:
    std::vector<std::pair<uint64_t, std::string>> stubs_;  // offset in the object, kernel symbol; sorted
};

// The device kernel's mangled name of a host stub's (`_Z16__device_stub__kPKfPfi` -> `_Z1kPKfPfi`), or "" when
// `stub` is no stub's name.
std::string kernel_symbol_of_stub(const std::string& stub);

}  // namespace rl::student
