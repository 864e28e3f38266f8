// simt/decode.cpp — clang's device bitcode of a student's .cu file into simt::Module: read, inline, find kernels.
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <cctype>
#include <cstring>
#include <set>
#include "core/error.h"
#include "simt/decode_internal.h"

namespace rl::simt {

const char* type_name(Type t) {
    switch (t) {
        case Type::I1: return "bool";
        case Type::I8: return "char";
        case Type::I16: return "short";
        case Type::I32: return "int";
        case Type::I64: return "long long";
        case Type::F32: return "float";
        case Type::F64: return "double";
        default: return "a pointer";
    }
}

namespace detail {

void unsupported(const std::string& file, uint32_t line, const std::string& what) {
    throw Error(file + ":" + std::to_string(line) + ": " + what + " is not supported by the lab's CUDA emulator");
}

Type scalar_type(const llvm::Type* t, const std::string& file, uint32_t line) {
    if (t->isPointerTy()) return Type::Ptr;
    if (t->isFloatTy()) return Type::F32;
    if (t->isDoubleTy()) return Type::F64;
    if (t->isIntegerTy()) {
        switch (t->getIntegerBitWidth()) {
            case 1: return Type::I1;
            case 8: return Type::I8;
            case 16: return Type::I16;
            case 32: return Type::I32;
            case 64: return Type::I64;
            default: break;
        }
    }
    std::string name;
    if (t->isVectorTy()) name = "a vector value (float2, int4, ...)";
    else if (t->isHalfTy() || t->isBFloatTy()) name = "half precision";
    else if (t->isStructTy() || t->isArrayTy()) name = "a struct or array held in a register";
    else name = "a value of this type";
    unsupported(file, line, name);
}

uint32_t student_line(const llvm::Instruction& inst, const std::string& main_file) {
    for (const llvm::DILocation* loc = inst.getDebugLoc().get(); loc; loc = loc->getInlinedAt())
        if (loc->getFilename() == main_file) return loc->getLine();
    return 0;
}

}  // namespace detail

namespace {

using detail::unsupported;

std::unique_ptr<llvm::Module> read_module(const std::string& bitcode, const std::string& file, llvm::LLVMContext& ctx) {
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> m =
        llvm::parseIR(llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), file), diag, ctx);
    if (!m) throw Error(file + ": the compiled kernel cannot be read: " + diag.getMessage().str());
    return m;
}

// Kernels: the nvvm "kernel" annotation (clang's CUDA front end) or the ptx_kernel calling convention.
std::vector<llvm::Function*> kernels_of(llvm::Module& m) {
    std::set<llvm::Function*> marked;
    if (llvm::NamedMDNode* ann = m.getNamedMetadata("nvvm.annotations")) {
        for (const llvm::MDNode* node : ann->operands()) {
            if (node->getNumOperands() < 3) continue;
            auto* fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0));
            auto* key = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(1).get());
            auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(2));
            if (fn && key && key->getString() == "kernel" && value && value->isOne()) marked.insert(fn);
        }
    }
    std::vector<llvm::Function*> out;
    for (llvm::Function& f : m)
        if (!f.isDeclaration() && (marked.count(&f) || f.getCallingConv() == llvm::CallingConv::PTX_Kernel)) out.push_back(&f);
    return out;
}

// The student's file: the one that defines the kernel (the front end compiles a copy under `#line 1 "FILE"`, so
// the compile unit's own name is the copy's), else the compile unit's.
std::string main_file_of(const llvm::Function& kernel) {
    if (const llvm::DISubprogram* sp = kernel.getSubprogram()) return sp->getFilename().str();
    for (const llvm::DICompileUnit* cu : kernel.getParent()->debug_compile_units())
        if (cu->getFile()) return cu->getFilename().str();
    return {};
}

std::string demangled(const std::string& symbol) { return llvm::demangle(symbol); }

