// student/cuda_compile.h — the front end for a plain CUDA file (one without RL_KERNEL): clang compiles its device
// side, with the lab's own CUDA headers (include/rlab/cuda) in place of a CUDA installation, into LLVM bitcode;
// its messages come back as diagnostics of the student's own file and lines. docs/plain-cuda.md, part 1.
#pragma once
#include <string>
#include <string_view>
#include <vector>
#include "student/cuda_source.h"  // is_plain_cuda
#include "student/kernel_run.h"

namespace rl::student {

struct CudaCompile {
    bool ok = false;
    std::string bitcode;                  // the device side's LLVM bitcode (-O1, line tables), when ok
    std::vector<Diagnostic> diagnostics;  // errors and warnings; warnings do not fail the compile
    std::string log;                      // clang's whole output
    std::string error;                    // when !ok: one line
    bool kernel_not_instantiated = false; // when !ok: every error is in the line that instantiates `kernel`
    std::string failed_instance;          // then: the instance whose line failed first (of several, a --launch plan's)
};

// The file name clang's messages give the line that instantiates --kernel NAME<ARGS> (compile_cuda_device).
inline constexpr const char* kKernelInstanceFile = "<rlab --kernel>";

// The clang this program runs: $RLAB_CLANG, else clang-14, else clang on PATH; empty when there is none.
std::string cuda_clang();

// The folder with the lab's CUDA headers (rlab_prelude.h, cuda_runtime.h, cooperative_groups.h ...): rlab/cuda
// under kernel_include_dir(). Throws rl::Error (one line) when they are not there.
std::string cuda_include_dir();

// clang's command line for a device-side compile of `source_path` into `bitcode_path`.
std::vector<std::string> cuda_compile_command(const std::string& clang, const std::string& include_dir,
                                              const std::string& source_path, const std::string& bitcode_path);

// Compiles `source`, the text of the file named `file` (the name diagnostics and line tables give; the file's
// folder is searched for its #include "..." headers). `kernel`, when it names a template's instance
// (NAME<ARGS>, checked by kernel_name_problem), is made to exist in the bitcode even when the file never launches
// it. Throws rl::Error when the lab's headers are not found.
CudaCompile compile_cuda_device(const std::string& file, const std::string& source, const std::string& kernel = {});
// The same for every kernel a --launch plan names: each template instance among them is made to exist.
CudaCompile compile_cuda_device(const std::string& file, const std::string& source, const std::vector<std::string>& kernels);

}  // namespace rl::student
