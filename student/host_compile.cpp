// student/host_compile.cpp — the host compiler on a student's kernel, its output as diagnostics, and the
// plugin cache (a content hash of the text, the compiler, the flags and the header).
#include "student/host_compile.h"
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <regex>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "core/error.h"
#include "rlab/detail/host_abi.h"
#include "student/diagnostics.h"
#include "student/process.h"

namespace rl::student {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFlags = {"-std=c++20", "-O1", "-fPIC", "-shared", "-fdiagnostics-color=never",
                                         "-fvisibility=hidden"};

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string read_all(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string cache_dir() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/reduction-lab/kernels";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/reduction-lab/kernels";
    return "/tmp/reduction-lab-" + std::to_string(getuid()) + "/kernels";
}

std::string host_compiler() {
    if (const char* c = std::getenv("RLAB_CXX"); c && *c) return c;
    for (const char* name : {"c++", "g++", "clang++"})
        if (!find_on_path(name).empty()) return name;
    return {};
}

std::string quoted(const std::string& file) {
    std::string q = "\"";
    for (char c : file) {
        if (c == '"' || c == '\\') q += '\\';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

bool header_dir_ok(const std::string& dir) { return !dir.empty() && fs::exists(fs::path(dir) / "rlab" / "kernel.h"); }

}  // namespace

std::string kernel_include_dir() {
    if (const char* d = std::getenv("RLAB_INCLUDE_DIR"); d && header_dir_ok(d)) return d;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#ifdef RLAB_BUILD_INCLUDE_DIR
    // The source tree's header for a runner of the build tree; an installed runner uses the installed header.
    if (!ec && exe.string().rfind(RLAB_BUILD_DIR "/", 0) == 0 && header_dir_ok(RLAB_BUILD_INCLUDE_DIR))
        return RLAB_BUILD_INCLUDE_DIR;
#endif
#ifdef RLAB_INSTALL_INCLUDE_DIR
    if (header_dir_ok(RLAB_INSTALL_INCLUDE_DIR)) return RLAB_INSTALL_INCLUDE_DIR;
#endif
    // An installed tree moved elsewhere: PREFIX/libexec/reduction-lab/rlab-kernel-runner -> PREFIX/include.
    if (!ec) {
        const fs::path guess = exe.parent_path().parent_path().parent_path() / "include";
        if (header_dir_ok(guess.string())) return guess.string();
    }
    throw Error("rlab/kernel.h was not found (set RLAB_INCLUDE_DIR to the folder that holds rlab/kernel.h)");
}

std::string compiled_text(const std::string& file, const std::string& source) {
    const std::string name = kernel_name(source);
    // The kernel's line, so a signature that RL_ENTRY rejects is reported there.
    std::smatch m;
    const std::regex marker("RL_KERNEL\\s+void\\s+" + name + "\\s*\\(");
    const auto at = std::regex_search(source, m, marker) ? m.position(0) : 0;
    const long line = 1 + std::count(source.begin(), source.begin() + at, '\n');
    std::string text = "#line 1 " + quoted(file) + "\n" + source;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += "#line " + std::to_string(line) + " " + quoted(file) + "\nRL_ENTRY(" + name + ")\n";
    return text;
}

HostCompile compile_host_kernel(const std::string& file, const std::string& source) {
    HostCompile out;
    const std::string text = compiled_text(file, source);
    const std::string compiler = host_compiler();
    if (compiler.empty()) {
        out.error = "no host compiler found: install g++ or clang++, or set RLAB_CXX";
        return out;
    }
    const std::string include = kernel_include_dir();
    // The key: the text, the compiler and its flags, and the header files the text includes.
    uint64_t h = fnv1a(text);
    h = fnv1a(compiler + "|" + find_on_path(compiler) + "|" + include, h);
    for (const std::string& f : kFlags) h = fnv1a(f, h);
    for (const char* part : {"rlab/kernel.h", "rlab/detail/host.h", "rlab/detail/host_abi.h", "rlab/detail/record_flags.h"})
        h = fnv1a(read_all(fs::path(include) / part), h);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    const fs::path dir = cache_dir();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        out.error = "cannot create the kernel cache " + dir.string() + ": " + ec.message();
        return out;
    }
    const fs::path plugin = dir / (std::string(hex) + ".so");
    if (fs::exists(plugin)) {
        out.ok = true;
        out.cached = true;
        out.plugin = plugin.string();
        return out;
    }
    const std::string tag = std::string(hex) + "." + std::to_string(getpid());
    const fs::path src = dir / (tag + ".cpp");
    const fs::path tmp = dir / (tag + ".so.tmp");
    {
        std::ofstream f(src, std::ios::binary);
        f << text;
        if (!f) {
            out.error = "cannot write " + src.string();
            return out;
        }
    }
    std::vector<std::string> argv{compiler};
    argv.insert(argv.end(), kFlags.begin(), kFlags.end());
    // g++ reports a static_assert in RL_ENTRY at the header's macro; this puts it on the student's kernel line.
    std::error_code real_ec;
    const std::string real = fs::canonical(find_on_path(compiler), real_ec).filename().string();
    if (real.find("clang") == std::string::npos) argv.push_back("-ftrack-macro-expansion=0");
    argv.insert(argv.end(), {"-I" + include, "-o", tmp.string(), "-x", "c++", src.string()});
    ProcessResult r = run_process(argv, 120.0, false);
    fs::remove(src, ec);
    out.log = r.output;
    out.diagnostics = parse_diagnostics(r.output);
    if (!r.started) {
        out.error = r.start_error;
        return out;
    }
    if (r.exit_code != 0) {
        fs::remove(tmp, ec);
        const std::string first = first_error_line(out.diagnostics);
        out.error = r.timed_out ? "the host compiler did not finish within 120 s"
                    : first.empty() ? "the host compiler failed (exit " + std::to_string(r.exit_code) + ")"
                                    : "compile error: " + first;
        return out;
    }
    fs::rename(tmp, plugin, ec);  // atomic: a concurrent runner sees the whole plugin or none
    if (ec) {
        out.error = "cannot store the compiled kernel in " + dir.string() + ": " + ec.message();
        return out;
    }
    out.ok = true;
    out.plugin = plugin.string();
    return out;
}

}  // namespace rl::student
