// tests/gpu/test_plain_compile.cpp — rlab run --time's compile: every kernel of the plain-CUDA corpus (tests/cuda/corpus,
// the files without main()) compiled as it is with NVRTC for sm_90, its lowered name read for its parameters, and the
// element type found there equal to the type the corpus manifest gives by hand; every exercise's kernel and solution
// (lessons/exercises, plain CUDA) the same way. Needs NVRTC, not a GPU (label nvcc).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/exercise.h"
#include "core/kernel_timing.h"
#include "cuda/plain_compile.h"
#include "student/cuda_source.h"
#include "student/launch_syntax.h"

namespace {

const std::string kCorpus = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/";

std::string text_of(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string trim(std::string s) {
    while (!s.empty() && isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    while (!s.empty() && isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
    return s;
}

struct Case {
    std::string file, kernel, type;  // type: the manifest's int | float | double | argmax | argmax-index
};

// One case per (file, kernel) of the manifest: the kernels of its --launch plan, the --kernel it names, else the file's
// only kernel.
std::vector<Case> corpus_cases() {
    std::ifstream m(kCorpus + "manifest.txt");
    std::string line;
    std::set<std::string> seen;
    std::vector<Case> out;
    while (std::getline(m, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream s(line);
        for (std::string f; std::getline(s, f, '|');) fields.push_back(trim(f));
        if (fields.size() < 3) continue;
        Case c;
        c.file = fields[0];
        c.type = fields[2].substr(fields[2].find('=') + 1);
        const std::string source = text_of(kCorpus + c.file);
        if (rl::student::main_function_line(source)) continue;  // a program: --time refuses it (NVRTC has no host side)
        std::vector<std::string> kernels;  // every kernel of a --launch plan (written without blanks), or --kernel's
        std::stringstream flags(fields[1]);
        for (std::string flag, value; flags >> flag;) {
            if (flag == "--launch" && flags >> value)
                for (const rl::student::PlannedLaunch& l : rl::student::parse_launch_plan(value)) kernels.push_back(l.kernel);
            if (flag == "--kernel" && flags >> value) kernels.push_back(value);
        }
        if (kernels.empty()) {
            const auto declared = rl::student::cuda_kernel_declarations(source);
            REQUIRE_MESSAGE(declared.size() == 1, c.file);
            kernels.push_back(declared[0].name);
        }
        for (const std::string& k : kernels) {
            c.kernel = k;
            if (seen.insert(c.file + " " + c.kernel).second) out.push_back(c);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("plain timer compile: every corpus kernel with NVRTC, its element type as the manifest says") {
    const std::vector<Case> cases = corpus_cases();
    REQUIRE(cases.size() >= 20);  // the corpus has 26 files without main()
    const std::map<std::string, rl::DType> types = {{"int", rl::DType::I32}, {"float", rl::DType::F32}, {"double", rl::DType::F64}};
    for (const Case& c : cases) {
        CAPTURE(c.file);
        CAPTURE(c.kernel);
        const rl::cuda::PlainProgram p = rl::cuda::compile_plain_for_gpu(c.file, text_of(kCorpus + c.file), {c.kernel}, 90,
                                                                         RLAB_CUDA_INCLUDE);
        INFO(p.log);
        REQUIRE(p.ok);
        REQUIRE(p.symbols.size() == 1);
        CHECK(!p.cubin.empty());
        const std::vector<rl::KernelParam> params = rl::kernel_params_from_mangled(p.symbols[0]);
        if (c.type == "argmax" || c.type == "argmax-index") {
            // float in, an index pair (argmax) or an int index (argmax-index) out: --time times one element type. A
            // two-launch argmax's kernels take four (in, tmp, tmpi, n and tmp, tmpi, out, g).
            CHECK((params.size() == 3 || params.size() == 4));
            CHECK_THROWS_AS(rl::element_type_of(params, c.kernel), rl::Error);
            continue;
        }
        CHECK(params.size() == 3);  // (in, out, n): every other corpus kernel's shape
        REQUIRE(types.count(c.type));
        CHECK(rl::element_type_of(params, c.kernel) == types.at(c.type));
        CHECK(params[2].kind == rl::ParamKind::Int32);
    }
}

TEST_CASE("plain timer compile: NVRTC's errors come back with the file and line, and a missing kernel is refused") {
    const std::string broken = "__global__ void k(const float* in, float* out, int n) {\n  out[0] = in[0] +;\n}\n";
    const rl::cuda::PlainProgram p = rl::cuda::compile_plain_for_gpu("broken.cu", broken, {"k"}, 90, RLAB_CUDA_INCLUDE);
    CHECK_FALSE(p.ok);
    CHECK(p.log.find("broken.cu(2)") != std::string::npos);
    const std::string fine = "__global__ void k(const float* in, float* out, int n) { out[0] = in[0]; }\n";
    const rl::cuda::PlainProgram q = rl::cuda::compile_plain_for_gpu("fine.cu", fine, {"nothere"}, 90, RLAB_CUDA_INCLUDE);
    CHECK_FALSE(q.ok);  // the name expression &nothere does not compile: the log names it
    CHECK(q.log.find("nothere") != std::string::npos);
}

TEST_CASE("plain timer compile: every exercise's kernel and solution compile for sm_90 with no warning") {
    // What a student edits is what nvcc takes: each file alone, its one kernel found by its name, (float*, float*, int).
    std::vector<rl::LessonError> errors;
    const std::vector<rl::Exercise> all = rl::load_exercises(std::string(RLAB_SOURCE_DIR) + "/lessons", errors);
    REQUIRE(errors.empty());
    CHECK(all.size() >= 6);
    for (const rl::Exercise& e : all)
        for (const std::string& file : {e.kernel_file(), e.solution_file()}) {
            CAPTURE(file);
            const std::string source = text_of(file);
            const auto declared = rl::student::cuda_kernel_declarations(source);
            REQUIRE(declared.size() == 1);
            const rl::cuda::PlainProgram p = rl::cuda::compile_plain_for_gpu(file, source, {declared[0].name}, 90, RLAB_CUDA_INCLUDE);
            INFO(p.log);
            REQUIRE(p.ok);
            CHECK(!p.cubin.empty());
            CHECK(p.log.find("warning") == std::string::npos);
            REQUIRE(p.symbols.size() == 1);
            const std::vector<rl::KernelParam> params = rl::kernel_params_from_mangled(p.symbols[0]);
            REQUIRE(params.size() == 3);
            CHECK(rl::element_type_of(params, declared[0].name) == rl::DType::F32);
            CHECK(params[2].kind == rl::ParamKind::Int32);
        }
}
