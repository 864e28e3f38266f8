// tests/bench/student_bench.cpp — rlab_student_bench: where the time and memory of a student's kernel run go, from
// the records to a trace ready to animate, and `rlab run` end to end. A benchmark that prints its figures, not a
// test: run it on a quiet machine and record the output (docs/measurements.md).
//
//   rlab_student_bench [--quick] [--json] [--no-e2e] [--rlab PATH] [--reps R] [CASE...]
//
// For each case (a kernel file, n, block, grid) it prints:
//   - in process, phase by phase (core/phase_clock.h): the kernel's compile, the launches, the records made into
//     a trace (steps, order, atomics, reference, checker), the runner's handoff written to a file and read back as
//     the parent reads it, the analysis and the board `rlab run` prints;
//   - events a second from the first launch to a trace ready to animate (the compile apart: it does not grow with
//     n), and the bytes a trace holds per event: the handoff file, and the peak resident memory of each side
//     (VmHWM, reset before each side, minus the resident memory before it), divided by the events;
//   - `rlab run FILE ... --backend cpu > /dev/null` end to end (wall seconds, best and worst of R runs), with the
//     peak resident memory of rlab (the parent) and of its runner.
// Cases: the default list (Harris's kernel 4 and the Kepler blog's kernel in plain CUDA, the dialect's grid-stride
// kernel; 2^16 and 2^20 elements; the plain CUDA ones with the launch plan that reduces them to one value), or
// CASE = FILE:N:BLOCK[:GRID][@PLAN], PLAN a plain CUDA file's --launch (e.g. 'k<<<64,256,1024>>>(in,tmp,n); ...').
// Each case also prints issue 32's goals (>= 10 M events/s, <= 40 B/event, <= 2 s end to end) met or not.
#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/board_view.h"
#include "core/analysis.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/phase_clock.h"
#include "core/trace_binary.h"
#include "core/trace_io.h"
#include "student/cuda_compile.h"
#include "student/host_compile.h"
#include "student/host_runtime.h"
#include "student/launch_plan.h"
#include "student/launch_syntax.h"
#ifdef RLAB_HAVE_SIMT
#include "simt/program.h"
#include "student/cuda_source.h"
#include "student/ir_backend.h"
#include "student/plan_run.h"
#endif

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Case {
    std::string file;
    uint64_t n = 0;
    uint32_t block = 0, grid = 0;
    std::string plan;  // a plain CUDA file's --launch plan (empty: the one contract launch)
};

// Per phase: its seconds, and the resident memory (kB) at its end and at the peak so far (VmRSS, VmHWM): where the
// bytes of a run go, phase by phase (a phase run twice keeps its larger figures).
struct Phases {
    struct Row {
        std::string name;
        double s = 0;
        long rss_kb = 0, hwm_kb = 0;
    };
    std::vector<Row> list;
    void add(const char* name, double s, long rss_kb, long hwm_kb) {
        for (Row& r : list)
            if (r.name == name) {
                r.s += s;
                r.rss_kb = std::max(r.rss_kb, rss_kb);
                r.hwm_kb = std::max(r.hwm_kb, hwm_kb);
                return;
            }
        list.push_back({name, s, rss_kb, hwm_kb});
    }
    double total() const {
        double t = 0;
        for (const Row& r : list) t += r.s;
        return t;
    }
};
Phases* g_phases = nullptr;
bool g_json = false;  // --json: the handoff as JSON, as the runner wrote it before the binary form

