// app/cli/run_time.cpp — rlab run --time: the request from the flags, the GPU timer, its rows or JSON, the exit code.
#include "app/cli/run_time.h"

#include <iostream>

#include "app/backend/backend.h"
#include "app/backend/kernel_timer.h"
#include "core/error.h"
#include "core/file_io.h"
#include "student/cuda_source.h"
#include "student/launch_syntax.h"

namespace rl::cli {
namespace {

constexpr uint64_t kKernelFileBytes = 1 << 20;  // as the runner's limit

TimedArg timed_arg(student::PlanArgKind k) {
    switch (k) {
        case student::PlanArgKind::In: return TimedArg::In;
        case student::PlanArgKind::Out: return TimedArg::Out;
        case student::PlanArgKind::Tmp: return TimedArg::Tmp;
        case student::PlanArgKind::N: return TimedArg::N;
        case student::PlanArgKind::Literal: break;
        case student::PlanArgKind::Tmpi:
            throw Error("--time: the plan passes tmpi, argmax's scratch indices: --time times sum, max and min kernels "
                        "(run an argmax plan on the emulator, without --time)");
    }
    return TimedArg::Literal;
}

}  // namespace

KernelTimingRequest timing_request(const lab::KernelSettings& k) {
    if (k.file.empty()) throw Error("--time: no kernel file given: name a plain CUDA .cu file");
    if (std::string flag = k.sizes.flag_beyond_sizes(); !flag.empty())
        throw Error(flag + ": a student's kernel chooses its own stages and type; it takes --n, --block, --grid, --input, "
                           "--seed and --op");
    KernelTimingRequest r;
    r.file = k.file;
    r.source = read_text_file(k.file, "kernel file", kKernelFileBytes);
    if (!student::is_plain_cuda(r.source))
        throw Error("--time: " + one_line(k.file) + " is a kernel in the lab's dialect (RL_KERNEL); --time times plain "
                    "CUDA files as nvcc takes them");
    if (const int line = student::main_function_line(r.source))
        throw Error("--time: " + one_line(k.file) + ":" + std::to_string(line) +
                    " has main(): NVRTC compiles device code only; give --time the kernels without main()");
    const Schedule s = k.sizes.build();
    r.n = s.n;
    r.input = s.input;
    r.op = k.sizes.op_given() ? s.op : Op::Sum;
    r.time_limit_s = k.time_limit_s;
    if (!k.launch.empty()) {
        if (!k.kernel.empty()) throw Error("--kernel and --launch: give one (--launch names the kernel of every launch)");
        for (const student::PlannedLaunch& p : student::parse_launch_plan(k.launch)) {
            TimedLaunch l;
            l.kernel = p.kernel;
            l.grid = p.grid;
            l.block = p.block;
            l.shared_bytes = p.shared_bytes;
            for (const student::PlanArg& a : p.args) {
                l.args.push_back(timed_arg(a.kind));
                l.literals.push_back(a.literal);
            }
            if (l.grid == 0 || l.block == 0 || l.block > 1024)
                throw Error("--launch: " + student::launch_text(p) + ": grid must be at least 1 and block 1 to 1024");
            r.plan.push_back(std::move(l));
        }
        return r;
    }
    // The contract's one launch: K<<<grid, block, block * sizeof(T)>>>(in, out, n), T known once compiled.
    std::string name = k.kernel;
    if (name.empty()) {
        const std::vector<student::CudaKernelDecl> declared = student::cuda_kernel_declarations(r.source);
        if (declared.size() != 1)
            throw Error("--time: " + one_line(k.file) + " declares " + std::to_string(declared.size()) +
                        " __global__ kernels" + (declared.empty() ? "" : " (" + student::declared_kernel_list(declared) + ")") +
                        ": name one with --kernel NAME or give the launches with --launch");
        if (declared[0].is_template)
            throw Error("--time: " + declared[0].name + " is a template: name its instance, e.g. --kernel " +
                        student::kernel_name_example(declared[0], s.block));
        name = declared[0].name;
    }
    TimedLaunch l;
    l.kernel = name;
    l.block = s.block;
    l.grid = s.grid ? s.grid : uint32_t((s.n + s.block - 1) / s.block);
    l.args = {TimedArg::In, TimedArg::Out, TimedArg::N};
    l.literals = {0, 0, 0};
    r.plan.push_back(std::move(l));
    r.single_launch = true;
    return r;
}

int run_timed(const KernelRunArgs& a) {
    if (a.format != "board" && a.format != "json")
        throw Error("--format " + one_line(a.format) + ": with --time, board (the rows) or json");
    BackendChoice choice;
    if (!parse_backend(a.kernel.backend, choice)) throw Error("--backend " + one_line(a.kernel.backend) + ": expected auto, cpu or cuda");
    if (choice == BackendChoice::Cpu)
        throw Error("--time times the kernel on a GPU: it needs --backend cuda (the emulator records every step of the "
                    "kernel instead; drop --time to run it there)");
    const KernelTimingRequest request = timing_request(a.kernel);
    std::string reason;
    if (!kernel_timing_available(&reason))
        throw Error("--time needs --backend cuda on a machine with a usable GPU and an rlab built with CUDA and NVRTC: " + reason);
    KernelTiming t;
    try {
        t = time_kernel_on_gpu(request);
    } catch (const KernelTimingError& e) {
        if (!e.log.empty()) std::cerr << e.log << "\n";
        std::cerr << "rlab: " << a.kernel.file << ": " << one_line(e.what()) << "\n";
        return e.kind == KernelTimingError::Program ? 1 : 2;
    }
    auto write = [&](std::ostream& out) { out << (a.format == "json" ? kernel_timing_to_json(t) : kernel_timing_text(t)); };
    if (a.output.empty()) {
        write(std::cout);
        flush_stdout_checked();
    } else {
        write_file_atomically(a.output, write);
        std::cerr << "rlab: wrote the timing to " << a.output << "\n";
    }
    for (const KernelTimingRow& r : t.rows)
        if (r.timed && r.wrong)
            std::cerr << "CHECK FAILED: " << r.name << ": " << r.wrong << " of " << r.reps
                      << " timed repetitions left out[0] other than the reference " << t.check.text << "\n";
    return kernel_timing_ok(t) ? 0 : 1;
}

}  // namespace rl::cli
