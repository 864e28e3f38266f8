// student/cuda_compile.cpp — clang -x cuda --cuda-device-only on a student's plain CUDA file, in a private
// temporary folder, with `#line 1 "FILE"` so that messages and line tables name the student's file and lines.
#include "student/cuda_compile.h"
#include <algorithm>
#include <unistd.h>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "core/error.h"
#include "student/diagnostics.h"
#include "student/host_compile.h"
#include "student/process.h"

namespace rl::student {

namespace fs = std::filesystem;

namespace {

constexpr double kCudaClangTimeLimit = 120.0;

std::string cuda_quoted(const std::string& file) {
    std::string q = "\"";
    for (char c : file) {
        if (c == '"' || c == '\\') q += '\\';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

constexpr const char* kSubsetDoc = "docs/student-kernels.md, Plain CUDA";

// Two of clang's messages say what went wrong but not what the lab offers: a kernel launched in device code
// (clang: a reference to a __global__ function) and a host function called from device code (clang: no matching
// function, with a note that the candidate is __host__). The error line gets the explanation.
std::string explain_cuda_log(const std::string& log) {
    std::vector<std::string> lines;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    size_t last_error = lines.size();
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string& line = lines[i];
        if (line.find(": error: ") != std::string::npos) {
            last_error = i;
            if (line.find(": error: reference to __global__ function") != std::string::npos)
                line += std::string(" (a kernel launch inside device code, dynamic parallelism, is not supported in "
                                    "the lab; launch kernels from host code: ") + kSubsetDoc + ")";
        } else if (line.find(": warning: ") != std::string::npos) {
            last_error = lines.size();
        } else if (last_error < lines.size() && line.find("call to __host__ function from __") != std::string::npos) {
            std::string& error = lines[last_error];
            if (error.find(": error: no matching function for call to") != std::string::npos)
                error += std::string(" (it is a host function: device code calls __device__ functions; of the math "
                                     "library the lab has fmaxf, fminf, fmax, fmin, fabsf, fabs, max, min: ") +
                         kSubsetDoc + ")";
            last_error = lines.size();
        }
    }
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

// A private folder for the source and the bitcode, removed when the compile ends.
struct CudaTempDir {
    fs::path path;
    CudaTempDir() {
        std::error_code ec;
        std::string base = fs::temp_directory_path(ec).string();
        if (ec || base.empty()) base = "/tmp";
        std::string tmpl = base + "/rlab-cuda-XXXXXX";
        if (mkdtemp(tmpl.data())) path = tmpl;
    }
    ~CudaTempDir() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

}  // namespace

std::string cuda_clang() {
    if (const char* c = std::getenv("RLAB_CLANG"); c && *c) return c;
    for (const char* name : {"clang-14", "clang"})
        if (!find_on_path(name).empty()) return name;
    return {};
}

std::string cuda_include_dir() {
    const fs::path dir = fs::path(kernel_include_dir()) / "rlab" / "cuda";
    if (!fs::exists(dir / "rlab_prelude.h"))
        throw Error("the lab's CUDA headers were not found in " + dir.string() +
                    " (set RLAB_INCLUDE_DIR to the folder that holds rlab/cuda/rlab_prelude.h)");
    return dir.string();
}

std::vector<std::string> cuda_compile_command(const std::string& clang, const std::string& include_dir,
                                              const std::string& source_path, const std::string& bitcode_path) {
    return {clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
            "-Wno-unknown-cuda-version",
            // clang 14 offers the __nvvm_shfl_sync_* builtins only with PTX 7.0 enabled.
            "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-std=c++17", "-O1", "-gline-tables-only",
            "-fno-color-diagnostics", "-emit-llvm", "-c", "-o", bitcode_path, "-include",
            include_dir + "/rlab_prelude.h", "-I", include_dir, source_path};
}

CudaCompile compile_cuda_device(const std::string& file, const std::string& source, const std::string& kernel) {
    return compile_cuda_device(file, source, kernel.empty() ? std::vector<std::string>{} : std::vector<std::string>{kernel});
}

CudaCompile compile_cuda_device(const std::string& file, const std::string& source, const std::vector<std::string>& kernels) {
    CudaCompile out;
    const std::string clang = cuda_clang();
    if (clang.empty()) {
        out.error = "clang-14 was not found: install the clang-14 package (or set RLAB_CLANG to a clang)";
        return out;
    }
    if (find_on_path(clang).empty()) {
        out.error = "RLAB_CLANG=" + clang + " was not found or is not executable";
        return out;
    }
    const std::string include = cuda_include_dir();
    CudaTempDir tmp;
    if (tmp.path.empty()) {
        out.error = "cannot create a temporary folder for the CUDA compile";
        return out;
    }
    std::vector<std::string> instances;  // line k of kKernelInstanceFile instantiates instances[k - 1]
    for (const std::string& k : kernels)
        if (k.find('<') != std::string::npos && std::find(instances.begin(), instances.end(), k) == instances.end()) instances.push_back(k);
    const bool instance_line = !instances.empty();
    const fs::path src = tmp.path / "kernel.cu";
    const fs::path bc = tmp.path / "kernel.bc";
    {
        // A byte-order mark is the file's start only while it is first; after the #line it would be text.
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        const std::string_view text = std::string_view(source).substr(source.rfind(bom, 0) == 0 ? bom.size() : 0);
        std::ofstream f(src, std::ios::binary);
        f << "#line 1 " << cuda_quoted(file) << "\n" << text;
        if (!text.empty() && text.back() != '\n') f << '\n';
        // clang emits a template kernel's instance only where the file instantiates it (a launch, an explicit
        // instantiation). Taking the instance's address in a host function instantiates it as a launch would, with
        // no need to know its parameters; its errors name a file of their own (kKernelInstanceFile).
        if (instance_line) {
            f << "#line 1 " << cuda_quoted(kKernelInstanceFile) << "\n";
            for (size_t k = 0; k < instances.size(); ++k)
                f << "[[maybe_unused]] static void rlab_kernel_instance_" << k << "_() { (void)&" << instances[k] << "; }\n";
        }
        if (!f) {
            out.error = "cannot write " + src.string();
            return out;
        }
    }
    std::vector<std::string> argv = cuda_compile_command(clang, include, src.string(), bc.string());
    // #include "x.h" is looked up next to the copy first; the student's own folder holds x.h.
    std::error_code ec;
    const fs::path folder = fs::absolute(fs::path(file), ec).parent_path();
    if (!ec && !folder.empty() && fs::is_directory(folder, ec)) argv.insert(argv.end() - 1, {"-iquote", folder.string()});
    ProcessResult r = run_process(argv, kCudaClangTimeLimit, false);
    out.log = explain_cuda_log(r.output);
    out.diagnostics = parse_diagnostics(out.log);
    if (!r.started) {
        out.error = r.start_error;
        return out;
    }
    if (r.timed_out || r.exit_code != 0) {
        out.kernel_not_instantiated = instance_line && !r.timed_out && !out.diagnostics.empty();
        for (const Diagnostic& d : out.diagnostics) {
            out.kernel_not_instantiated &= d.file == kKernelInstanceFile || d.message.rfind("warning: ", 0) == 0;
            if (d.file == kKernelInstanceFile && out.failed_instance.empty() && d.line >= 1 && size_t(d.line) <= instances.size())
                out.failed_instance = instances[size_t(d.line) - 1];
        }
        const std::string first = first_error_line(out.diagnostics);
        out.error = r.timed_out     ? "clang did not finish within 120 s"
                    : first.empty() ? "clang failed (exit " + std::to_string(r.exit_code) + ")"
                                    : "compile error: " + first;
        return out;
    }
    std::ifstream f(bc, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    out.bitcode = s.str();
    if (out.bitcode.empty()) {
        out.error = "clang wrote no bitcode";
        return out;
    }
    out.ok = true;
    return out;
}

}  // namespace rl::student