// Resident memory now and at its peak (kB), from /proc/self/status; the peak is reset by clear_refs 5.
long status_kb(const char* field) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field, 0) == 0) return std::atol(line.c_str() + std::strlen(field));
    return 0;
}
long g_base_kb = 0;  // resident memory where the current side (runner, parent) started
void sink(const char* name, double s) {
    if (g_phases) g_phases->add(name, s, status_kb("VmRSS:") - g_base_kb, status_kb("VmHWM:") - g_base_kb);
}
void reset_peak() {
    malloc_trim(0);  // what the previous side freed leaves the resident set
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::string source_dir() { return RLAB_SOURCE_DIR; }

bool is_plain(const std::string& source) {
    return rl::student::is_plain_cuda(source) && source.find("rlab/kernel.h") == std::string::npos;
}

// A dialect file compiled as the runner compiles it: its backend.
std::unique_ptr<rl::student::KernelBackend> compile_dialect(const std::string& file, const std::string& source) {
    rl::student::HostCompile c = rl::student::compile_host_kernel(file, source);
    if (!c.ok) throw rl::Error(file + ": " + c.error + c.log);
    return rl::student::make_cpu_backend(c.plugin);
}

// A plain CUDA file's launches run as the runner runs them (student/runner_main.cpp run_plain_file): compiled for the
// kernels the plan names, decoded, the plan bound (or the one contract launch), run, assembled. `compiled` is called
// once the compile is done (the bench's first phase ends there).
rl::student::PlanOutcome run_plain(const Case& c, const std::string& source, const std::function<void()>& compiled) {
#ifdef RLAB_HAVE_SIMT
    const std::vector<rl::student::PlannedLaunch> plan = c.plan.empty() ? std::vector<rl::student::PlannedLaunch>{}
                                                                         : rl::student::parse_launch_plan(c.plan);
    std::vector<std::string> names;
    for (const rl::student::PlannedLaunch& l : plan) names.push_back(l.kernel);
    rl::student::CudaCompile cc = rl::student::compile_cuda_device(c.file, source, names);
    if (!cc.ok) throw rl::Error(c.file + ": " + cc.error + cc.log);
    const rl::simt::Module module = rl::simt::decode(cc.bitcode, c.file);
    compiled();
    rl::Schedule s;
    s.n = c.n;
    s.block = c.block;
    s.grid = c.grid;
    const std::vector<rl::student::BoundLaunch> launches =
        plan.empty() ? rl::student::contract_launch(
                           rl::student::choose_kernel(module, "", rl::student::cuda_kernel_declarations(source), c.block), s, c.file)
                     : rl::student::bind_plan(module, plan);
    return rl::student::run_plan(module, launches, s, false, c.file);
#else
    (void)source, (void)compiled;
    throw rl::Error(c.file + ": plain CUDA needs the lab built with LLVM 14");
#endif
}

struct ChildRun {
    double wall_s = 0;
    long maxrss_kb = 0;  // of the child and the children it waited for
    int status = 0;
};
ChildRun run_child(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    const auto t0 = Clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ) != 0) throw rl::Error("cannot run " + argv[0]);
    posix_spawn_file_actions_destroy(&fa);
    ChildRun r;
    rusage ru{};
    wait4(pid, &r.status, 0, &ru);
    r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    r.maxrss_kb = ru.ru_maxrss;
    return r;
}

std::vector<std::string> run_args(const Case& c) {
    std::vector<std::string> a{c.file, "--n", std::to_string(c.n), "--block", std::to_string(c.block)};
    if (c.grid) a.insert(a.end(), {"--grid", std::to_string(c.grid)});
    if (!c.plan.empty()) a.insert(a.end(), {"--launch", c.plan});
    return a;
}

