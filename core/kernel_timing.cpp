// core/kernel_timing.cpp — a timed plain CUDA kernel's result: its check, rows, text and JSON (core/kernel_timing.h).
#include "core/kernel_timing.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/error_bounds.h"
#include "core/exact_sum.h"
#include "core/file_io.h"
#include "core/limits.h"
#include "core/text_format.h"

namespace rl {
namespace {

using json = nlohmann::ordered_json;

const char* arg_word(TimedArg a) {
    switch (a) {
        case TimedArg::In: return "in";
        case TimedArg::Out: return "out";
        case TimedArg::Tmp: return "tmp";
        case TimedArg::N: return "n";
        case TimedArg::Literal: break;
    }
    return "";
}

// A value as the lab writes one: whole numbers without a fraction, others with the type's digits.
std::string value_text(double v, DType t) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return format_number("%.0f", v);
    return format_number(t == DType::F64 ? "%.17g" : "%.9g", v);
}

// The exponent of x's lowest set bit: x is a multiple of 2^result (x finite, not zero).
int lowest_bit_exponent(double x) {
    int e = 0;
    const double m = std::frexp(std::fabs(x), &e);  // x = m * 2^e, m in [0.5, 1)
    uint64_t bits = uint64_t(std::ldexp(m, 53));     // exact: m has at most 53 significant bits
    int tz = 0;
    while (!(bits & 1)) bits >>= 1, ++tz;
    return e - 53 + tz;
}

}  // namespace

std::string timed_plan_text(const std::vector<TimedLaunch>& plan) {
    std::string s;
    for (const TimedLaunch& l : plan) {
        if (!s.empty()) s += "; ";
        s += l.kernel + "<<<" + std::to_string(l.grid) + ", " + std::to_string(l.block) + ", " +
             std::to_string(l.shared_bytes) + ">>>(";
        for (size_t i = 0; i < l.args.size(); ++i) {
            if (i) s += ", ";
            s += l.args[i] == TimedArg::Literal ? std::to_string(i < l.literals.size() ? l.literals[i] : 0)
                                                : arg_word(l.args[i]);
        }
        s += ")";
    }
    return s;
}

