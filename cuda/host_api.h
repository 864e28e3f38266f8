// cuda/host_api.h — the CUDA backend's host API: probe the device, capture a trace on the GPU.
// Only core types cross this header, so callers need no CUDA headers.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "core/gpu_trace.h"
#include "core/input.h"
#include "core/trace.h"

namespace rl::cuda {

struct DeviceInfo {
    bool usable = false;
    std::string name;       // e.g. "NVIDIA H200"
    std::string driver;     // driver API version, e.g. "13.0"
    std::string runtime;    // runtime version this binary links
    int sm_count = 0;
    std::string reason;     // one line when not usable
};
DeviceInfo probe_device();

struct CaptureOptions {
    uint32_t race_delay_ns = 0;  // race amplifier: producer warps sleep this long before storing
};

struct CaptureTiming {
    double kernel_ms = 0;      // the instrumented launches, by CUDA events
    double copy_ms = 0;        // trace buffer back to the host
    double convert_ms = 0;     // slots to core events, atomic order, timestamps
    double total_ms = 0;       // end to end, host clock
};

// Runs the schedule's instrumented kernels and returns the trace (backend Cuda, timestamps filled).
// Throws rl::Error naming the CUDA call and CUDA's message when anything fails.
Trace capture_trace(const Schedule& s, const InputData& input, const CaptureOptions& options = {},
                    CaptureTiming* timing = nullptr);

// Times the same schedule uninstrumented (median of `reps` launches, microseconds), for comparison.
double time_uninstrumented_us(const Schedule& s, const InputData& input, int reps = 20);

// The schedule's kernels over input already on the device: what `rlab bench` times for the
// chapter's grid stages. enqueue() first resets the output word (to the identity) and the ticket
// counter, as every caller of these kernels must before each launch, so that cost is in the time.
// With `record`, the kernels also write their trace slots (into a buffer allocated here).
class ScheduleLaunch {
public:
    ScheduleLaunch(const Schedule& s, const void* device_input, bool record = false);
    ~ScheduleLaunch();
    ScheduleLaunch(const ScheduleLaunch&) = delete;
    ScheduleLaunch& operator=(const ScheduleLaunch&) = delete;
    void enqueue(void* stream);  // a cudaStream_t; nothing is synchronised
    uint64_t result_bits();      // synchronises the device; the output word as the kernels left it

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The hardware-decided orders found in a GPU trace, to replay the emulator in the same order
// (defined in core/gpu_trace.h, where CPU tests and the recorded corpus use them too).
using rl::atomic_positions_of;
using rl::tickets_of;

}  // namespace rl::cuda
