// tests/cuda_frontend/cuda_ir.cpp — compile, disassemble with llvm-dis-14, and read the IR text for the tests.
#include "cuda_ir.h"
#include <doctest/doctest.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "student/process.h"

namespace rl::student::test {

namespace fs = std::filesystem;

namespace {

std::string llvm_dis() {
    for (const char* name : {"llvm-dis-14", "llvm-dis"})
        if (!find_on_path(name).empty()) return name;
    return {};
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

bool is_call_to(const std::string& line, const std::string& callee) {
    return line.find("call ") != std::string::npos && line.find("@" + callee + "(") != std::string::npos &&
           line.rfind("declare ", 0) != 0;
}

}  // namespace

std::string missing_tool(bool need_ir) {
    if (cuda_clang().empty()) return "clang-14 is not on PATH (install the clang-14 package)";
    if (need_ir && llvm_dis().empty()) return "llvm-dis-14 is not on PATH (install the llvm-14 package)";
    return {};
}

bool skip_without_tools(bool need_ir) {
    const std::string why = missing_tool(need_ir);
    if (why.empty()) return false;
    MESSAGE("SKIPPED: " << why);
    return true;
}

CudaIr compile_to_ir(const std::string& file, const std::string& source) {
    CudaIr out;
    out.compile = compile_cuda_device(file, source);
    if (!out.compile.ok) return out;
    char dir[] = "/tmp/rlab-cuda-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    const fs::path bc = fs::path(dir) / "kernel.bc";
    {
        std::ofstream f(bc, std::ios::binary);
        f << out.compile.bitcode;
    }
    const ProcessResult r = run_process({llvm_dis(), "-o", "-", bc.string()}, 60.0, false, size_t(64) << 20);
    std::error_code ec;
    fs::remove_all(dir, ec);
    REQUIRE_MESSAGE(r.exit_code == 0, r.output);
    out.ir = r.output;
    return out;
}

std::string kernel_source(const std::string& name) {
    std::ifstream f(std::string(RLAB_SOURCE_DIR) + "/tests/cuda_frontend/kernels/" + name, std::ios::binary);
    REQUIRE_MESSAGE(f.good(), "missing test kernel " << name);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string function_body(const std::string& ir, const std::string& name) {
    std::string body;
    bool in = false;
    for (const std::string& line : lines_of(ir)) {
        if (!in && line.rfind("define ", 0) == 0 && line.find("@" + name + "(") != std::string::npos) in = true;
        if (in) {
            body += line + "\n";
            if (line == "}") break;
        }
    }
    return body;
}

int count_calls(const std::string& ir, const std::string& callee) {
    int n = 0;
    for (const std::string& line : lines_of(ir)) n += is_call_to(line, callee);
    return n;
}

int count_lines(const std::string& ir, const std::string& text) {
    int n = 0;
    for (const std::string& line : lines_of(ir)) n += line.find(text) != std::string::npos;
    return n;
}

std::vector<std::string> last_operands(const std::string& ir, const std::string& callee) {
    std::vector<std::string> out;
    for (const std::string& line : lines_of(ir)) {
        if (!is_call_to(line, callee)) continue;
        const size_t open = line.find("@" + callee + "(") + callee.size() + 2;
        const size_t close = line.find(')', open);
        const std::string args = line.substr(open, close - open);
        const size_t comma = args.rfind(',');
        std::string last = args.substr(comma == std::string::npos ? 0 : comma + 1);
        last = last.substr(last.find_last_of(' ') + 1);
        out.push_back(last);
    }
    return out;
}

std::vector<int> call_lines(const std::string& ir, const std::string& callee, const std::string& function) {
    std::vector<int> out;
    for (const std::string& line : lines_of(function.empty() ? ir : function_body(ir, function))) {
        if (!is_call_to(line, callee)) continue;
        const size_t at = line.find("!dbg !");
        int source_line = 0;
        if (at != std::string::npos) {
            const size_t end = line.find_first_not_of("0123456789", at + 6);
            const std::string key = "\n" + line.substr(at + 5, end - (at + 5)) + " = !DILocation(line: ";
            const size_t def = ir.find(key);
            if (def != std::string::npos) source_line = std::atoi(ir.c_str() + def + key.size());
        }
        out.push_back(source_line);
    }
    return out;
}

std::vector<Diagnostic> errors_of(const CudaCompile& c) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : c.diagnostics)
        if (d.message.rfind("warning: ", 0) != 0) out.push_back(d);
    return out;
}

}  // namespace rl::student::test
