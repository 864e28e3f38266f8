// student/ir_backend.h — a student::KernelBackend over simt's interpreter: a plain CUDA kernel (decoded from clang's
// device bitcode) launched as the lab launches every kernel, K<<<grid, block, block * sizeof(T)>>>(in, out, n).
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "simt/program.h"
#include "student/cuda_source.h"
#include "student/kernel_backend.h"

namespace rl::student {

// The kernel `name` of `module` (empty: the file's only __global__). Throws rl::Error, one line, when there is no
// such kernel or its parameters are not (T* in, T* out, n) with T float, double or int and n an integer.
std::unique_ptr<KernelBackend> make_ir_backend(const simt::Module& module, const std::string& name);
// The same for a kernel already chosen (choose_kernel); `file` names it in the signature's error.
std::unique_ptr<KernelBackend> make_ir_backend(const simt::Kernel& kernel, const std::string& file);

// Throws rl::Error (one line, FILE:LINE: the signature) unless `kernel` takes the lab's one launch
// K<<<grid, block, block * sizeof(T)>>>(in, out, n): (T* in, T* out, an integer n), T float, double or int.
void check_contract_signature(const simt::Kernel& kernel, const std::string& file);

// The kernel a run names (docs/plain-cuda.md, the launch contract): `name` (NAME, or a template's instance
// NAME<ARGS>, matched as simt::pick_kernel matches: reduce6<256> is reduce6<256u>), or the file's only kernel when
// `name` is empty. `declared` (cuda_kernel_declarations of the file's text) adds the templates no launch
// instantiated to the kernels the messages list; `block` makes their example (harris6<256>). Throws rl::Error with one
// line, without the file's name: a name that is not there, a file of several kernels and no name, a template named
// without its arguments.
const simt::Kernel& choose_kernel(const simt::Module& module, const std::string& name,
                                  const std::vector<CudaKernelDecl>& declared, uint32_t block);

}  // namespace rl::student
