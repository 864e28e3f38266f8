// app/lab/kernel_request.h — a student's kernel file and the size flags (rlab run, --kernel) made into one checked
// student::KernelRequest, with --backend auto resolved as rlab trace resolves it. Shared by rlab and both GUIs.
#pragma once
#include <string>
#include "app/backend/backend.h"
#include "app/lab/schedule_options.h"
#include "student/kernel_run.h"

namespace rl::lab {

struct KernelSettings {
    std::string file;               // the student's .cu file
    ScheduleArgs sizes;             // --n --block --grid --input --seed --op (others are refused)
    std::string backend = "auto";   // auto | cpu | cuda
    double time_limit_s = 10.0;     // --time-limit S
};

// Checks the settings (one-line rl::Error naming the flag and what is allowed) and resolves --backend auto: the GPU
// when one is usable, else the emulator with `note` saying why. The file itself is checked by run_kernel.
student::KernelRequest kernel_request(const KernelSettings& k, std::string* note);

// A file opened from a GUI (Open kernel, the lab bench's path field, a lesson's exercise): the sizes, input and seed of
// `sizes`, the kernel's own operator, `backend` resolved. Throws rl::Error with one line when the file is not there.
student::KernelRequest kernel_request_for(const std::string& file, const Schedule& sizes, BackendChoice backend, std::string* note);

// The first diagnostic's place as "FILE:LINE" ("" when the compiler named none): what a status line shows.
std::string first_error_place(const student::KernelOutcome& o);

}  // namespace rl::lab
