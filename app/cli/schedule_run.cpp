// app/cli/schedule_run.cpp — the SCHEDULE flags and --backend run on the emulator or the GPU.
#include "app/cli/schedule_run.h"

#include <iostream>
#include <CLI/CLI.hpp>

#include "core/emulator.h"
#include "core/file_io.h"

namespace rl::cli {

void add_run_options(CLI::App& cmd, RunArgs& a, bool race_delay) {
    lab::add_schedule_options(cmd, a.schedule);
    cmd.add_option("--backend", a.backend, "auto|cpu|cuda (auto: the GPU when one is usable)")->capture_default_str();
    if (race_delay)
        cmd.add_option("--race-delay", a.race_delay_ns,
                       "GPU race amplifier: producer warps sleep NS nanoseconds before their shared stores");
}

BackendRun run_schedule(const RunArgs& a) {
    BackendChoice choice;
    if (!parse_backend(a.backend, choice)) throw Error("--backend " + one_line(a.backend) + ": expected auto, cpu or cuda");
    Schedule s = a.schedule.build();
    BackendRun run = run_backend(s, choice, a.race_delay_ns);
    if (!run.note.empty()) deferred_note() = run.note;
    return run;
}

std::string& deferred_note() {
    static std::string note;
    return note;
}

void print_header(std::ostream& out, const Trace& t) {
    out << "Reduction Lab — " << describe(t.schedule) << "\n";
    out << "backend: " << (t.backend == Backend::Cuda ? "CUDA on " : "") << t.device << "\n";
}

}  // namespace rl::cli
