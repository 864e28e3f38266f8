// app/cli/bench_command.cpp — `rlab bench`: the variant x size matrix on the GPU, its table, the
// crossover analysis, JSON and CSV; without a GPU, a pointer to the recorded results.
#include "app/cli/bench_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <fstream>
#include <iostream>

#include "app/backend/bench_runner.h"
#include "core/emulator.h"  // rl::Error
#include "core/file_io.h"
#include "core/limits.h"
#ifdef RLAB_HAVE_CUDA
#include "cuda/bench_api.h"
#endif

namespace rl::cli {
namespace {

// A power of two's exponent: parsed strictly and bounded before any arithmetic, so nothing can overflow.
int to_int(std::string_view s, const std::string& spec) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        throw Error("--sizes " + one_line(spec) + ": expected FIRST:LAST:STEP or a comma list of powers of two, e.g. 10:28:2");
    if (v < 1 || v > limits::kBenchLog2Max)
        throw Error("--sizes " + one_line(spec) + ": powers of two from 2^1 to 2^" + std::to_string(limits::kBenchLog2Max) +
                    " are allowed (each number is an exponent)");
    return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t c = s.find(sep, pos);
        out.push_back(s.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
        if (c == std::string::npos) break;
        pos = c + 1;
    }
    return out;
}

void write_file(const std::string& path, const std::string& text, const char* what) {
    try {
        write_file_atomically(path, text);
    } catch (const Error& e) {
        throw Error(std::string(what) + " " + e.what());
    }
    std::cerr << "rlab: wrote " << path << "\n";
}

void print_report(const BenchReport& r) {
    std::cout << r.device << ", driver " << r.driver << ", " << r.cuda << ", " << r.date << "\n";
    if (r.copy_gbps > 0) std::cout << "device-to-device copy: " << int(r.copy_gbps) << " GB/s (read + write)";
    if (r.datasheet_gbps > 0) std::cout << "; datasheet: " << int(r.datasheet_gbps) << " GB/s";
    std::cout << "\n\n";
    for (const std::string& cache : r.caches()) {
        for (const char* dtype : {"f32", "bf16", "f64", "i32"})
            for (const char* op : {"sum", "max", "min"}) {
                const std::string t = bench_table(r, dtype, cache, op);
                if (!t.empty()) std::cout << t << "\n";
            }
        for (const std::string& line : crossover_analysis(r, cache)) std::cout << "- " << line << "\n";
        std::cout << "\n";
    }
    for (const std::string& f : r.failures) std::cout << "CHECK FAILED: " << f << "\n";
}

}  // namespace

std::vector<int> parse_sizes(const std::string& spec) {
    std::vector<int> out;
    if (spec.find(':') != std::string::npos) {
        auto parts = split(spec, ':');
        if (parts.size() != 3) throw Error("--sizes " + one_line(spec) + ": expected FIRST:LAST:STEP, e.g. 10:28:2");
        const int a = to_int(parts[0], spec), b = to_int(parts[1], spec), step = to_int(parts[2], spec);
        if (a > b) throw Error("--sizes " + one_line(spec) + ": needs FIRST <= LAST and STEP >= 1");
        for (int k = a; k <= b; k += step) out.push_back(k);  // all three are at most 30: no overflow
    } else {
        const auto items = split(spec, ',');
        if (items.size() > size_t(limits::kBenchLog2Max))
            throw Error("--sizes: at most " + std::to_string(limits::kBenchLog2Max) + " sizes (2^1 to 2^30)");
        for (const std::string& p : items) out.push_back(to_int(p, spec));
    }
    return out;
}

std::vector<uint64_t> parse_counts(const std::string& spec) {
    std::vector<uint64_t> out;
    const auto items = split(spec, ',');
    if (items.size() > 64) throw Error("--odd-sizes: at most 64 sizes");
    for (const std::string& p : items) {
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
        if (ec != std::errc() || end != p.data() + p.size() || v < 1 || v > (uint64_t(1) << limits::kBenchLog2Max))
            throw Error("--odd-sizes " + one_line(spec) + ": expected a comma list of element counts from 1 to 2^" +
                        std::to_string(limits::kBenchLog2Max) + ", e.g. 1000001,100000007");
        out.push_back(v);
    }
    return out;
}

std::string default_odd_sizes() {
    std::string s;
    for (int k : {10, 14, 18, 22, 26}) s += std::to_string((uint64_t(1) << k) + 1) + ",";
    for (uint64_t p = 1000; p <= 100000000; p *= 10) s += std::to_string(p) + "," + std::to_string(3 * p) + ",";
    s.pop_back();
    return s;
}

