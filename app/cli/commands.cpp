// app/cli/commands.cpp — rlab trace / depth / check / import, over the backend and the analysis.
#include "app/cli/commands.h"

#include <fstream>
#include <map>
#include <iostream>

#include "app/cli/board_view.h"
#include "core/analysis.h"
#include "core/emulator.h"
#include "core/trace_io.h"

namespace rl::cli {
namespace {

BackendRun run_schedule(const TraceArgs& a) {
    BackendChoice choice;
    if (!parse_backend(a.backend, choice)) throw Error("--backend " + a.backend + ": expected auto, cpu or cuda");
    Schedule s = a.schedule.build();
    BackendRun run = run_backend(s, choice, a.race_delay_ns);
    if (!run.note.empty()) std::cerr << "rlab: " << run.note << "\n";
    return run;
}

void print_header(std::ostream& out, const Trace& t) {
    out << "Reduction Lab — " << describe(t.schedule) << "\n";
    out << "backend: " << (t.backend == Backend::Cuda ? "CUDA on " : "") << t.device << "\n";
}

}  // namespace

int run_trace(const TraceArgs& a) {
    if (a.format != "text" && a.format != "json" && a.format != "chrome")
        throw Error("--format " + a.format + ": expected text, json or chrome");
    BackendRun run = run_schedule(a);
    std::ofstream file;
    if (!a.output.empty()) {
        file.open(a.output, std::ios::binary);
        if (!file) throw Error("-o " + a.output + ": cannot open for writing");
    }
    std::ostream& out = a.output.empty() ? std::cout : file;
    if (a.format == "json") {
        write_trace_json(out, run.trace);
    } else if (a.format == "chrome") {
        write_chrome_trace(out, run.trace);
    } else {
        Analysis an = analyze(run.trace);
        print_header(out, run.trace);
        print_board(out, run.trace);
        print_result(out, run.trace, an);
        print_depth_table(out, run.trace, an);
        print_hazards(out, run.trace);
    }
    out.flush();
    if (!out) throw Error("writing " + (a.output.empty() ? std::string("standard output") : a.output) + " failed");
    if (!a.output.empty()) std::cerr << "rlab: wrote " << run.trace.events.size() << " events to " << a.output << "\n";
    return 0;
}

int run_depth(const TraceArgs& a) {
    BackendRun run = run_schedule(a);
    Analysis an = analyze(run.trace);
    print_header(std::cout, run.trace);
    print_depth_table(std::cout, run.trace, an);
    return 0;
}

int run_check(const TraceArgs& a) {
    if (a.runs < 1 || a.runs > 100000) throw Error("--runs " + std::to_string(a.runs) + ": expected 1 to 100000");
    BackendRun run = run_schedule(a);
    Analysis an = analyze(run.trace);
    print_header(std::cout, run.trace);
    print_hazards(std::cout, run.trace);
    print_result(std::cout, run.trace, an);
    const bool bad_result = an.verdict == Verdict::Wrong || an.verdict == Verdict::Undefined || an.verdict == Verdict::OrderViolated;
    if (a.runs > 1) {
        // What the hardware returns under a race changes from run to run: count the wrong results
        // (by value: the rules already call every run of a buggy schedule undefined).
        std::map<std::string, uint32_t> seen;
        uint32_t wrong = 0;
        for (uint32_t r = 0; r < a.runs; ++r) {
            Trace t = r == 0 ? run.trace : run_schedule(a).trace;
            const Schedule& s = t.schedule;
            std::string v = format_value(s.op, s.type, t.result_value);
            ++seen[v];
            Trace clean = t;
            clean.result_flags &= uint8_t(~kUndefined);
            Verdict verdict = analyze(clean).verdict;
            if (verdict != Verdict::Exact && verdict != Verdict::WithinBound) ++wrong;
        }
        std::cout << "\n" << a.runs << " runs on " << run.trace.device << ": " << wrong << " wrong result(s); values seen:";
        for (auto& [v, n] : seen) std::cout << " " << v << " (x" << n << ")";
        std::cout << "\n";
    }
    return run.trace.hazards.empty() && !bad_result ? 0 : 1;
}

int run_import(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(file + ": cannot open for reading");
    Trace t = read_trace_json(in);
    Analysis an = analyze(t);
    std::cout << file << ": valid trace, version " << kTraceJsonVersion << ", " << t.events.size() << " events, "
              << t.hazards.size() << " hazard(s)" << (t.times.empty() ? "" : ", with GPU timestamps") << "\n";
    print_header(std::cout, t);
    print_result(std::cout, t, an);
    print_depth_table(std::cout, t, an);
    return 0;
}

int run_eight_threads() {
    Schedule s;  // the defaults are the eight-thread example: 1..8 summed by one block of 8 threads
    Trace t = emulate(s);
    Analysis an = analyze(t);
    std::cout << "The eight-thread example: eight values, four pairs at once, then two, then one.\n";
    print_header(std::cout, t);
    print_board(std::cout, t);
    print_result(std::cout, t, an);
    print_depth_table(std::cout, t, an);
    std::cout << "\nSame " << an.work << " additions as the serial chain, but depth " << an.span << " instead of "
              << an.serial_depth << ". Try: rlab trace --n 40 --block 40 --bug full-mask-partial-warp\n";
    return 0;
}

}  // namespace rl::cli
