// cuda/student_compile.cpp — NVRTC compile of a student's kernel against rlab/kernel.h's device branch.
#include "cuda/student_compile.h"

#include <nvrtc.h>

#include <regex>
#include <sstream>

#include "core/error.h"

namespace rl::student {
namespace {

void nv(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw Error(std::string(what) + ": " + nvrtcGetErrorString(r));
}

std::string quoted(const std::string& s) {  // a string literal for #line
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + '"';
}

}  // namespace

std::string gpu_source_text(const std::string& file, const std::string& source, const std::string& name) {
    std::string text = "#line 1 " + quoted(file) + "\n" + source;
    if (!text.empty() && text.back() != '\n') text += '\n';
    return text + "RL_ENTRY(" + name + ")\n";
}

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log) {
    // NVRTC: `file.cu(12): error: expected a ";"`; `file.cu(3): warning #177-D: variable "x" was declared ...`
    static const std::regex nvrtc(R"(^(.+)\((\d+)\): (error|warning|remark|catastrophic error)( #[0-9A-Za-z-]+)?: (.*)$)");
    static const std::regex gnu(R"(^(.+):(\d+):(\d+): (error|warning|note): (.*)$)");
    std::vector<Diagnostic> out;
    std::istringstream in(log);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        Diagnostic d;
        if (std::regex_match(line, m, nvrtc)) {
            d.file = m[1];
            d.line = std::stoi(m[2]);
            d.message = std::string(m[3]) + ": " + std::string(m[5]);
        } else if (std::regex_match(line, m, gnu)) {
            d.file = m[1];
            d.line = std::stoi(m[2]);
            d.column = std::stoi(m[3]);
            d.message = std::string(m[4]) + ": " + std::string(m[5]);
        } else {
            continue;
        }
        out.push_back(std::move(d));
    }
    return out;
}

GpuProgram compile_for_gpu(const std::string& file, const std::string& source, const std::string& name, int arch,
                           const std::string& include_dir) {
    const std::string text = gpu_source_text(file, source, name);
    nvrtcProgram prog;
    nv(nvrtcCreateProgram(&prog, text.c_str(), file.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    struct Guard {
        nvrtcProgram& p;
        ~Guard() { nvrtcDestroyProgram(&p); }
    } guard{prog};
    const std::string arch_opt = "-arch=sm_" + std::to_string(arch), inc = "-I" + include_dir;
    // -default-device: a helper the student wrote without __device__ compiles as on the host compiler
    const char* opts[] = {arch_opt.c_str(), "-std=c++20", inc.c_str(), "-default-device", "-lineinfo"};
    const nvrtcResult r = nvrtcCompileProgram(prog, 5, opts);
    GpuProgram p;
    size_t n = 0;
    nv(nvrtcGetProgramLogSize(prog, &n), "nvrtcGetProgramLogSize");
    p.log.assign(n, '\0');
    nv(nvrtcGetProgramLog(prog, p.log.data()), "nvrtcGetProgramLog");
    while (!p.log.empty() && (p.log.back() == '\0' || p.log.back() == '\n')) p.log.pop_back();
    p.diagnostics = parse_nvrtc_log(p.log);
    if (r == NVRTC_ERROR_COMPILATION) return p;
    nv(r, "nvrtcCompileProgram");
    size_t size = 0;
    nv(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    p.cubin.resize(size);
    nv(nvrtcGetCUBIN(prog, p.cubin.data()), "nvrtcGetCUBIN");
    p.ok = true;
    return p;
}

}  // namespace rl::student