CLI::App* add_bench_command(CLI::App& app, BenchArgs& a) {
    auto* c = app.add_subcommand("bench", "time atomic / two-pass / single-pass / fast / CUB reductions on the GPU, "
                                          "with the crossover analysis; --recorded shows the committed results");
    c->add_option("--sizes", a.sizes, "powers of two: FIRST:LAST:STEP or a comma list")->capture_default_str();
    c->add_option("--variants", a.variants,
                  "comma list of atomic-element,atomic-block,two-pass,last-block,cooperative,fast,fast-deterministic,cub,instrumented (default: all)");
    c->add_option("--cache", a.cache, "warm (same buffer again), cold (L2 flushed before each repetition) or both")->capture_default_str();
    c->add_option("--reps", a.reps, "timed repetitions per cell (fewer when one repetition is slow)")->capture_default_str();
    c->add_flag("--no-worked-example", a.no_worked_example, "skip the 67,108,864-value bf16 worked example");
    c->add_flag("--no-harris", a.no_harris, "skip Harris's kernels (int32, 2^22)");
    c->add_flag("--extra-types", a.extra_types, "also the fast path against CUB for f64 sums and f32 max/min");
    c->add_flag("--tune", a.tune, "compare the fast path's launch shapes (how its defaults were chosen)");
    c->add_flag("--fast-matrix", a.fast_matrix,
                "the fast path against CUB only: f32/f64/i32/bf16 sums and f32 max/min at the --sizes powers and at --odd-sizes");
    c->add_option("--odd-sizes", a.odd_sizes,
                  "with --fast-matrix: element counts measured one element past alignment (default 2^k+1, 10^k, 3x10^k)");
    c->add_option("--rounds", a.rounds, "measure the whole matrix this many times, 1 to 5 (the spread between rounds)")
        ->capture_default_str();
    c->add_option("--markdown", a.markdown, "with --recorded: print the generated Markdown the documents quote: summary, tables or crossovers");
    c->add_flag("--recorded", a.recorded, "show recorded results (no GPU needed)");
    c->add_option("--file", a.file, "with --recorded: this bench JSON file (default: $RLAB_BENCH_FILE, else the newest docs/bench/*.json installed next to rlab or in the source tree)");
    c->add_option("--json", a.json, "write the results as JSON (the format of the command-line contract)");
    c->add_option("--csv", a.csv, "write the results as CSV");
    return c;
}

int run_bench(const BenchArgs& a) {
    if (a.recorded) {
        std::string path = a.file;
        if (path.empty()) path = search_recorded_bench().found;
        if (path.empty()) throw Error("--recorded: " + search_recorded_bench().not_found("recorded results") + "; pass --file FILE");
        BenchReport r = load_bench_file(path);
        if (!a.markdown.empty()) {
            std::cout << bench_markdown(r, a.markdown);
            std::cout.flush();
            if (!std::cout) throw Error("--markdown: could not write to standard output");
            return 0;
        }
        std::cout << "recorded results: " << path << "\n";
        print_report(r);
        if (!a.json.empty()) write_file(a.json, bench_to_json(r), "--json");
        if (!a.csv.empty()) write_file(a.csv, bench_to_csv(r), "--csv");
        return 0;
    }

    BenchOptions o;
    o.log2_sizes = parse_sizes(a.sizes);
    if (a.cache == "both") o.caches = {"warm", "cold"};
    else if (a.cache == "warm" || a.cache == "cold") o.caches = {a.cache};
    else throw Error("--cache " + a.cache + ": expected warm, cold or both");
    if (a.reps < 3 || a.reps > 10000) throw Error("--reps " + std::to_string(a.reps) + ": expected 3 to 10000");
    o.reps = a.reps;
    if (!a.variants.empty()) o.variants = split(a.variants, ',');
    o.worked_example = !a.no_worked_example;
    o.harris = !a.no_harris;
    o.extra_types = a.extra_types;
    if (!a.markdown.empty()) throw Error("--markdown needs --recorded (it prints recorded results)");
    if (a.rounds < 1 || a.rounds > 5) throw Error("--rounds " + std::to_string(a.rounds) + ": expected 1 to 5");
    o.rounds = a.rounds;
    o.fast_matrix = a.fast_matrix;
    if (!a.odd_sizes.empty() && !a.fast_matrix) throw Error("--odd-sizes needs --fast-matrix");
    if (a.fast_matrix) o.odd_sizes = parse_counts(a.odd_sizes.empty() ? default_odd_sizes() : a.odd_sizes);

    std::string reason;
    if (!gpu_bench_available(&reason)) {
        std::cerr << "rlab: bench needs a GPU (" << reason << "); recorded results: rlab bench --recorded ("
                  << (search_recorded_bench().found.empty() ? std::string("none installed")
                                                            : search_recorded_bench().found)
                  << ")\n";
        return 2;
    }
    if (a.tune) {
#ifdef RLAB_HAVE_CUDA
        std::cout << cuda::tune_fast_path(o.log2_sizes.back(), o.reps);
        return 0;
#endif
    }
    const bool tty = isatty(STDERR_FILENO);
    o.progress = [tty](const std::string& what, double fraction) {
        std::cerr << (tty ? "\r\033[K" : "") << "rlab bench: " << int(100 * fraction) << "% " << what << (tty ? "" : "\n")
                  << std::flush;
    };
    BenchReport r = run_gpu_bench(o);
    if (tty) std::cerr << "\r\033[K";
    print_report(r);
    if (!a.json.empty()) write_file(a.json, bench_to_json(r), "--json");
    if (!a.csv.empty()) write_file(a.csv, bench_to_csv(r), "--csv");
    return r.failures.empty() ? 0 : 1;
}

}  // namespace rl::cli
