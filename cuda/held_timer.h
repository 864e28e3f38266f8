// cuda/held_timer.h — times work on a stream of its own with CUDA events, the stream held while the host queues it.
#pragma once
#include <cuda_runtime.h>

#include <functional>

namespace rl::cuda {

// time_ms(enqueue) queues a one-thread kernel that spins on a host-mapped word, then the start event, the work and the
// stop event, and only then lets the kernel end (or a millisecond passes): the start event fires right before the
// work. Without the hold, on an idle GPU the start event fired as soon as the host recorded it and the time included
// the host's submission of the launch: warm times 2.5-5 us longer than cold ones on the H200 (2^10 f32: 6.56 us warm,
// 3.71 cold, 2026-12-02), where a cold repetition's flush kernel had held the stream by chance. The millisecond's cap
// keeps a call that blocks in between (a profiler serialising launches) from deadlocking: it costs that time and
// leaves the measurement as it would be without the hold. nvbench holds its stream the same way.
class HeldTimer {
public:
    HeldTimer();
    ~HeldTimer();
    HeldTimer(const HeldTimer&) = delete;
    HeldTimer& operator=(const HeldTimer&) = delete;

    cudaStream_t stream() const { return stream_; }  // work queued here before time_ms runs before the timed part
    float time_ms(const std::function<void(cudaStream_t)>& enqueue);  // waits for the stop event

private:
    void destroy();
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    int* release_ = nullptr;         // host-mapped: set once the timed work is queued
    int* release_device_ = nullptr;  // the same word as the GPU sees it
};

}  // namespace rl::cuda
