// app/lab/kernel_request.cpp — size flags, backend and time limit checked and turned into a KernelRequest.
#include "app/lab/kernel_request.h"

#include <cmath>
#include <filesystem>
#include "app/backend/backend.h"
#include "core/error.h"
#include "core/file_io.h"

namespace rl::lab {
namespace {

// --backend auto as rlab trace resolves it: the GPU when one is usable, else the emulator, saying why in `note`.
void set_backend(student::KernelRequest& r, BackendChoice choice, std::string* note) {
    const GpuStatus gpu = choice == BackendChoice::Cpu ? GpuStatus{} : gpu_status();  // cpu never probes the driver
    if (choice == BackendChoice::Cuda && !gpu.usable) throw Error("--backend cuda: " + gpu.reason);
    r.backend = gpu.usable ? Backend::Cuda : Backend::Cpu;
    if (choice == BackendChoice::Auto && !gpu.usable && note) *note = "no usable GPU (" + gpu.reason + "): using the CPU emulator";
}

}  // namespace

student::KernelRequest kernel_request(const KernelSettings& k, std::string* note) {
    if (k.file.empty()) throw Error("no kernel file given: name a .cu file that includes <rlab/kernel.h>");
    if (std::string flag = k.sizes.flag_beyond_sizes(); !flag.empty())
        throw Error(flag + ": a student's kernel chooses its own stages and type; it takes --n, --block, --grid, "
                           "--input, --seed and --op");
    if (std::string why = student::time_limit_problem(k.time_limit_s); !why.empty()) throw Error(why);
    BackendChoice choice;
    if (!parse_backend(k.backend, choice)) throw Error("--backend " + one_line(k.backend) + ": expected auto, cpu or cuda");
    student::KernelRequest r;
    r.file = k.file;
    r.schedule = k.sizes.build();
    r.op_given = k.sizes.op_given();
    r.time_limit_s = k.time_limit_s;
    set_backend(r, choice, note);
    return r;
}

student::KernelRequest kernel_request_for(const std::string& file, const Schedule& sizes, BackendChoice backend, std::string* note) {
    std::error_code ec;
    if (file.empty()) throw Error("no kernel file given: name a .cu file that includes <rlab/kernel.h>");
    if (!std::filesystem::is_regular_file(file, ec)) throw Error(one_line(file) + ": no such file (a .cu file that includes <rlab/kernel.h>)");
    student::KernelRequest r;
    r.file = file;
    r.schedule.n = sizes.n;
    r.schedule.block = sizes.block;
    r.schedule.grid = sizes.grid;
    r.schedule.input = sizes.input;
    set_backend(r, backend, note);
    return r;
}

std::string first_error_place(const student::KernelOutcome& o) {
    for (const student::Diagnostic& d : o.diagnostics)
        if (d.line > 0 && d.message.find("error") != std::string::npos) return d.file + ":" + std::to_string(d.line);
    return o.diagnostics.empty() || o.diagnostics.front().line <= 0
               ? std::string()
               : o.diagnostics.front().file + ":" + std::to_string(o.diagnostics.front().line);
}

}  // namespace rl::lab
