// app/lab/kernel_request.h — a student's kernel file and the size flags (rlab run, --kernel) made into one checked
// student::KernelRequest, with --backend auto resolved as rlab trace resolves it. Shared by rlab and both GUIs.
#pragma once
#include <string>
#include <string_view>
#include <vector>
#include "app/backend/backend.h"
#include "app/lab/schedule_options.h"
#include "student/kernel_run.h"

namespace rl::lab {

struct KernelSettings {
    std::string file;               // the student's .cu file
    std::string kernel;             // --kernel NAME (rlab) or --kernel-name NAME (the GUIs): a plain CUDA file's kernel
    ScheduleArgs sizes;             // --n --block --grid --input --seed --op (others are refused)
    std::string backend = "auto";   // auto | cpu | cuda
    double time_limit_s = 10.0;     // --time-limit S
    std::string launch;             // --launch PLAN: a plain CUDA file's launches in CUDA's syntax (empty: the one launch
                                    // K<<<grid, block, block * sizeof(T)>>>(in, out, n) of the launch contract)
    uint32_t detail_blocks = 0;     // --detail-blocks N: a plain run summarised by level of detail (0: the runner decides)
};

// Checks the settings (one-line rl::Error naming the flag and what is allowed) and resolves --backend auto: the GPU
// when one is usable and the file is in the lab's dialect, else the emulator with `note` saying why (plain CUDA runs
// on the emulator only, for now). The file itself is checked by run_kernel.
student::KernelRequest kernel_request(const KernelSettings& k, std::string* note);

// A file opened from a GUI (Open kernel, the lab bench's path field, a lesson's exercise): the sizes, input and seed of
// `sizes`, the kernel's own operator, `backend` resolved, `kernel` the kernel field's name (empty: the file's only
// kernel). Throws rl::Error with one line when the file is not there.
student::KernelRequest kernel_request_for(const std::string& file, const Schedule& sizes, BackendChoice backend, std::string* note,
                                          const std::string& kernel = {});

// The kernels a plain CUDA file's text declares, as the GUIs' kernel field offers them (a template with example
// arguments, harris6<256> for blocks of 256); empty for a dialect file.
std::vector<std::string> kernel_choices(std::string_view text, uint32_t block);

// The first diagnostic's place as "FILE:LINE" ("" when the compiler named none): what a status line shows.
std::string first_error_place(const student::KernelOutcome& o);

}  // namespace rl::lab
