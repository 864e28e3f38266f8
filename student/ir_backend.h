// student/ir_backend.h — a student::KernelBackend over simt's interpreter: a plain CUDA kernel (decoded from clang's
// device bitcode) launched as the lab launches every kernel, K<<<grid, block, block * sizeof(T)>>>(in, out, n).
#pragma once
#include <memory>
#include <string>
#include "simt/program.h"
#include "student/kernel_backend.h"

namespace rl::student {

// The kernel `name` of `module` (empty: the file's only __global__). Throws rl::Error, one line, when there is no
// such kernel or its parameters are not (T* in, T* out, n) with T float, double or int and n an integer.
std::unique_ptr<KernelBackend> make_ir_backend(const simt::Module& module, const std::string& name);

}  // namespace rl::student
