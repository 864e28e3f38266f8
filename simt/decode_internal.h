// simt/decode_internal.h — what the decoder's files share: LLVM types, so no file outside simt/decode*.cpp includes it.
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <map>
#include <string>
#include "simt/program.h"

namespace rl::simt::detail {

// One line: "FILE:LINE: WHAT is not supported by the lab's CUDA emulator".
[[noreturn]] void unsupported(const std::string& file, uint32_t line, const std::string& what);

// The scalar register type of an LLVM type, or throws (vectors, structs, half, i128 ...) naming `where`.
Type scalar_type(const llvm::Type* t, const std::string& file, uint32_t line);

// The student's line of an instruction: the innermost location of its inlined-at chain that lies in the
// student's own file (a helper's call site there, not the lab's CUDA headers); 0 when none does.
uint32_t student_line(const llvm::Instruction& inst, const std::string& main_file);

struct ModuleContext {
    std::string file;       // as the student named it, for messages
    std::string main_file;  // the student's file name, as the line tables name it (the kernel's own file)
    const llvm::Module* module = nullptr;
};

// Decodes one kernel (calls already inlined).
Kernel decode_kernel(llvm::Function& f, const ModuleContext& ctx);

}  // namespace rl::simt::detail
