// app/cli/check_command.cpp — `rlab check`: the hazards and the result of a schedule (optionally over many
// runs), or of a saved trace checked by the rules alone.
#include "app/cli/check_command.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <CLI/CLI.hpp>

#include "app/cli/board_view.h"
#include "app/cli/kernel_file_run.h"
#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"
#include "core/file_io.h"
#include "core/limits.h"
#include "core/trace_io.h"

namespace rl::cli {

CLI::App* add_check_command(CLI::App& app, CheckArgs& a) {
    auto* c = app.add_subcommand("check", "list hazards in plain language; exit 1 when there are any (notes about cost never change the exit code)");
    add_run_options(*c, a.run, true);
    c->add_option("--runs", a.runs, "run K times and count the wrong results (races show on a GPU)");
    c->add_option("--trace", a.trace_file,
                  "check a saved trace (rlab trace --format json) by the rules alone: its own hazards and bug names are ignored");
    c->add_option("--format", a.format, "text, or json ({\"hazards\": [...], \"notes\": [...]} as in the trace format)")->capture_default_str();
    c->add_option("file", a.kernel.file, "a student's kernel (.cu with one RL_KERNEL, or plain CUDA): run and check it with --n --block --grid "
                                         "--input --seed --op");
    add_kernel_name_option(*c, a.kernel);
    add_time_limit_option(*c, a.kernel);
    return c;
}

namespace {

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted = true; }

// A saved trace, checked by the rules alone: whatever hazards and bug names the file carries are dropped
// first, so nothing it announces can reach the report.
int check_saved_trace(const CheckArgs& a) {
    Trace t = read_trace_file(a.trace_file);
    t.schedule.bugs = 0;
    attach_checked_hazards(t);
    if (a.format == "json") {
        write_hazards_json(std::cout, t);
    } else {
        std::cout << a.trace_file << ": " << t.events.size() << " events, checked by the rules (the file's own hazards and bug names are ignored)\n";
        print_header(std::cout, t);
        print_hazards(std::cout, t);
    }
    return t.hazards.empty() ? 0 : 1;
}

// A student's kernel: run in the runner process, checked by the same rules.
int check_kernel_file(const CheckArgs& a) {
    if (!a.trace_file.empty()) throw Error("a kernel file and --trace: check one of them");
    if (a.runs != 1) throw Error("--runs repeats a schedule; a kernel file is checked once: leave --runs out");
    if (a.run.race_delay_ns) throw Error("--race-delay slows the lab's own GPU kernels; a kernel file runs as written: leave it out");
    lab::KernelSettings k = a.kernel;
    k.sizes = a.run.schedule;
    k.backend = a.run.backend;
    int rc = 0;
    const std::optional<Trace> t = run_kernel_file(k, rc);
    if (!t) return rc;
    const Analysis an = analyze(*t);
    if (a.format == "json") {
        write_hazards_json(std::cout, *t);
    } else {
        print_kernel_header(std::cout, *t, k.kernel);
        print_hazards(std::cout, *t);
        print_result(std::cout, *t, an);
    }
    return t->hazards.empty() && !wrong_result(an) && rc == 0 ? 0 : 1;  // rc 1: a program whose main() failed
}

}  // namespace

int run_check(const CheckArgs& a) {
    if (a.runs < 1 || a.runs > limits::kCheckRuns)
        throw Error("--runs " + std::to_string(a.runs) + ": expected 1 to " + std::to_string(limits::kCheckRuns) +
                    " (docs/limits.md); repeat the command for more");
    if (a.format != "text" && a.format != "json") throw Error("--format " + a.format + ": expected text or json");
    if (!a.kernel.file.empty()) return check_kernel_file(a);
    if (!a.kernel.kernel.empty())
        throw Error("--kernel " + one_line(a.kernel.kernel) + ": names a kernel of a plain CUDA file: give the file too "
                    "(rlab check FILE.cu --kernel NAME ...)");
    if (!a.trace_file.empty()) {
        if (a.runs != 1) throw Error("--runs runs a schedule again; a saved --trace is checked once: leave --runs out");
        return check_saved_trace(a);
    }
    if (a.format == "json" && a.runs != 1) throw Error("--runs reports in text: leave --format json out");
    if (uint64_t(a.runs) * a.run.schedule.build().n > limits::kCheckRunElements)
        throw Error("--runs " + std::to_string(a.runs) + " x --n " + std::to_string(a.run.schedule.build().n) +
                    " is over the " + std::to_string(limits::kCheckRunElements) +
                    " elements that one check may run (docs/limits.md); use fewer runs or a smaller --n");
    BackendRun run = run_schedule(a.run);
    Analysis an = analyze(run.trace);
    if (a.format == "json") {
        write_hazards_json(std::cout, run.trace);
        const bool bad = an.verdict == Verdict::Wrong || an.verdict == Verdict::Undefined || an.verdict == Verdict::OrderViolated;
        return run.trace.hazards.empty() && !bad ? 0 : 1;
    }
    print_header(std::cout, run.trace);
    print_hazards(std::cout, run.trace);
    print_result(std::cout, run.trace, an);
    const bool bad_result = an.verdict == Verdict::Wrong || an.verdict == Verdict::Undefined || an.verdict == Verdict::OrderViolated;
    if (a.runs > 1) {
        // What the hardware returns under a race changes from run to run: count the wrong results
        // (by value: the rules already call every run of a buggy schedule undefined).
        // Progress on a terminal, and Ctrl-C ends the loop cleanly with the runs done so far.
        std::map<std::string, uint32_t> seen;
        uint32_t wrong = 0, done = 0;
        const bool tty = isatty(STDERR_FILENO);
        auto old_handler = std::signal(SIGINT, on_interrupt);
        auto last = std::chrono::steady_clock::now();
        for (uint32_t r = 0; r < a.runs && !interrupted; ++r, ++done) {
            if (const auto now = std::chrono::steady_clock::now(); now - last > std::chrono::milliseconds(500)) {
                last = now;
                std::cerr << (tty ? "\r\033[K" : "") << "rlab check: run " << r + 1 << " of " << a.runs << (tty ? "" : "\n")
                          << std::flush;
            }
            Trace t = r == 0 ? run.trace : run_schedule(a.run).trace;
            const Schedule& s = t.schedule;
            std::string v = format_value(s.op, s.type, t.result_value);
            ++seen[v];
            Trace clean = t;
            clean.result_flags &= uint8_t(~kUndefined);
            Verdict verdict = analyze(clean).verdict;
            if (verdict != Verdict::Exact && verdict != Verdict::WithinBound) ++wrong;
        }
        std::signal(SIGINT, old_handler);
        if (tty) std::cerr << "\r\033[K";
        if (interrupted) std::cerr << "rlab check: interrupted after " << done << " of " << a.runs << " runs\n";
        std::cout << "\n" << done << " runs on " << run.trace.device << ": " << wrong << " wrong result(s); values seen:";
        for (auto& [v, n] : seen) std::cout << " " << v << " (x" << n << ")";
        std::cout << "\n";
    }
    if (interrupted) return 130;  // the shell's code for Ctrl-C, after the summary of the runs done
    return run.trace.hazards.empty() && !bad_result ? 0 : 1;
}

}  // namespace rl::cli
