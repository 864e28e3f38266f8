// student/host_program.cpp — clang --cuda-host-only into a shared object, its stubs read from the ELF symbol table,
// and main() run in the runner with the lab's runtime, exit() caught and the output redirected.
#include "student/host_program.h"
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include "core/error.h"
#include "student/cuda_compile.h"
#include "student/diagnostics.h"
#include "student/process.h"

namespace rl::student {

namespace fs = std::filesystem;

namespace {

constexpr double kHostClangTimeLimit = 120.0;
constexpr const char* kStubMark = "__device_stub__";

std::string quoted_file(const std::string& file) {
    std::string q = "\"";
    for (char c : file) {
        if (c == '"' || c == '\\') q += '\\';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

std::string demangled(const std::string& symbol) {
    int status = 0;
    char* d = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    std::string out = status == 0 && d ? d : symbol;
    std::free(d);
    return out;
}

// dlopen's "undefined symbol: NAME" as a line a student can act on.
std::string load_problem(const std::string& dl_error) {
    const std::string mark = "undefined symbol: ";
    const size_t at = dl_error.find(mark);
    if (at == std::string::npos) return "the program's host code could not be loaded: " + dl_error;
    std::string name = dl_error.substr(at + mark.size());
    name = name.substr(0, name.find_first_of(" \t\n("));
    return "the program calls " + demangled(name) +
           ", which the lab's CUDA runtime does not provide (it runs cudaMalloc, cudaFree, cudaMemcpy, cudaMemset, "
           "cudaDeviceSynchronize, cudaGetLastError and <<< >>> launches: docs/plain-cuda.md)";
}

// Restores the caller's stdout and stderr when the program's run ends, however it ends.
class OutputRedirect {
public:
    explicit OutputRedirect(const std::string& path) {
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) throw Error("cannot write the program's output to " + path + ": " + std::strerror(errno));
        saved_out_ = dup(1);
        saved_err_ = dup(2);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        // Line by line, as on a terminal, so that the program's stdout and stderr keep their order in the file.
        std::setvbuf(stdout, nullptr, _IOLBF, 0);
    }
    ~OutputRedirect() {
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        if (saved_out_ >= 0) dup2(saved_out_, 1), close(saved_out_);
        if (saved_err_ >= 0) dup2(saved_err_, 2), close(saved_err_);
    }
    OutputRedirect(const OutputRedirect&) = delete;
    OutputRedirect& operator=(const OutputRedirect&) = delete;

private:
    int saved_out_ = -1, saved_err_ = -1;
};

}  // namespace

HostProgram::~HostProgram() {
    std::error_code ec;
    if (!folder_.empty()) fs::remove_all(folder_, ec);
}

std::vector<std::string> cuda_host_compile_command(const std::string& clang, const std::string& include_dir,
                                                   const std::string& source_path, const std::string& library_path) {
    std::vector<std::string> argv = {clang, "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                                     "-Wno-unknown-cuda-version", "-std=c++17", "-O1", "-fPIC", "-shared",
                                     "-fno-color-diagnostics", "-D__RLAB_HOST_PROGRAM=1", "-o", library_path,
                                     "-include", include_dir + "/rlab_prelude.h", "-I", include_dir};
    // The program's calls of the runtime (and exit) bind to the lab's __wrap_NAME in the runner (ld --wrap); its
    // calls of its own functions bind to its own (-Bsymbolic), whatever the runner exports under the same name.
    std::string wraps = "-Wl,-Bsymbolic";
    for (const std::string& name : program_runtime_symbols()) wraps += ",--wrap=" + name;
    argv.push_back(wraps);
    argv.push_back(source_path);
    return argv;
}

HostProgramCompile compile_cuda_host_program(const std::string& file, const std::string& source) {
    HostProgramCompile out;
    const std::string clang = cuda_clang();
    if (clang.empty() || find_on_path(clang).empty()) {
        out.error = "clang-14 was not found: install the clang-14 package (or set RLAB_CLANG to a clang)";
        return out;
    }
    const std::string include = cuda_include_dir();
    auto program = std::make_shared<HostProgram>();
    {
        std::error_code ec;
        std::string base = fs::temp_directory_path(ec).string();
        if (ec || base.empty()) base = "/tmp";
        std::string tmpl = base + "/rlab-program-XXXXXX";
        if (!mkdtemp(tmpl.data())) {
            out.error = "cannot create a temporary folder for the program's host code";
            return out;
        }
        program->folder_ = tmpl;
    }
    const fs::path src = fs::path(program->folder_) / "program.cu";
    program->library_ = (fs::path(program->folder_) / "program.so").string();
    {
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        const std::string_view text = std::string_view(source).substr(source.rfind(bom, 0) == 0 ? bom.size() : 0);
        std::ofstream f(src, std::ios::binary);
        f << "#line 1 " << quoted_file(file) << "\n" << text;
        if (!text.empty() && text.back() != '\n') f << '\n';
        if (!f) {
            out.error = "cannot write " + src.string();
            return out;
        }
    }
    std::vector<std::string> argv = cuda_host_compile_command(clang, include, src.string(), program->library_);
    std::error_code ec;
    const fs::path folder = fs::absolute(fs::path(file), ec).parent_path();
    if (!ec && !folder.empty() && fs::is_directory(folder, ec)) argv.insert(argv.end() - 1, {"-iquote", folder.string()});
    const ProcessResult r = run_process(argv, kHostClangTimeLimit, false);
    out.log = r.output;
    out.diagnostics = parse_diagnostics(out.log);
    if (!r.started) {
        out.error = r.start_error;
        return out;
    }
    if (r.timed_out || r.exit_code != 0) {
        const std::string first = first_error_line(out.diagnostics);
        out.error = r.timed_out     ? "clang did not finish the program's host code within 120 s"
                    : first.empty() ? "clang failed on the program's host code (exit " + std::to_string(r.exit_code) + ")"
                                    : "compile error: " + first;
        return out;
    }
    out.program = std::move(program);
    out.ok = true;
    return out;
}

std::string kernel_symbol_of_stub(const std::string& stub) {
    const size_t mark = stub.find(kStubMark);
    if (mark == std::string::npos || stub.rfind("_Z", 0) != 0) return {};
    // The mangled name's length prefix counts the mark: <len>__device_stub__NAME -> <len - 15>NAME.
    size_t digits = mark;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(stub[digits - 1]))) --digits;
    if (digits == mark) return {};
    const size_t length = std::stoul(stub.substr(digits, mark - digits));
    const size_t mark_length = std::strlen(kStubMark);
    if (length <= mark_length) return {};
    return stub.substr(0, digits) + std::to_string(length - mark_length) + stub.substr(mark + mark_length);
}