// ---- the parameters from a mangled name (the subset a __global__ reduction kernel's name uses)
std::vector<KernelParam> kernel_params_from_mangled(std::string_view m) {
    const std::string whole(m);
    auto bad = [&](const std::string& why) -> Error {
        return Error("kernel symbol " + one_line(whole) + ": " + why +
                     " (the timer reads the parameters of a C++ kernel's mangled name; an extern \"C\" kernel has none)");
    };
    size_t i = 0;
    auto source_name = [&]() {  // <length><identifier>
        if (i >= m.size() || !std::isdigit(static_cast<unsigned char>(m[i]))) throw bad("expected a name's length");
        size_t len = 0;
        while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) len = len * 10 + size_t(m[i++] - '0');
        if (len == 0 || i + len > m.size()) throw bad("a name runs past the symbol");
        i += len;
    };
    // One template argument: L<type><value>E (a literal), a nested I...E, or a builtin type's letter / P<type>.
    std::function<void()> template_args = [&]() {
        ++i;  // 'I'
        while (i < m.size() && m[i] != 'E') {
            if (m[i] == 'L') {
                const size_t e = m.find('E', i);
                if (e == std::string_view::npos) throw bad("an unterminated template literal");
                i = e + 1;
            } else if (m[i] == 'I') {
                template_args();
            } else {
                while (i < m.size() && (m[i] == 'P' || m[i] == 'K' || m[i] == 'V')) ++i;
                if (i >= m.size() || !std::isalpha(static_cast<unsigned char>(m[i]))) throw bad("a template argument it cannot read");
                ++i;
            }
        }
        if (i >= m.size()) throw bad("unterminated template arguments");
        ++i;  // 'E'
    };
    if (m.substr(0, 2) != "_Z") throw bad("not a mangled name");
    i = 2;
    bool is_template = false;
    if (i < m.size() && m[i] == 'N') {  // a namespace's kernel: N <names> E
        ++i;
        while (i < m.size() && m[i] != 'E') {
            if (m[i] == 'I') is_template = true, template_args();
            else source_name();
        }
        if (i >= m.size()) throw bad("an unterminated nested name");
        ++i;
    } else {
        source_name();
        if (i < m.size() && m[i] == 'I') is_template = true, template_args();
    }
    if (is_template) {  // a function template's name carries its return type first: void
        if (i >= m.size() || m[i] != 'v') throw bad("expected the void return type of a template kernel");
        ++i;
    }
    std::vector<KernelParam> out;
    char last_pointee = 0;
    while (i < m.size()) {
        KernelParam p;
        if (m[i] == 'P') {
            ++i;
            while (i < m.size() && (m[i] == 'K' || m[i] == 'V')) ++i;  // const, volatile
            if (i >= m.size()) throw bad("a pointer without its type");
            if (m[i] == 'S') {  // a substitution of an earlier type (S_, S0_): a pointer of the same element
                const size_t e = m.find('_', i);
                if (e == std::string_view::npos) throw bad("an unterminated substitution");
                i = e + 1;
                p.pointee = last_pointee;
            } else if (std::isdigit(static_cast<unsigned char>(m[i]))) {  // a struct's name: ValueIndex*
                source_name();
                p.pointee = '?';
            } else {
                p.pointee = m[i++];
            }
            p.kind = ParamKind::Pointer;
            last_pointee = p.pointee;
        } else if (m[i] == 'S') {  // a substituted pointer type (S_, S0_, ...)
            const size_t e = m.find('_', i);
            if (e == std::string_view::npos) throw bad("an unterminated substitution");
            i = e + 1;
            p.kind = ParamKind::Pointer;
            p.pointee = last_pointee;
        } else if (m[i] == 'i' || m[i] == 'j') {
            p.kind = ParamKind::Int32, ++i;
        } else if (m[i] == 'l' || m[i] == 'm' || m[i] == 'x' || m[i] == 'y') {
            p.kind = ParamKind::Int64, ++i;
        } else if (m[i] == 'v' && out.empty() && i + 1 == m.size()) {
            ++i;  // (void): no parameters
            continue;
        } else if (std::isdigit(static_cast<unsigned char>(m[i]))) {  // a struct passed by value
            source_name();
            p.kind = ParamKind::Other;
        } else {
            p.kind = ParamKind::Other;
            ++i;
        }
        out.push_back(p);
    }
    return out;
}

DType element_type_of(const std::vector<KernelParam>& params, const std::string& kernel) {
    char seen = 0;
    for (const KernelParam& p : params) {
        if (p.kind != ParamKind::Pointer) continue;
        const char c = p.pointee == 'j' ? 'i' : p.pointee;
        if (seen && c != seen)
            throw Error("kernel " + one_line(kernel) + ": its pointer parameters have different element types; --time "
                        "times kernels whose buffers hold one type (int, unsigned, float or double)");
        seen = c;
    }
    if (seen == 'i') return DType::I32;
    if (seen == 'f') return DType::F32;
    if (seen == 'd') return DType::F64;
    throw Error("kernel " + one_line(kernel) + ": " +
                (seen ? std::string("its buffers hold a type --time does not time") : std::string("no pointer parameter")) +
                "; --time times kernels over int, unsigned, float or double buffers");
}

// ---- the check
bool KernelCheck::passes(double got) const {
    if (std::isnan(got)) return false;
    return tolerance == 0 ? got == reference : std::fabs(got - reference) <= tolerance;
}

