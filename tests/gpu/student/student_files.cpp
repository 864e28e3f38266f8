// tests/gpu/student/student_files.cpp — README's example and the student kernels as the GPU suites read them.
#include "tests/gpu/student/student_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.h"
#include "core/schedule.h"

namespace rl::test {
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

}  // namespace

std::string readme_example(const std::string& dir) {
    const std::string readme = read(fs::path(RLAB_SOURCE_DIR) / "README.md");
    static const std::regex block("```cuda\\n([\\s\\S]*?)```");
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), block); it != std::sregex_iterator(); ++it) {
        const std::string code = (*it)[1];
        if (code.find("RL_KERNEL") == std::string::npos) continue;
        fs::create_directories(dir);
        const fs::path p = fs::path(dir) / "readme_example.cu";
        std::ofstream(p) << code;
        return p.string();
    }
    return "";
}

std::vector<std::string> compiling_student_kernels() {
    std::vector<std::string> out;
    for (const auto& f : fs::directory_iterator(fs::path(RLAB_SOURCE_DIR) / "tests/student/kernels")) {
        const std::string name = f.path().filename().string();
        if (f.path().extension() != ".cu" || name == "bad_syntax.cu" || name == "bad_signature.cu") continue;
        out.push_back(f.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

student::KernelRequest request_for(const std::string& file, const std::vector<std::string>& run, Backend backend,
                                   double time_limit_s) {
    student::KernelRequest r;
    r.file = file;
    r.backend = backend;
    r.time_limit_s = time_limit_s;
    for (size_t i = 0; i + 1 < run.size(); i += 2) {
        if (run[i].rfind("--", 0) != 0) throw Error("exercise flags: " + run[i] + " is no --flag");
        const std::string name = run[i].substr(2);
        if (std::string why = set_field(r.schedule, name, run[i + 1]); !why.empty()) throw Error(why);
        r.op_given = r.op_given || name == "op";
    }
    return r;
}

}  // namespace rl::test