void bench(const Case& c, const std::string& rlab, const std::string& runner, int reps) {
    std::printf("\n== %s  n=%llu block=%u%s%s\n", fs::path(c.file).filename().c_str(), (unsigned long long)c.n, c.block,
                c.grid ? (" grid=" + std::to_string(c.grid)).c_str() : "", c.plan.empty() ? "" : ("  --launch '" + c.plan + "'").c_str());
    Phases ph;
    g_phases = &ph;
    g_base_kb = status_kb("VmRSS:");
    rl::phase::set_sink(&sink);
    const std::string source = rl::read_text_file(c.file, "kernel file", 1 << 20);
    const bool plain = is_plain(source);
    std::unique_ptr<rl::student::KernelBackend> backend;
    if (!plain) {
        backend = compile_dialect(c.file, source);
        rl::phase::mark("compile (clang or the host compiler)");
    }

    // The runner's side: launches, assembly, checker, the handoff written.
    long runner_base = 0;
    auto runner_starts = [&] {
        if (plain) rl::phase::mark("compile (clang or the host compiler)");
        reset_peak();
        runner_base = g_base_kb = status_kb("VmRSS:");
        rl::phase::set_sink(&sink);
    };
    rl::student::PlanOutcome run;
    if (plain) {
        run = run_plain(c, source, runner_starts);
    } else {
        runner_starts();
        rl::Schedule s;
        s.n = c.n;
        s.block = c.block;
        s.grid = c.grid;
        run = rl::student::run_launches(*backend, s, false, rl::Backend::Cpu, c.file);
    }
    if (!run.ok) throw rl::Error(c.file + ": " + run.error);
    rl::phase::mark("records freed, trace returned");
    // Where rlab run hands the trace over (student/kernel_run.cpp): /dev/shm when it has room, else /tmp.
    struct statvfs shm {};
    const bool in_memory = statvfs("/dev/shm", &shm) == 0 && uint64_t(shm.f_bavail) * shm.f_frsize >= (1ull << 30);
    const std::string path = std::string(in_memory ? "/dev/shm" : "/tmp") + "/rlab-bench-" + std::to_string(getpid()) + ".trace";
    if (g_json) rl::write_file_atomically(path, [&](std::ostream& o) { rl::write_trace_json(o, run.trace); });
    else rl::write_trace_binary_file(path, run.trace);  // as the runner writes it
    rl::phase::mark("handoff written (runner)");
    const long runner_peak = status_kb("VmHWM:");
    const uint64_t events = run.trace.events.size();
    run = {};
    backend.reset();

    // The parent's side: the handoff read, the analysis, the board.
    reset_peak();
    const long parent_base = g_base_kb = status_kb("VmRSS:");
    rl::phase::set_sink(&sink);
    rl::Trace t = g_json ? rl::read_trace_file(path) : rl::read_trace_binary_file(path);
    rl::phase::mark("handoff read (parent)");
    const rl::Analysis an = rl::analyze(t);
    rl::phase::mark("analysis");
    {
        std::ostringstream board;
        rl::cli::print_board(board, t);
        rl::cli::print_result(board, t, an);
        rl::cli::print_depth_table(board, t, an);
        rl::cli::print_hazards(board, t);
    }
    rl::phase::mark("board printed");
    const long parent_peak = status_kb("VmHWM:");
    rl::phase::set_sink(nullptr);
    const uint64_t file_bytes = fs::file_size(path);
    fs::remove(path);

    double recorded = 0, launches = 0;
    std::printf("  %-40s %10s   %s\n", "phase", "seconds", "bytes per event at its end: resident, peak (over the side's start)");
    for (const Phases::Row& row : ph.list) {
        const std::string& name = row.name;
        const double sec = row.s;
        std::printf("  %-40s %8.3f s   %6.1f %6.1f\n", name.c_str(), sec, double(row.rss_kb) * 1024.0 / double(events),
                    double(row.hwm_kb) * 1024.0 / double(events));
        if (name.rfind("compile", 0) != 0) recorded += sec;
        if (name.rfind("launch", 0) == 0 || name == "input") launches += sec;
    }
    std::printf("  %-40s %8.3f s\n", "in process, without the compile", recorded);
    std::printf("  events %llu, hazards %zu, verdict %s; million events a second: %.1f from the launch to a trace ready to "
                "animate, %.1f from the records (the launches apart)\n",
                (unsigned long long)events, t.hazards.size(), std::string(rl::to_string(an.verdict)).c_str(),
                double(events) / recorded / 1e6, double(events) / (recorded - launches) / 1e6);
    std::printf("  bytes per event: handoff file %.1f; runner peak %.1f over its start (%.1f in all); parent peak %.1f over its "
                "start (%.1f in all)\n",
                double(file_bytes) / double(events), double(runner_peak - runner_base) * 1024.0 / double(events),
                double(runner_peak) * 1024.0 / double(events), double(parent_peak - parent_base) * 1024.0 / double(events),
                double(parent_peak) * 1024.0 / double(events));

    // Issue 32's goals for 2^20 elements (docs/measurements.md): held to the figures above, so a run says how far off.
    const double rate = double(events) / recorded / 1e6, runner_bpe = double(runner_peak - runner_base) * 1024.0 / double(events),
                 parent_bpe = double(parent_peak - parent_base) * 1024.0 / double(events);
    std::printf("  goals (issue 32): >= 10 M events/s launch to ready: %.1f (%s); <= 40 B/event at the peak: runner %.1f (%s), "
                "parent %.1f (%s)\n",
                rate, rate >= 10 ? "met" : "not met", runner_bpe, runner_bpe <= 40 ? "met" : "not met", parent_bpe,
                parent_bpe <= 40 ? "met" : "not met");

    // End to end: rlab run, as a student runs it, and the runner alone (its peak memory).
    if (rlab.empty()) return;
    std::vector<double> walls;
    long parent_rss = 0;
    int status = 0;
    for (int r = 0; r < reps; ++r) {
        std::vector<std::string> argv{rlab, "run"};
        for (const std::string& a : run_args(c)) argv.push_back(a);
        argv.insert(argv.end(), {"--backend", "cpu", "--time-limit", "300"});
        ChildRun e = run_child(argv);
        walls.push_back(e.wall_s);
        parent_rss = std::max(parent_rss, e.maxrss_kb);
        status = e.status;
    }
    std::sort(walls.begin(), walls.end());
    std::vector<std::string> argv{runner};
    for (const std::string& a : run_args(c)) argv.push_back(a);
    argv.insert(argv.end(), {"--out", path, "--time-limit", "300"});
    ChildRun rr = run_child(argv);
    fs::remove(path);
    std::printf("  rlab run end to end: %.2f-%.2f s wall (%d runs, exit %d); peak resident memory: rlab and its children "
                "%.0f MB (%.1f B/event), the runner and its compiler %.0f MB (%.1f B/event)\n",
                walls.front(), walls.back(), reps, WIFEXITED(status) ? WEXITSTATUS(status) : -1, double(parent_rss) / 1024.0,
                double(parent_rss) * 1024.0 / double(events), double(rr.maxrss_kb) / 1024.0,
                double(rr.maxrss_kb) * 1024.0 / double(events));
    std::printf("  goal (issue 32): rlab run end to end <= 2 s: best %.2f s (%s)\n", walls.front(), walls.front() <= 2.0 ? "met" : "not met");
}

}  // namespace

