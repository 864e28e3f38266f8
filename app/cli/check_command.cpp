// app/cli/check_command.cpp — `rlab check`: the hazards and the result of a schedule, optionally over many runs.
#include "app/cli/check_command.h"

#include <iostream>
#include <map>

#include "app/cli/board_view.h"
#include "core/analysis.h"
#include "core/emulator.h"

namespace rl::cli {

CLI::App* add_check_command(CLI::App& app, CheckArgs& a) {
    auto* c = app.add_subcommand("check", "list hazards in plain language; exit 1 when there are any");
    add_run_options(*c, a.run, true);
    c->add_option("--runs", a.runs, "run K times and count the wrong results (races show on a GPU)");
    return c;
}

int run_check(const CheckArgs& a) {
    if (a.runs < 1 || a.runs > 100000) throw Error("--runs " + std::to_string(a.runs) + ": expected 1 to 100000");
    BackendRun run = run_schedule(a.run);
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
            Trace t = r == 0 ? run.trace : run_schedule(a.run).trace;
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

}  // namespace rl::cli
