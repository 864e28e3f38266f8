// student/cuda_source.h — what a kernel file's text says before any compile: plain CUDA or the lab's dialect, the
// __global__ functions it declares (for the kernel list of --kernel's messages and the front ends' kernel field),
// and whether a --kernel NAME can be a kernel's name at all. No compiler is run: both front ends use it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::student {

// True when the file is plain CUDA, as nvcc takes it: the word RL_KERNEL appears nowhere and no line includes the
// lab's dialect (#include <rlab/kernel.h> or "rlab/kernel.h"). A dialect file without RL_KERNEL stays a dialect file,
// so that the dialect's compile says what it lacks.
bool is_plain_cuda(std::string_view source);

// The line of the file's `int main(` at file scope (comments, strings and preprocessor lines left out), or 0: a
// plain CUDA file with main() runs as a program (docs/plain-cuda.md, "Programs with main()").
int main_function_line(std::string_view source);

// One __global__ function the file itself declares (not its headers).
struct CudaKernelDecl {
    std::string name;             // the function's name as written: harris6
    bool is_template = false;     // declared under `template <...>`
    std::string template_params;  // the parameters as written, when a template: "unsigned int blockSize"
    int line = 0;                 // of the name
};

// The __global__ functions of `source`, each name once, in the order of the file. A scan of the text with comments,
// strings and preprocessor lines left out, not a compile: a kernel a macro spells is missed, and an explicit
// instantiation (`template __global__ void f<64>(...)`) is no declaration. What runs is decided from the compiled
// kernels; this list words the messages about templates no launch instantiated, and fills the kernel field.
std::vector<CudaKernelDecl> cuda_kernel_declarations(std::string_view source);

// What to type after --kernel for `k`: the name, or for a template the name with example arguments: the block size
// when the template takes one integer (`harris6<256>`), else `NAME<ARGS>`.
std::string kernel_name_example(const CudaKernelDecl& k, uint32_t block);

// The declared kernels as a list for a message: "block_partials, harris6<...> (a template)"; "" for none.
std::string declared_kernel_list(const std::vector<CudaKernelDecl>& declared);

// The line (no file name) for --kernel NAME<ARGS> when clang could not instantiate it: no template of the file
// takes those arguments, NAME is no template, or the file has no kernel NAME.
std::string kernel_instance_problem(const std::string& name, const std::vector<CudaKernelDecl>& declared, uint32_t block);

// Why `name` cannot be a --kernel NAME (one line: the characters a kernel's name, and a template's arguments, are
// written with), or empty. The name goes into the device-side compile when it names a template's instance, so
// nothing but a name and its template arguments passes.
std::string kernel_name_problem(std::string_view name);

}  // namespace rl::student
