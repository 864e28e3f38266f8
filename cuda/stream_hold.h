// cuda/stream_hold.h — holds a stream while the host queues a timed launch, so that CUDA events time the GPU's work.
#pragma once
#include <cuda_runtime.h>

namespace rl::cuda {

// hold(s) queues a one-thread kernel that spins on a host-mapped word until release() sets it, or a millisecond has
// passed; queue the start event, the work and the stop event in between. The start event then fires right before the
// work. Without it, on an idle GPU the start event fired as soon as the host recorded it and the time included the
// host's submission of the launch: warm times 2.5-5 us longer than cold ones on the H200 (2^10 f32: 6.56 us warm,
// 3.71 cold, 2026-12-02), where a cold repetition's flush kernel had held the stream by chance. The millisecond's cap
// keeps a call that blocks in between (a profiler serialising launches) from deadlocking: it costs that time and
// leaves the measurement as it would be without the hold. nvbench holds its stream the same way.
class StreamHold {
public:
    StreamHold();
    ~StreamHold();
    StreamHold(const StreamHold&) = delete;
    StreamHold& operator=(const StreamHold&) = delete;

    void hold(cudaStream_t stream);  // the previous hold's work must have been waited on
    void release();

private:
    int* release_ = nullptr;         // host-mapped: set once the held work is queued
    int* release_device_ = nullptr;  // the same word as the GPU sees it
};

}  // namespace rl::cuda