StubTable::StubTable(const std::string& library) {
    std::ifstream f(library, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto bad = [&] { return Error("the program's host code " + library + " is no ELF shared object the lab can read"); };
    if (bytes.size() < sizeof(Elf64_Ehdr)) throw bad();
    Elf64_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr) > bytes.size())
        throw bad();
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    std::memcpy(sections.data(), bytes.data() + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    for (const Elf64_Shdr& s : sections) {
        // The full symbol table holds static kernels' stubs too; the dynamic one is its subset.
        if (s.sh_type != SHT_SYMTAB || s.sh_link >= sections.size()) continue;
        const Elf64_Shdr& strings = sections[s.sh_link];
        if (s.sh_offset + s.sh_size > bytes.size() || strings.sh_offset + strings.sh_size > bytes.size()) throw bad();
        for (uint64_t at = s.sh_offset; at + sizeof(Elf64_Sym) <= s.sh_offset + s.sh_size; at += sizeof(Elf64_Sym)) {
            Elf64_Sym sym;
            std::memcpy(&sym, bytes.data() + at, sizeof sym);
            if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0 || sym.st_name >= strings.sh_size) continue;
            const char* name = bytes.data() + strings.sh_offset + sym.st_name;
            const std::string stub(name, strnlen(name, strings.sh_size - sym.st_name));
            if (std::string kernel = kernel_symbol_of_stub(stub); !kernel.empty()) stubs_.emplace_back(sym.st_value, kernel);
        }
    }
    std::sort(stubs_.begin(), stubs_.end());
}

std::string StubTable::kernel_symbol(const void* stub, const void* base) const {
    const uint64_t offset = uint64_t(reinterpret_cast<uintptr_t>(stub) - reinterpret_cast<uintptr_t>(base));
    auto it = std::lower_bound(stubs_.begin(), stubs_.end(), std::make_pair(offset, std::string()));
    return it != stubs_.end() && it->first == offset ? it->second : std::string();
}

ProgramOutcome run_host_program(const HostProgram& program, const std::string& file, ProgramRuntime& runtime,
                                const std::string& output_path, const std::function<void()>& before_main) {
    ProgramOutcome out;
    // RTLD_NOW: a runtime function the lab lacks is found here, before main() runs, not halfway through it.
    void* handle = dlopen(program.library().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = dlerror();
        out.end = ProgramOutcome::LoadFailed;
        out.message = load_problem(e ? e : "dlopen failed");
        return out;
    }
    // Closed when main() ends (its static objects are destroyed then), so that a second run starts afresh.
    struct Close {
        void* h;
        ~Close() { dlclose(h); }
    } close_handle{handle};
    using Main = int (*)(int, char**);
    auto main_fn = reinterpret_cast<Main>(dlsym(handle, "main"));
    Dl_info info{};
    if (!main_fn || !dladdr(reinterpret_cast<void*>(main_fn), &info) || !info.dli_fbase) {
        out.end = ProgramOutcome::LoadFailed;
        out.message = "the program has no main() the lab can call (int main() or int main(int argc, char** argv))";
        return out;
    }
    auto stubs = std::make_shared<StubTable>(program.library());
    const void* base = info.dli_fbase;
    runtime.set_stub_symbol([stubs, base](const void* stub) { return stubs->kernel_symbol(stub, base); });
    std::string arg0 = file;
    char* argv[] = {arg0.data(), nullptr};
    runtime.install();
    {
        if (before_main) before_main();  // before the redirect: it may keep the caller's own stderr
        std::optional<OutputRedirect> redirect;
        if (!output_path.empty()) redirect.emplace(output_path);
        try {
            out.status = main_fn(1, argv);
            out.end = ProgramOutcome::Returned;
        } catch (const ProgramStop& s) {
            out.end = s.kind == ProgramStop::Exit           ? ProgramOutcome::Exited
                      : s.kind == ProgramStop::KernelFailed ? ProgramOutcome::KernelFailed
                                                            : ProgramOutcome::Unsupported;
            out.status = s.code;
            out.message = s.message;
        } catch (const std::exception& e) {
            out.end = ProgramOutcome::Threw;
            out.message = std::string("the program's main() ended with an uncaught exception: ") + e.what();
        } catch (...) {
            out.end = ProgramOutcome::Threw;
            out.message = "the program's main() ended with an uncaught exception";
        }
    }
    runtime.uninstall();
    return out;
}

}  // namespace rl::student
