// tests/bench/capture_bench.cpp — GPU trace capture cost: 64 blocks x 256 threads x 4 items end to
// end (launch, copy back, conversion), next to the uninstrumented kernel. Prints its figures.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/emulator.h"
#include "cuda/host_api.h"

using namespace rl;

int main() {
    cuda::DeviceInfo info = cuda::probe_device();
    if (!info.usable) {
        std::printf("capture benchmark: no usable GPU (%s)\n", info.reason.c_str());
        return 2;
    }
    Schedule s;
    s.n = 64 * 256 * 4;
    s.block = 256;
    s.items = 4;
    s.input.kind = InputKind::Uniform;
    InputData in = make_input(s);
    std::printf("capture benchmark on %s (driver %s): %s\n", info.name.c_str(), info.driver.c_str(), describe(s).c_str());
    std::vector<cuda::CaptureTiming> runs;
    size_t events = 0;
    for (int r = 0; r < 13; ++r) {
        cuda::CaptureTiming t;
        Trace tr = cuda::capture_trace(s, in, {}, &t);
        events = tr.events.size();
        if (r >= 3) runs.push_back(t);  // the first captures load the module and warm the allocator
    }
    auto median = [&](auto field) {
        std::vector<double> v;
        for (auto& r : runs) v.push_back(r.*field);
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("events %zu\n", events);
    std::printf("end to end   %8.2f ms (median of %zu; goal <= 20 ms)\n", median(&cuda::CaptureTiming::total_ms), runs.size());
    std::printf("  kernel     %8.3f ms (instrumented, CUDA events)\n", median(&cuda::CaptureTiming::kernel_ms));
    std::printf("  copy back  %8.2f ms\n", median(&cuda::CaptureTiming::copy_ms));
    std::printf("  convert    %8.2f ms (slots to events, atomic order, rule hazards by emulator replay)\n",
                median(&cuda::CaptureTiming::convert_ms));
    std::printf("uninstrumented kernel %8.1f us (median of 20, CUDA events)\n", cuda::time_uninstrumented_us(s, in));
    return 0;
}
