// app/lab/kernel_request.cpp — size flags, backend and time limit checked and turned into a KernelRequest.
#include "app/lab/kernel_request.h"

#include <cmath>
#include <filesystem>
#include "app/backend/backend.h"
#include "core/error.h"
#include "core/file_io.h"
#include "student/cuda_source.h"
#include "student/launch_syntax.h"

namespace rl::lab {
namespace {

constexpr uint64_t kKernelFileBytes = 1 << 20;  // as the runner's limit

// The file's text, or empty when it cannot be read (run_kernel names the problem).
std::string text_of(const std::string& file) {
    try {
        return read_text_file(file, "kernel file", kKernelFileBytes);
    } catch (const Error&) {
        return {};
    }
}

// --backend auto as rlab trace resolves it: the GPU when one is usable, else the emulator, saying why in `note`. A
// plain CUDA file runs on the emulator only (the runner refuses --backend cuda for it): auto picks the emulator
// without probing the GPU.
void set_backend(student::KernelRequest& r, BackendChoice choice, std::string* note) {
    if (choice == BackendChoice::Auto) {
        const std::string text = text_of(r.file);
        if (!text.empty() && student::is_plain_cuda(text)) {
            r.backend = Backend::Cpu;
            if (note) *note = "plain CUDA (no RL_KERNEL): using the CPU emulator, where plain CUDA runs for now";
            return;
        }
    }
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
    if (!k.kernel.empty())
        if (std::string why = student::kernel_name_problem(k.kernel); !why.empty()) throw Error("--kernel " + one_line(k.kernel) + ": " + why);
    if (!k.launch.empty()) {
        if (!k.kernel.empty())
            throw Error("--launch and --kernel " + one_line(k.kernel) + " together: a launch plan names its kernels itself; give one or the other");
        try {
            student::parse_launch_plan(k.launch);
        } catch (const Error& e) {
            throw Error("--launch: " + std::string(e.what()));
        }
    }
    BackendChoice choice;
    if (!parse_backend(k.backend, choice)) throw Error("--backend " + one_line(k.backend) + ": expected auto, cpu or cuda");
    student::KernelRequest r;
    r.file = k.file;
    r.kernel = k.kernel;
    r.launch = k.launch;
    r.schedule = k.sizes.build();
    r.op_given = k.sizes.op_given();
    r.time_limit_s = k.time_limit_s;
    r.detail_blocks = k.detail_blocks;
    set_backend(r, choice, note);
    return r;
}

student::KernelRequest kernel_request_for(const std::string& file, const Schedule& sizes, BackendChoice backend, std::string* note,
                                          const std::string& kernel) {
    std::error_code ec;
    if (file.empty()) throw Error("no kernel file given: name a .cu file that includes <rlab/kernel.h>");
    if (!std::filesystem::is_regular_file(file, ec)) throw Error(one_line(file) + ": no such file (a .cu file that includes <rlab/kernel.h>)");
    student::KernelRequest r;
    r.file = file;
    r.kernel = kernel;
    r.schedule.n = sizes.n;
    r.schedule.block = sizes.block;
    r.schedule.grid = sizes.grid;
    r.schedule.input = sizes.input;
    set_backend(r, backend, note);
    return r;
}

std::vector<std::string> kernel_choices(std::string_view text, uint32_t block) {
    std::vector<std::string> out;
    if (!student::is_plain_cuda(text)) return out;
    for (const student::CudaKernelDecl& k : student::cuda_kernel_declarations(text))
        out.push_back(student::kernel_name_example(k, block));
    return out;
}

std::string first_error_place(const student::KernelOutcome& o) {
    for (const student::Diagnostic& d : o.diagnostics)
        if (d.line > 0 && d.message.find("error") != std::string::npos) return d.file + ":" + std::to_string(d.line);
    return o.diagnostics.empty() || o.diagnostics.front().line <= 0
               ? std::string()
               : o.diagnostics.front().file + ":" + std::to_string(o.diagnostics.front().line);
}

}  // namespace rl::lab
