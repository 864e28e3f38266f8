// tests/cuda_frontend/cuda_ir.h — what the front end tests look at: a CUDA source compiled by compile_cuda_device
// and its bitcode as textual LLVM IR (llvm-dis-14), with small readers of that text.
#pragma once
#include <string>
#include <vector>
#include "student/cuda_compile.h"

namespace rl::student::test {

// Why a test cannot run here ("" when it can): clang is missing, or (need_ir) llvm-dis is.
std::string missing_tool(bool need_ir);

// Says "SKIPPED: why" (CTest reports the test skipped) and returns true when a tool is missing.
bool skip_without_tools(bool need_ir = true);

struct CudaIr {
    CudaCompile compile;
    std::string ir;  // the bitcode as text; empty when the compile failed
};

// Compiles `source` as the file `file` and disassembles the bitcode.
CudaIr compile_to_ir(const std::string& file, const std::string& source);

// A file of tests/cuda_frontend/kernels, read.
std::string kernel_source(const std::string& name);

// The body of the function named `name` (as mangled), "" when none.
std::string function_body(const std::string& ir, const std::string& name);

// How many call instructions in `ir` call `callee` ("llvm.nvvm.shfl.sync.down.i32", "vprintf").
int count_calls(const std::string& ir, const std::string& callee);

// How many lines of `ir` hold `text` ("atomicrmw fadd", "cmpxchg").
int count_lines(const std::string& ir, const std::string& text);

// The last operand of each call to `callee`, as written ("31", "%12").
std::vector<std::string> last_operands(const std::string& ir, const std::string& callee);

// The source lines (from the line tables) of the calls to `callee` in `function` (a mangled name; "": anywhere),
// in the order of the text; 0 for a call without a line.
std::vector<int> call_lines(const std::string& ir, const std::string& callee, const std::string& function = "");

// The errors of a compile (warnings left out).
std::vector<Diagnostic> errors_of(const CudaCompile& c);

}  // namespace rl::student::test