// reduce6<256u> from _Z7reduce6ILj256EEvPiS0_j: the name as a student would write it, template arguments included.
std::string function_name(const std::string& symbol) {
    llvm::ItaniumPartialDemangler d;
    if (d.partialDemangle(symbol.c_str())) return symbol;  // extern "C": the name itself
    size_t n = 0;
    char* buf = d.getFunctionName(nullptr, &n);
    std::string name = buf ? buf : symbol;
    std::free(buf);
    return name;
}

// Every call to a function with a body, inlined into f until none is left: the interpreter runs one flat body.
void inline_calls(llvm::Function& f, const detail::ModuleContext& ctx) {
    for (int round = 0;; ++round) {
        std::vector<llvm::CallBase*> calls;
        for (llvm::BasicBlock& bb : f)
            for (llvm::Instruction& i : bb)
                if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
                    if (llvm::Function* callee = call->getCalledFunction(); callee && !callee->isDeclaration()) {
                        if (callee == &f || round > 64)
                            unsupported(ctx.file, detail::student_line(i, ctx.main_file),
                                        "recursion (" + function_name(callee->getName().str()) + " calls itself)");
                        calls.push_back(call);
                    }
        if (calls.empty()) return;
        for (llvm::CallBase* call : calls) {
            const uint32_t line = detail::student_line(*call, ctx.main_file);
            const std::string callee = function_name(call->getCalledFunction()->getName().str());
            llvm::InlineFunctionInfo info;
            if (!llvm::InlineFunction(*call, info).isSuccess()) unsupported(ctx.file, line, "the call to " + callee);
        }
    }
}

}  // namespace

Module decode(const std::string& bitcode, const std::string& file) {
    llvm::LLVMContext llvm_ctx;
    std::unique_ptr<llvm::Module> m = read_module(bitcode, file, llvm_ctx);
    detail::ModuleContext ctx;
    ctx.file = file;
    ctx.module = m.get();
    Module out;
    out.file = file;
    for (llvm::Function* f : kernels_of(*m)) {
        ctx.main_file = main_file_of(*f);
        inline_calls(*f, ctx);
        Kernel k = detail::decode_kernel(*f, ctx);
        k.symbol = f->getName().str();
        k.signature = demangled(k.symbol);
        k.name = function_name(k.symbol);
        out.kernels.push_back(std::move(k));
    }
    return out;
}

namespace {
// reduce6<256u> and reduce6<256> name the same kernel: integer literal suffixes and spaces do not count.
std::string comparable(const std::string& name) {
    std::string out;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == ' ') continue;
        const bool suffix = (c == 'u' || c == 'U' || c == 'l' || c == 'L') && !out.empty() && std::isdigit(uint8_t(out.back()));
        if (suffix) {
            size_t j = i;
            while (j < name.size() && std::strchr("uUlL", name[j])) ++j;
            if (j == name.size() || !std::isalnum(uint8_t(name[j]))) {
                i = j - 1;
                continue;
            }
        }
        out += c;
    }
    return out;
}
}  // namespace

const Kernel& pick_kernel(const Module& m, const std::string& name) {
    std::string names;
    for (const Kernel& k : m.kernels) names += (names.empty() ? "" : ", ") + k.name;
    if (m.kernels.empty()) throw Error(m.file + ": no __global__ kernel in the file");
    if (name.empty()) {
        if (m.kernels.size() == 1) return m.kernels[0];
        throw Error(m.file + ": " + std::to_string(m.kernels.size()) + " __global__ kernels (" + names +
                    "): name the one to run with --kernel NAME");
    }
    for (const Kernel& k : m.kernels)
        if (k.name == name || k.symbol == name || comparable(k.name) == comparable(name)) return k;
    // reduce6 for reduce6<256u>, when only one instance carries that name.
    const Kernel* only = nullptr;
    int count = 0;
    for (const Kernel& k : m.kernels)
        if (k.name.rfind(name + "<", 0) == 0) only = &k, ++count;
    if (count == 1) return *only;
    throw Error(m.file + ": no kernel " + name + " (the file has " + names + ")");
}

}  // namespace rl::simt
