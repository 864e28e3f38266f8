// app/cli/numerics_command.cpp — rlab numerics: the comparison table of core/numerics.h as text or JSON.
#include "app/cli/numerics_command.h"
#include "core/text_format.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <CLI/CLI.hpp>

#include "app/backend/numerics_gpu.h"
#include "app/cli/schedule_run.h"
#include "core/emulator.h"
#include "core/numerics.h"

namespace rl::cli {
namespace {

void print_text(std::ostream& out, const NumericsReport& r) {
    const Schedule& s = r.schedule;
    out << "Numerics lab — " << describe(s) << " input=" << to_string(s.input.kind) << " seed=" << s.input.seed << "\n";
    out << "exact sum " << format_number("%.17g", r.exact) << " (Shewchuk expansion, " << r.exact_partials.size()
        << " partial(s)); correctly rounded " << r.accumulator << " " << r.reference_hex << "; sum|x| "
        << format_number("%.6g", r.abs_sum) << "; u = " << (r.accumulator == "f64" ? "2^-53" : "2^-24") << "\n\n";
    char line[400];
    snprintf(line, sizeof line, "%-30s %-16s %-12s %-10s %-10s %-9s %-10s %-4s %-6s %s\n", "row", "result", "bits",
             "abs err", "rel err", "ULPs", "bound", "ok", "span", "flops");
    out << line;
    for (const NumericsRow& row : r.rows) {
        std::string label = row.label;
        if (row.group == RowGroup::WarpTree) label = "warp " + label;
        if (row.group == RowGroup::Accumulation) label = "accum " + label;
        if (row.group == RowGroup::GridStage) label = "grid " + label;
        std::string ok = row.within_bound ? "yes" : "NO";
        snprintf(line, sizeof line, "%-30s %-16s %-12s %-10s %-10s %-9s %-10s %-4s %-6u %llu", label.c_str(),
                 format_number("%.9g", row.value).c_str(), row.bits_hex.c_str(), format_number("%.3g", row.abs_error).c_str(),
                 format_number("%.3g", row.rel_error).c_str(), format_number("%.3g", row.ulps).c_str(), format_number("%.3g", row.bound).c_str(),
                 ok.c_str(), row.span, static_cast<unsigned long long>(row.flops));
        out << line;
        if (row.gpu_time_us >= 0) out << format_number("  %.1f us on the GPU", row.gpu_time_us);
        out << "\n";
        if (!row.deterministic) {
            out << "    " << row.patterns.size() << " distinct bit pattern(s) over " << row.runs << " ("
                << row.runs_source << "):";
            for (const BitPattern& p : row.patterns) {
                char hex[24];
                snprintf(hex, sizeof hex, r.accumulator == "f64" ? " 0x%016llx" : " 0x%08llx",
                         static_cast<unsigned long long>(p.bits));
                out << hex << " x" << p.count;
            }
            out << "; worst error " << format_number("%.3g", row.worst_abs_error) << "\n";
        }
        if (!row.note.empty()) out << "    (" << row.note << ")\n";
    }
    out << "\nbounds (guaranteed, beside the measured errors):\n";
    for (const NumericsRow& row : r.rows)
        if (row.group == RowGroup::Serial || row.chosen)
            out << "  " << row.label << ": " << row.bound_formula << "\n";
    out << "  other schedule rows: gamma_span*sum|x| (plain), or (e + (1+e)*gamma_d)*sum|x| with the thread stage's "
           "bound e and d roundings above it; see docs/numerics.md\n";
    out << "flops: floating-point adds, subtracts and conversions the order executes (the CPU cost); "
           "atomic rows: the other orders are legal completion orders of the same atomics\n";
}

nlohmann::json to_json(const NumericsReport& r) {
    using nlohmann::json;
    json j;
    j["schedule"] = describe(r.schedule);
    j["input"] = to_string(r.schedule.input.kind);
    j["seed"] = r.schedule.input.seed;
    j["accumulator"] = r.accumulator;
    j["unit_roundoff"] = r.unit_roundoff;
    j["exact"] = r.exact;
    j["exact_partials"] = r.exact_partials;
    j["reference_bits"] = r.reference_hex;
    j["abs_sum"] = r.abs_sum;
    json rows = json::array();
    for (const NumericsRow& row : r.rows) {
        json o{{"group", to_string(row.group)}, {"label", row.label}, {"schedule", row.schedule},
               {"chosen", row.chosen}, {"value", row.value}, {"bits", row.bits_hex}, {"abs_error", row.abs_error},
               {"rel_error", row.rel_error}, {"ulps", row.ulps}, {"bound", row.bound},
               {"bound_formula", row.bound_formula}, {"within_bound", row.within_bound}, {"span", row.span},
               {"flops", row.flops}, {"flops_formula", row.flops_formula}, {"deterministic", row.deterministic}};
        if (!row.note.empty()) o["note"] = row.note;
        if (row.gpu_time_us >= 0) o["gpu_time_us"] = row.gpu_time_us;
        if (!row.deterministic) {
            o["runs"] = row.runs;
            o["runs_source"] = row.runs_source;
            o["worst_abs_error"] = row.worst_abs_error;
            json ps = json::array();
            for (const BitPattern& p : row.patterns) {
                char hex[24];
                snprintf(hex, sizeof hex, r.accumulator == "f64" ? "0x%016llx" : "0x%08llx",
                         static_cast<unsigned long long>(p.bits));
                ps.push_back({{"bits", hex}, {"value", p.value}, {"count", p.count}});
            }
            o["patterns"] = ps;
        }
        rows.push_back(o);
    }
    j["rows"] = rows;
    return j;
}

}  // namespace

CLI::App* add_numerics_command(CLI::App& app, NumericsArgs& a) {
    auto* cmd = app.add_subcommand(
        "numerics",
        "one input summed in many orders (serial, Kahan, f64, pairwise, the schedule and its variants, atomic "
        "orders): result bits, error against the exact sum, guaranteed bound, flops");
    lab::add_schedule_options(*cmd, a.schedule);
    cmd->add_option("--runs", a.runs, "orders per atomic grid stage: GPU runs with a GPU, else seeded emulated orders")
        ->capture_default_str();
    cmd->add_option("--order-seed", a.order_seed, "seed of the emulated atomic orders")->capture_default_str();
    cmd->add_option("--backend", a.backend, "auto|cpu|cuda: where atomic rows run and accumulation choices are timed")
        ->capture_default_str();
    cmd->add_option("--format", a.format, "text or json")->capture_default_str();
    return cmd;
}

int run_numerics(const NumericsArgs& a) {
    if (a.format != "text" && a.format != "json") throw Error("--format " + a.format + ": expected text or json");
    BackendChoice choice;
    if (!parse_backend(a.backend, choice)) throw Error("--backend " + a.backend + ": expected auto, cpu or cuda");
    if (a.runs < 1 || a.runs > 100000) throw Error("--runs " + std::to_string(a.runs) + ": expected 1 to 100000");
    Schedule s = a.schedule.build();
    if (std::string err = numerics_supported(s); !err.empty()) throw Error(err);
    if (std::string err = check_traceable(s); !err.empty()) throw Error(err);
    InputData input = make_input(s);
    NumericsOptions o;
    o.atomic_orders = a.runs;
    o.order_seed = a.order_seed;
    NumericsReport r = compare_numerics(s, input, o);
    deferred_note() = measure_numerics_on_gpu(r, input, choice, a.runs);  // printed by main on success
    if (a.format == "json")
        std::cout << to_json(r).dump(2) << "\n";
    else
        print_text(std::cout, r);
    return 0;
}

}  // namespace rl::cli