int main(int argc, char** argv) {
    std::string rlab = RLAB_EXE, runner = RLAB_RUNNER_EXE;
    int reps = 3;
    bool quick = false;
    std::vector<Case> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") quick = true;
        else if (a == "--rlab" && i + 1 < argc) rlab = argv[++i];
        else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--no-e2e") rlab.clear();
        else if (a == "--json") g_json = true;
        else {
            Case c;
            std::vector<std::string> f;
            const size_t at = a.find('@');
            if (at != std::string::npos) c.plan = a.substr(at + 1);
            std::stringstream ss(a.substr(0, at));
            for (std::string part; std::getline(ss, part, ':');) f.push_back(part);
            if (f.size() < 3) {
                std::fprintf(stderr, "rlab_student_bench: %s: expected FILE:N:BLOCK[:GRID][@PLAN]\n", a.c_str());
                return 2;
            }
            c.file = f[0];
            c.n = std::stoull(f[1]);
            c.block = uint32_t(std::stoul(f[2]));
            c.grid = f.size() > 3 ? uint32_t(std::stoul(f[3])) : 0;
            cases.push_back(c);
        }
    }
    if (cases.empty()) {
        const std::string corpus = source_dir() + "/tests/cuda/corpus/", dialect = source_dir() + "/tests/student/kernels/";
        // Plain CUDA runs the launches written (docs/plain-cuda.md): Harris 4 reads 2 * block elements per block, so its
        // second launch, one block, reads 2 * block partials: grid = 2 * block. The Kepler kernel loops over its input.
        const std::string h4_16 = "harris4<<<256,128,512>>>(in,tmp,n); harris4<<<1,128,512>>>(tmp,out,256)",
                          h4_20 = "harris4<<<1024,512,2048>>>(in,tmp,n); harris4<<<1,512,2048>>>(tmp,out,1024)",
                          k_16 = "device_reduce<<<256,256>>>(in,tmp,n); device_reduce<<<1,256>>>(tmp,out,256)",
                          k_20 = "device_reduce<<<4096,256>>>(in,tmp,n); device_reduce<<<1,256>>>(tmp,out,4096)";
        cases = {{corpus + "harris4_first_add_during_load.cu", 1 << 16, 128, 256, h4_16},
                 {corpus + "kepler_device_reduce.cu", 1 << 16, 256, 256, k_16},
                 {dialect + "grid_stride.cu", 1 << 16, 256, 0, ""}};
        if (!quick)
            cases.insert(cases.end(), {{corpus + "harris4_first_add_during_load.cu", 1 << 20, 512, 1024, h4_20},
                                       {corpus + "kepler_device_reduce.cu", 1 << 20, 256, 4096, k_20},
                                       {dialect + "grid_stride.cu", 1 << 20, 256, 0, ""}});
    }
    char host[256] = "?";
    gethostname(host, sizeof host);
    std::printf("rlab_student_bench: %ld cores online, host %s\n", sysconf(_SC_NPROCESSORS_ONLN), host);
    try {
        for (const Case& c : cases) bench(c, rlab, runner, reps);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rlab_student_bench: %s\n", rl::one_line(e.what(), 2000).c_str());
        return 1;
    }
    return 0;
}
