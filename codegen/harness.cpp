// codegen/harness.cpp — writes main(): builds the schedule's input with the same draws as core/input.cpp,
// runs the kernel(s) and prints the result and its bits (as `rlab trace` shows them).
#include "codegen/harness.h"

#include <cstdio>

#include "core/error.h"

namespace rl::codegen {
namespace {

std::string elem_conversion(DType t) {
    switch (t) {
        case DType::F32: return "    return float(x);";
        case DType::F64: return "    return x;";
        case DType::I32: return "    return int(std::clamp(std::round(x), -2147483648.0, 2147483647.0));";
        case DType::BF16: return "    return __float2bfloat16(float(x));  // round to nearest even";
        case DType::F16: return "    return __float2half(float(x));  // round to nearest even";
    }
    return {};
}

// The draws of core/input.cpp generate(), for this schedule's input kind only.
void input_body(const Schedule& s, SourceWriter& w) {
    const bool integer = s.type == DType::I32;
    w.line("    std::vector<double> v(N);");
    switch (s.input.kind) {
        case InputKind::Values: {
            w.line("    static const double values[] = {");
            std::string row;
            for (size_t i = 0; i < s.input.values.size(); ++i) {
                char buf[40];
                std::snprintf(buf, sizeof buf, "%.17g,", s.input.values[i]);
                row += (row.empty() ? "        " : " ") + std::string(buf);
                if (row.size() > 90 || i + 1 == s.input.values.size()) {
                    w.line(row);
                    row.clear();
                }
            }
            w.line("    };");
            w.line("    for (unsigned long long i = 0; i < N; ++i) v[i] = values[i];");
            return;
        }
        case InputKind::Program:  // (a program's own values live in its trace: no schedule or harness makes them)
            throw Error("--input program: those values came from a program's main() and live in its trace; a schedule takes "
                        "iota, uniform, normal, equal, log-uniform, cancellation, sorted, reversed or numbers");
        case InputKind::Iota:
            w.line("    for (unsigned long long i = 0; i < N; ++i) v[i] = double(i + 1);  // iota: 1, 2, ..., N");
            return;
        case InputKind::Equal:
            w.line(std::string("    std::fill(v.begin(), v.end(), ") + (integer ? "3.0" : "0.1") + ");");
            return;
        default: break;
    }
    w.line("    std::mt19937_64 engine(" + std::to_string(s.input.seed) + "ull);  // --seed");
    w.line("    auto unit = [&] { return double(engine() >> 11) * 0x1.0p-53; };  // [0, 1)");
    if (s.input.kind != InputKind::Normal) w.line("    auto symmetric = [&] { return 2.0 * unit() - 1.0; };  // [-1, 1)");
    switch (s.input.kind) {
        case InputKind::Uniform:
        case InputKind::Sorted:
        case InputKind::Reversed:
            w.line(std::string("    for (auto& x : v) x = ") + (integer ? "std::round(symmetric() * 100.0)" : "symmetric()") + ";");
            if (s.input.kind == InputKind::Sorted) w.line("    std::sort(v.begin(), v.end());");
            if (s.input.kind == InputKind::Reversed) w.line("    std::sort(v.begin(), v.end(), std::greater<>());");
            break;
        case InputKind::Normal:
            w.line("    for (auto& x : v) {");
            w.line("        const double u1 = 1.0 - unit(), u2 = unit();  // Box-Muller");
            w.line("        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.141592653589793 * u2);");
            w.line(std::string("        x = ") + (integer ? "std::round(z * 10.0)" : "z") + ";");
            w.line("    }");
            break;
        case InputKind::LogUniform: {
            const char* dec = s.type == DType::F16 ? "4.0" : (integer ? "6.0" : "8.0");
            w.line("    for (auto& x : v) {");
            w.line(std::string("        const double mag = std::pow(10.0, ") + dec + " * symmetric());");
            w.line(std::string("        x = (unit() < 0.5 ? -1.0 : 1.0) * ") + (integer ? "std::round(mag)" : "mag") + ";");
            w.line("    }");
            break;
        }
        case InputKind::Cancellation: {
            const char* big = s.type == DType::F16 ? "1.0e4" : (integer ? "1.0e6" : "1.0e8");
            w.line("    for (unsigned long long i = 0; i < N; ++i) {  // +big, small, -big: the bigs cancel exactly");
            w.line("        if (i % 3 == 0) {");
            w.line(std::string("            const double big = ") + big + " * (1.0 + unit());");
            w.line(std::string("            v[i] = ") + (integer ? "std::round(big)" : "big") + ";");
            w.line("            if (i + 2 < N) v[i + 2] = -v[i];");
            w.line("        } else if (i % 3 == 1) {");
            w.line(std::string("            v[i] = ") + (integer ? "std::round(symmetric() * 10.0)" : "symmetric()") + ";");
            w.line("        } else if (i < 2) {");
            w.line("            v[i] = 0.0;");
            w.line("        }");
            w.line("    }");
            break;
        }
        default: break;
    }
}

std::string print_statement(const Schedule& s) {
    const bool i32 = s.type == DType::I32, f64 = s.type == DType::F64;
    const char* fmt = i32 ? "%d" : (f64 ? "%.17g" : "%.9g");
    const std::string cast = i32 ? "" : "(double)";
    switch (s.op) {
        case Op::ArgMax:
            return std::string("    std::printf(\"result max ") + fmt + " @ index %u bits 0x%016llx\\n\", " + cast +
                   "result.value, result.index, bits.word);";
        case Op::SumCount:
            return std::string("    std::printf(\"result sum ") + fmt + " count %u bits 0x%016llx\\n\", " + cast +
                   "result.sum, result.count, bits.word);";
        case Op::Witness:
            return "    std::printf(\"result [%u..%u] bits 0x%016llx\\n\", result.lo, result.hi, bits.word);";
        default:
            return std::string("    std::printf(\"result ") + fmt + " bits 0x%016llx\\n\", " + cast + "result, bits.word);";
    }
}

}  // namespace

void harness_includes(SourceWriter& w) {
    w.line("#include <algorithm>");
    w.line("#include <cmath>");
    w.line("#include <cstdio>");
    w.line("#include <random>");
    w.line("#include <vector>");
}

void write_harness(const Schedule& s, SourceWriter& w) {
    const GridStage gs = s.effective_grid_stage();
    const uint32_t G = s.grid_size();
    w.line("// ---- The harness: the input as rlab makes it, the launches, the result and its bits. ----");
    w.line("#define CHECK(call)                                                                    \\");
    w.line("    do {                                                                               \\");
    w.line("        const cudaError_t err_ = (call);                                               \\");
    w.line("        if (err_ != cudaSuccess) {                                                     \\");
    w.line("            std::fprintf(stderr, \"%s: %s\\n\", #call, cudaGetErrorString(err_));         \\");
    w.line("            return 1;                                                                  \\");
    w.line("        }                                                                              \\");
    w.line("    } while (0)");
    w.blank();
    w.line("// The input of `--input " + std::string(to_string(s.input.kind)) + "`, drawn as core/input.cpp draws it.");
    w.line("static std::vector<double> input_values() {");
    input_body(s, w);
    w.line("    return v;");
    w.line("}");
    w.blank();
    w.line("static Elem to_elem(double x) {");
    w.line(elem_conversion(s.type));
    w.line("}");
    w.blank();
    w.line("int main() {");
    w.line("    const std::vector<double> values = input_values();");
    w.line("    std::vector<Elem> host(N);");
    w.line("    for (unsigned long long i = 0; i < N; ++i) host[i] = to_elem(values[i]);");
    w.line("    Elem* in = nullptr;");
    w.line("    Value *partials = nullptr, *out = nullptr;");
    w.line("    unsigned* done = nullptr;");
    w.line("    CHECK(cudaMalloc(&in, N * sizeof(Elem)));");
    w.line("    CHECK(cudaMalloc(&partials, GRID * sizeof(Value)));");
    w.line("    CHECK(cudaMalloc(&out, sizeof(Value)));");
    w.line("    CHECK(cudaMalloc(&done, sizeof(unsigned)));");
    w.line("    CHECK(cudaMemcpy(in, host.data(), N * sizeof(Elem), cudaMemcpyHostToDevice));");
    w.line("    const Value start = identity();  // what the atomics combine into");
    w.line("    CHECK(cudaMemcpy(out, &start, sizeof(Value), cudaMemcpyHostToDevice));");
    w.line("    CHECK(cudaMemset(done, 0, sizeof(unsigned)));");
    if (gs == GridStage::Cooperative && G > 1) {
        w.line("    void* args[] = {&in, &partials, &out, &done};");
        w.line("    CHECK(cudaLaunchCooperativeKernel((void*)reduce, dim3(GRID), dim3(BLOCK), args, 0, nullptr));");
    } else {
        w.line("    reduce<<<GRID, BLOCK>>>(in, partials, out, done);");
        w.line("    CHECK(cudaGetLastError());");
    }
    if (gs == GridStage::TwoPass && G > 1) {
        w.line("    finish<<<1, FINISH_THREADS>>>(partials, out);");
        w.line("    CHECK(cudaGetLastError());");
    }
    w.line("    CHECK(cudaDeviceSynchronize());");
    w.line("    Value result;");
    w.line("    CHECK(cudaMemcpy(&result, out, sizeof(Value), cudaMemcpyDeviceToHost));");
    w.line("    union { Value value; unsigned long long word; } bits;");
    w.line("    bits.word = 0;");
    w.line("    bits.value = result;");
    w.line(print_statement(s));
    w.line("    CHECK(cudaFree(in));");
    w.line("    CHECK(cudaFree(partials));");
    w.line("    CHECK(cudaFree(out));");
    w.line("    CHECK(cudaFree(done));");
    w.line("    return 0;");
    w.line("}");
}

}  // namespace rl::codegen