KernelCheck kernel_check(const InputData& input, Op op) {
    KernelCheck c;
    c.type = input.type;
    c.op = op;
    const size_t n = input.size();
    if (n == 0) throw Error("--time needs at least one element (--n)");
    if (op == Op::Max || op == Op::Min) {
        double best = input.value(0);
        for (size_t i = 1; i < n; ++i) best = op == Op::Max ? std::max(best, input.value(i)) : std::min(best, input.value(i));
        c.reference = best;
        c.text = value_text(best, c.type) + " (exact)";
        return c;
    }
    if (op != Op::Sum)
        throw Error(std::string("--op ") + std::string(to_string(op)) + ": --time checks sum, max and min (the fast path's and CUB's operators)");
    if (input.type == DType::I32) {
        uint32_t s = 0;
        for (size_t i = 0; i < n; ++i) s += uint32_t(input.i32[i]);  // wraps modulo 2^32, as the GPU's adds
        c.reference = double(int32_t(s));
        c.text = value_text(c.reference, c.type) + " (exact, modulo 2^32 as the GPU's int adds)";
        return c;
    }
    ExactSum exact, magnitude;
    int low = INT32_MAX;
    bool finite = true;
    for (size_t i = 0; i < n; ++i) {
        const double x = input.value(i);
        if (!std::isfinite(x)) finite = false;
        exact.add(x);
        magnitude.add(std::fabs(x));
        if (x != 0 && std::isfinite(x)) low = std::min(low, lowest_bit_exponent(x));
    }
    const bool f64 = input.type == DType::F64;
    c.reference = f64 ? exact.rounded() : double(exact.rounded_float());
    const double abs_sum = magnitude.rounded();
    const int digits = f64 ? 53 : 24;
    // Every partial sum of any order is a multiple of 2^low below sum|x|: exact when sum|x| < 2^(digits + low).
    if (finite && (low == INT32_MAX || abs_sum * (1 + 0x1p-40) < std::ldexp(1.0, digits + low))) {
        c.text = value_text(c.reference, c.type) + " (exact: every order sums these inputs exactly)";
        return c;
    }
    c.reference = exact.rounded();
    c.tolerance = gamma_k(double(n - 1), unit_roundoff(f64)) * abs_sum;
    c.text = value_text(c.reference, c.type) + " ± " + format_number("%.3g", c.tolerance) +
             " (the exact sum; any order of the n - 1 additions lies within gamma(n-1) * sum|x|)";
    return c;
}

// ---- rows
uint64_t KernelTiming::bytes_read() const { return n * (dtype == "f64" ? 8 : 4); }

double datasheet_bandwidth_gbps(std::string_view device) {
    if (device.find("H200") != std::string_view::npos) return 4800;
    if (device.find("H100") != std::string_view::npos && device.find("SXM") != std::string_view::npos) return 3350;
    return 0;
}

double row_gbps(const KernelTiming& t, const KernelTimingRow& r) {
    return r.timed && r.median_us > 0 ? double(t.bytes_read()) / (r.median_us * 1e-6) / 1e9 : 0;
}
double row_percent_of_peak(const KernelTiming& t, const KernelTimingRow& r) {
    return t.datasheet_gbps > 0 ? 100.0 * row_gbps(t, r) / t.datasheet_gbps : 0;
}

std::vector<std::vector<std::string>> kernel_timing_cells(const KernelTiming& t) {
    std::vector<std::vector<std::string>> out;
    for (const KernelTimingRow& r : t.rows) {
        if (!r.timed) {
            out.push_back({r.name, "-", "-", "-", "not timed: " + r.why});
            continue;
        }
        const double gb = row_gbps(t, r);
        const std::string checked = r.wrong ? std::to_string(r.wrong) + " of " + std::to_string(r.reps) + " WRONG"
                                            : std::to_string(r.reps) + "/" + std::to_string(r.reps) +
                                                  (t.check.tolerance == 0 ? " exact" : " within the bound");
        out.push_back({r.name, format_number("%.2f", r.median_us), format_number(gb < 10 ? "%.2f" : "%.0f", gb),
                       t.datasheet_gbps > 0 ? format_number("%.1f%%", row_percent_of_peak(t, r)) : std::string("-"),
                       checked});
    }
    return out;
}

