// student/host_runtime.h — the emulator's side of a student's kernel: a plugin built by the host compiler
// (student/host_compile.h) run as one fiber per thread, each warp in lock step, into StudentRecords.
#pragma once
#include <memory>
#include <string>
#include "student/kernel_backend.h"

namespace rl::student {

// Loads the plugin (dlopen) and checks its entry. Throws rl::Error with one line when the file is no kernel
// plugin of this header's ABI.
std::unique_ptr<KernelBackend> make_cpu_backend(const std::string& plugin_path);

}  // namespace rl::student
