// app/backend/backend.cpp — backend choice: the emulator always, CUDA when built and a GPU answers.
#include "app/backend/backend.h"

#include "core/emulator.h"
#include "core/input.h"
#ifdef RLAB_HAVE_CUDA
#include "cuda/host_api.h"
#endif

namespace rl {

bool parse_backend(std::string_view s, BackendChoice& out) {
    if (s == "auto") out = BackendChoice::Auto;
    else if (s == "cpu") out = BackendChoice::Cpu;
    else if (s == "cuda") out = BackendChoice::Cuda;
    else return false;
    return true;
}

const GpuStatus& gpu_status() {
    static const GpuStatus status = [] {
        GpuStatus st;
#ifdef RLAB_HAVE_CUDA
        cuda::DeviceInfo info = cuda::probe_device();
        st.usable = info.usable;
        st.name = info.name;
        st.reason = info.reason;
#else
        st.reason = "this build has no CUDA backend (no CUDA compiler was found when it was configured)";
#endif
        return st;
    }();
    return status;
}

BackendRun run_backend(const Schedule& s, BackendChoice choice, [[maybe_unused]] uint32_t race_delay_ns) {
    BackendRun run;
    if (choice != BackendChoice::Cpu) {
        const GpuStatus& gpu = gpu_status();
        if (!gpu.usable) {
            if (choice == BackendChoice::Cuda) throw Error("--backend cuda: " + gpu.reason);
            run.note = "no usable GPU (" + gpu.reason + "): using the CPU emulator";
        } else {
#ifdef RLAB_HAVE_CUDA
            cuda::CaptureOptions options;
            options.race_delay_ns = race_delay_ns;
            run.trace = cuda::capture_trace(s, make_input(s), options);
            return run;
#endif
        }
    }
    run.trace = emulate(s);
    return run;
}

}  // namespace rl