bool kernel_timing_ok(const KernelTiming& t) {
    if (t.rows.empty() || !t.rows.front().timed) return false;
    for (const KernelTimingRow& r : t.rows)
        if (r.timed && (r.wrong || r.reps == 0)) return false;
    return true;
}

std::string kernel_timing_text(const KernelTiming& t) {
    std::string out = "timed on " + t.device + (t.driver.empty() ? "" : ", driver " + t.driver) + ", " + t.date + ": " +
                      t.op + " over " + t.dtype + ", n " + std::to_string(t.n) + " (" + t.input + "), warm, " +
                      "median of the checked repetitions (GB/s: input bytes read / median" +
                      (t.datasheet_gbps > 0 ? format_number("; peak: the datasheet's %.0f GB/s)", t.datasheet_gbps)
                                            : std::string("; peak unknown for this GPU)")) +
                      "\n";
    char buf[256];
    snprintf(buf, sizeof buf, "%-12s %10s %9s %10s  %s\n", "", "median µs", "GB/s", "% of peak", "checked");
    out += buf;
    for (const std::vector<std::string>& c : kernel_timing_cells(t)) {
        // "µs" is two bytes wide in UTF-8: the header's column is one byte wider than it looks
        snprintf(buf, sizeof buf, "%-12s %9s %9s %10s  %s\n", c[0].c_str(), c[1].c_str(), c[2].c_str(), c[3].c_str(),
                 c[4].c_str());
        out += buf;
    }
    for (const KernelTimingRow& r : t.rows) out += r.name + ": " + r.what + (r.timed ? ", out[0] = " + r.result : "") + "\n";
    out += "reference: " + t.check.text + "\n";
    const KernelTimingRow* best = nullptr;
    for (size_t i = 1; i < t.rows.size(); ++i)
        if (t.rows[i].timed && !t.rows[i].wrong && (!best || t.rows[i].median_us < best->median_us)) best = &t.rows[i];
    if (!t.rows.empty() && t.rows[0].timed && best && best->median_us > 0) {
        const double ratio = t.rows[0].median_us / best->median_us;
        out += ratio >= 1 ? "your kernel takes " + format_number("%.2f", ratio) + "x the time of " + best->name +
                                ", the faster of the two here\n"
                          : "your kernel is faster than " + best->name + " here (" + format_number("%.2f", 1 / ratio) +
                                "x)\n";
    }
    return out;
}

// ---- JSON
std::string kernel_timing_to_json(const KernelTiming& t) {
    json j;
    j["device"] = t.device;
    j["driver"] = t.driver;
    j["date"] = t.date;
    j["file"] = t.file;
    j["dtype"] = t.dtype;
    j["op"] = t.op;
    j["n"] = t.n;
    j["input"] = t.input;
    j["datasheet_gbps"] = t.datasheet_gbps;
    j["reference"] = t.check.reference;
    j["tolerance"] = t.check.tolerance;
    j["reference_text"] = t.check.text;
    j["method"] = t.method;
    json rows = json::array();
    for (const KernelTimingRow& r : t.rows) {
        json e;
        e["name"] = r.name;
        e["what"] = r.what;
        e["timed"] = r.timed;
        if (!r.timed) e["why"] = r.why;
        e["reps"] = r.reps;
        e["wrong"] = r.wrong;
        e["median_us"] = r.median_us;
        e["min_us"] = r.min_us;
        e["max_us"] = r.max_us;
        e["gbps"] = row_gbps(t, r);
        e["percent_of_peak"] = row_percent_of_peak(t, r);
        e["result"] = r.result;
        rows.push_back(std::move(e));
    }
    j["rows"] = std::move(rows);
    json top;
    top["kernel_timing"] = std::move(j);
    return top.dump(1) + "\n";
}

