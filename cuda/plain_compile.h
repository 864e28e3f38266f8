// cuda/plain_compile.h — a plain CUDA file compiled as it is with NVRTC (no dialect, no prelude), for the GPU timer:
// its kernels' symbols by the names a launch plan gives them (templates' instances included). Needs no GPU.
#pragma once
#include <string>
#include <vector>

namespace rl::cuda {

struct PlainProgram {
    bool ok = false;
    std::vector<char> cubin;           // when ok: for sm_<arch>
    std::vector<std::string> symbols;  // when ok: the lowered name of each requested kernel, in order
    std::string log;                   // NVRTC's messages (`FILE(LINE): error: ...`)
};

// kernels: names as a plan writes them (harris4, harris6<64>). cuda_include: the toolkit's include folder
// (cooperative_groups.h and CCCL for files that include them). Throws rl::Error when NVRTC itself fails (missing,
// or a name it cannot look up), not for the file's own errors (ok false, log says them).
PlainProgram compile_plain_for_gpu(const std::string& file, const std::string& source, const std::vector<std::string>& kernels,
                                   int arch, const std::string& cuda_include);

}  // namespace rl::cuda