KernelTiming kernel_timing_from_json(std::string_view text) {
    check_json_nesting(text, "kernel timing JSON", limits::kJsonDepth);
    json top;
    try {
        top = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw Error(std::string("kernel timing JSON: not valid JSON (") + one_line(e.what()) + ")");
    }
    if (!top.is_object() || !top.contains("kernel_timing") || !top["kernel_timing"].is_object())
        throw Error("kernel timing JSON: expected an object {\"kernel_timing\": {...}} (what rlab run --time --format json writes)");
    const json& j = top["kernel_timing"];
    auto get = [](const json& o, const char* name, const std::string& where, auto fallback, bool required) {
        using T = decltype(fallback);
        auto it = o.find(name);
        if (it == o.end() || it->is_null()) {
            if (required) throw Error("kernel timing JSON: " + where + " has no \"" + name + "\"");
            return fallback;
        }
        try {
            return it->template get<T>();
        } catch (const std::exception&) {
            throw Error("kernel timing JSON: " + where + " field \"" + name + "\" has the wrong type");
        }
    };
    KernelTiming t;
    const std::string top_where = "the result";
    t.device = get(j, "device", top_where, std::string(), true);
    t.driver = get(j, "driver", top_where, std::string(), false);
    t.date = get(j, "date", top_where, std::string(), true);
    t.file = get(j, "file", top_where, std::string(), false);
    t.dtype = get(j, "dtype", top_where, std::string(), true);
    if (t.dtype != "i32" && t.dtype != "f32" && t.dtype != "f64")
        throw Error("kernel timing JSON: dtype \"" + one_line(t.dtype) + "\" (allowed: i32, f32, f64)");
    t.op = get(j, "op", top_where, std::string("sum"), false);
    t.n = get(j, "n", top_where, uint64_t(0), true);
    if (t.n == 0) throw Error("kernel timing JSON: n must be at least 1");
    t.input = get(j, "input", top_where, std::string(), false);
    t.datasheet_gbps = get(j, "datasheet_gbps", top_where, 0.0, false);
    t.check.type = t.dtype == "i32" ? DType::I32 : t.dtype == "f64" ? DType::F64 : DType::F32;
    t.check.reference = get(j, "reference", top_where, 0.0, true);
    t.check.tolerance = get(j, "tolerance", top_where, 0.0, false);
    t.check.text = get(j, "reference_text", top_where, std::string(), false);
    t.method = get(j, "method", top_where, std::string(), false);
    auto rows = j.find("rows");
    if (rows == j.end() || !rows->is_array() || rows->empty() || rows->size() > 8)
        throw Error("kernel timing JSON: \"rows\" must be an array of 1 to 8 rows (your kernel, fast path, CUB)");
    for (size_t i = 0; i < rows->size(); ++i) {
        const json& e = (*rows)[i];
        const std::string where = "row " + std::to_string(i);
        if (!e.is_object()) throw Error("kernel timing JSON: " + where + " is not an object");
        KernelTimingRow r;
        r.name = get(e, "name", where, std::string(), true);
        r.what = get(e, "what", where, std::string(), false);
        r.timed = get(e, "timed", where, false, true);
        r.why = get(e, "why", where, std::string(), false);
        r.reps = get(e, "reps", where, 0, false);
        r.wrong = get(e, "wrong", where, 0, false);
        r.median_us = get(e, "median_us", where, 0.0, r.timed);
        r.min_us = get(e, "min_us", where, 0.0, false);
        r.max_us = get(e, "max_us", where, 0.0, false);
        r.result = get(e, "result", where, std::string(), false);
        if (r.timed && (!(r.median_us > 0) || r.reps < 1 || r.wrong < 0 || r.wrong > r.reps))
            throw Error("kernel timing JSON: " + where + " is timed but needs median_us > 0 and 0 <= wrong <= reps, reps >= 1");
        t.rows.push_back(std::move(r));
    }
    return t;
}

KernelTiming load_kernel_timing_file(const std::string& path) {
    return kernel_timing_from_json(read_text_file(path, "kernel timing", limits::kBenchFileBytes));
}

}  // namespace rl
