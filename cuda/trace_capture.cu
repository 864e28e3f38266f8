// cuda/trace_capture.cu — host side of the CUDA backend: plan the trace buffer, launch the
// instrumented kernels, copy back, and convert the slots into the core Trace.
//
// Sections: 1. device buffers   2. the plan (slots and steps)   3. launching by operator
//           4. compaction on the device   5. public entry points
// Slot records become a Trace in core/gpu_trace.cpp (atomic order, tickets, checks), CPU-tested.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"
#include "core/gpu_trace.h"
#include "cuda/cuda_check.h"
#include "cuda/host_api.h"
#include "cuda/held_timer.h"
#include "cuda/trace_kernels.cuh"

namespace rl::cuda {
namespace {

// ---- 1. device buffers and the hung-kernel flag ---------------------------------------------------
// Set once a kernel has hung: freeing memory would then wait forever on that kernel.
std::atomic<bool> g_device_hung{false};

template <class T> struct DeviceBuffer {
    T* ptr = nullptr;
    explicit DeviceBuffer(size_t count) {
        if (count) RL_CUDA(cudaMalloc(&ptr, count * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (!g_device_hung) cudaFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// ---- 2. the plan: slots per thread and the step of each stage ------------------------------------
// Upper bound of the events one thread records in pass 1 (or in the finishing stage).
uint32_t slots_per_thread(const Plan& p, uint64_t items, uint32_t threads) {
    const uint32_t widest = std::min<uint32_t>(threads, 32), W = (threads + 31) / 32;
    const bool every_level = p.unbounded() || p.has(Bug::DivergentShuffle);
    uint32_t warp = p.shuffle() ? 2 * (every_level ? 5 : levels_for(widest)) : 2 + 5 * levels_for(widest);
    uint32_t block = W > 1 ? 3 + (p.shuffle() ? 1 + 2 * (p.unbounded() ? 5 : levels_for(W)) : 5 * levels_for(W)) +
                                 5 * levels_for(W)
                           : 0;
    return uint32_t(2 * items + 1 + warp + block + 4);
}

Plan make_plan(const Schedule& s, uint32_t race_delay_ns) {
    Plan p{};
    p.n = s.n;
    p.B = s.block;
    p.G = s.grid_size();
    p.T = uint64_t(p.G) * p.B;
    p.K = s.chunk();
    p.W = s.warps_per_block();
    p.P = s.finish_threads();
    p.Kp = (p.G + p.P - 1) / p.P;
    p.assign = s.effective_assign();
    p.warp = s.effective_warp();
    p.block_stage = s.block_stage;
    p.grid_stage = s.effective_grid_stage();
    p.bugs = s.bugs;
    p.f16 = s.type == DType::F16;
    p.accum = s.accum;
    p.race_delay_ns = race_delay_ns;
    p.smem_slots = 32 * p.W + 32;
    p.warp_step = uint16_t(p.K);
    p.block_step = uint16_t(p.K + warp_stage_steps(p, std::min<uint32_t>(p.B, 32), true, p.has(Bug::DivergentShuffle)));
    p.grid_step = uint16_t(p.block_step + block_stage_steps(p, p.W));
    p.finish_step = uint16_t(p.grid_step + (p.grid_stage == GridStage::TwoPass ? 1 : 2));
    p.slots = slots_per_thread(p, p.K, p.B);
    p.finisher_slots = slots_per_thread(p, p.Kp, p.P);
    p.finisher_base = p.T * p.slots;
    return p;
}

uint64_t total_slots(const Plan& p) { return p.finisher_base + uint64_t(p.P) * p.finisher_slots; }

// ---- 3. launching by operator -------------------------------------------------------------------
struct Launch {
    const Plan& p;
    const void* input;
    DeviceRecord* buf;
    void* partials;
    uint64_t* out;
    unsigned* counter;
    int* overflow;
    cudaStream_t stream;
};

template <class OpT, class A, class Elem, bool kRecord> void launch_typed(const Launch& l) {
    using T = Tracked<typename OpT::Value>;
    auto kernel = reduce_kernel<OpT, A, Elem, kRecord>;
    const size_t smem = size_t(l.p.smem_slots) * sizeof(T);
    auto* partials = static_cast<T*>(l.partials);
    auto* input = static_cast<const Elem*>(l.input);
    if (l.p.grid_stage == GridStage::Cooperative && l.p.G > 1) {
        int per_sm = 0, sms = 0, dev = 0;
        RL_CUDA(cudaGetDevice(&dev));
        RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(l.p.B), smem));
        if (uint64_t(per_sm) * sms < l.p.G)
            throw Error("--grid-stage cooperative: " + std::to_string(l.p.G) + " blocks cannot all be resident on this GPU (at most " +
                        std::to_string(per_sm * sms) + " of " + std::to_string(l.p.B) + " threads); raise --items");
        Plan plan = l.p;
        const Elem* in = input;
        DeviceRecord* buf = l.buf;
        uint64_t* out = l.out;
        unsigned* counter = l.counter;
        int* overflow = l.overflow;
        void* args[] = {&plan, &in, &buf, &partials, &out, &counter, &overflow};
        RL_CUDA(cudaLaunchCooperativeKernel((void*)kernel, dim3(l.p.G), dim3(l.p.B), args, smem, l.stream));
    } else {
        kernel<<<l.p.G, l.p.B, smem, l.stream>>>(l.p, input, l.buf, partials, l.out, l.counter, l.overflow);
        RL_CUDA(cudaGetLastError());
    }
    if (l.p.grid_stage == GridStage::TwoPass && l.p.G > 1) {
        finish_kernel<OpT, kRecord><<<1, l.p.P, smem, l.stream>>>(l.p, l.buf, partials, l.out, l.overflow);
        RL_CUDA(cudaGetLastError());
    }
}

template <bool kRecord, class A, class Elem> void launch_op(Op op, const Launch& l) {
    switch (op) {
        case Op::Sum: return launch_typed<SumOp<A>, A, Elem, kRecord>(l);
        case Op::Max: return launch_typed<MaxOp<A>, A, Elem, kRecord>(l);
        case Op::Min: return launch_typed<MinOp<A>, A, Elem, kRecord>(l);
        case Op::Prod: return launch_typed<ProdOp<A>, A, Elem, kRecord>(l);
        case Op::Witness: return launch_typed<WitnessOp, A, Elem, kRecord>(l);
        case Op::ArgMax:
            if constexpr (sizeof(A) == 4) return launch_typed<ArgMaxOp<A>, A, Elem, kRecord>(l);
            break;
        case Op::SumCount:
            if constexpr (sizeof(A) == 4) return launch_typed<SumCountOp<A>, A, Elem, kRecord>(l);
            break;
    }
    throw Error("--op " + std::string(to_string(op)) + " is not available for this type on the GPU");
}

template <bool kRecord> void launch(const Schedule& s, const Launch& l) {
    switch (s.type) {
        case DType::F32: return launch_op<kRecord, float, float>(s.op, l);
        case DType::F64: return launch_op<kRecord, double, double>(s.op, l);
        case DType::I32: return launch_op<kRecord, int32_t, int32_t>(s.op, l);
        case DType::BF16:
        case DType::F16: return launch_op<kRecord, float, uint16_t>(s.op, l);
    }
}

size_t tracked_size(const Schedule&) { return 16; }  // Tracked<V> is at most 16 bytes

// Waits for the stream, but not forever: a deadlocked buggy kernel must not hang the program.
void wait_with_watchdog(cudaStream_t stream, double seconds) {
    auto start = std::chrono::steady_clock::now();
    for (;;) {
        cudaError_t st = cudaStreamQuery(stream);
        if (st == cudaSuccess) return;
        if (st != cudaErrorNotReady) check(st, "cudaStreamQuery (the kernel failed)");
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
            g_device_hung = true;
            throw DeviceHung("the GPU kernel did not finish within " + std::to_string(int(seconds)) +
                        " s: this schedule deadlocks on this GPU (an injected barrier or mask bug can)");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

// ---- 4. compaction on the device: most slots stay empty, so copy back only the events -------------
// The same renumbering as core's compact_slots (core/gpu_record.h), which the CPU tests exercise.
__global__ void mark_used(const DeviceRecord* buf, uint64_t slots, uint32_t* used) {
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < slots; i += uint64_t(gridDim.x) * blockDim.x)
        used[i] = slot_used(buf[i]);
}
// index[i] is slot i's position among the used slots; operands are renumbered the same way.
__global__ void compact(const DeviceRecord* buf, uint64_t slots, const uint32_t* index, DeviceRecord* out) {
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < slots; i += uint64_t(gridDim.x) * blockDim.x) {
        if (!slot_used(buf[i])) continue;
        DeviceRecord r = buf[i];
        for (uint32_t& d : r.event.dep) d = compacted_dep(d, buf, slots, index);
        out[index[i]] = r;
    }
}

// Page-locked staging for the copy back, kept between captures (copies from pageable memory
// run several times slower).
DeviceRecord* pinned_records(size_t count) {
    static DeviceRecord* buffer = nullptr;
    static size_t capacity = 0;
    if (count > capacity) {
        if (buffer) cudaFreeHost(buffer);
        buffer = nullptr;
        capacity = std::max(count, capacity * 2);
        RL_CUDA(cudaMallocHost(&buffer, capacity * sizeof(DeviceRecord)));
    }
    return buffer;
}

// The launch's shape as core's conversion needs it.
GpuLaunchShape shape_of(const Plan& p) {
    GpuLaunchShape shape;
    shape.grid = p.G;
    shape.identity_bits = p.identity_bits;
    shape.scope_start[0] = 0;
    shape.scope_start[1] = p.warp_step;
    shape.scope_start[2] = p.block_step;
    shape.scope_start[3] = p.grid_step;
    if (p.grid_stage == GridStage::AtomicElement) shape.scope_start[1] = shape.scope_start[2] = shape.scope_start[3] = uint16_t(p.K);
    return shape;
}

}  // namespace

// ---- 5. public entry points -------------------------------------------------------------------------
DeviceInfo probe_device() {
    DeviceInfo info;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        info.reason = std::string("CUDA reports ") + cudaGetErrorString(err);
        cudaGetLastError();
        return info;
    }
    if (count == 0) {
        info.reason = "no CUDA device is present";
        return info;
    }
    cudaDeviceProp prop{};
    if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) {
        info.reason = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(err);
        return info;
    }
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    info.usable = true;
    info.name = prop.name;
    info.sm_count = prop.multiProcessorCount;
    info.driver = std::to_string(drv / 1000) + "." + std::to_string((drv % 1000) / 10);
    info.runtime = std::to_string(rt / 1000) + "." + std::to_string((rt % 1000) / 10);
    return info;
}

Trace capture_trace(const Schedule& s, const InputData& input, const CaptureOptions& options, CaptureTiming* timing) {
    auto t0 = std::chrono::steady_clock::now();
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    if (std::string err = check_traceable(s); !err.empty()) throw Error(err);
    Plan p = make_plan(s, options.race_delay_ns);
    p.identity_bits = identity_bits(s);
    const uint64_t slots = total_slots(p);
    if (slots >= kNoEvent) throw Error("the GPU trace would need " + std::to_string(slots) + " slots, more than 2^32; use a smaller --n");

    cudaStream_t stream;
    RL_CUDA(cudaStreamCreate(&stream));
    struct StreamGuard {
        cudaStream_t s;
        ~StreamGuard() {
            if (!g_device_hung) cudaStreamDestroy(s);
        }
    } guard{stream};
    DeviceBuffer<unsigned char> d_input(input.size() * input.element_bytes());
    DeviceBuffer<DeviceRecord> d_buf(slots);
    DeviceBuffer<unsigned char> d_partials(size_t(p.G) * tracked_size(s));
    DeviceBuffer<uint64_t> d_out(1);
    DeviceBuffer<unsigned> d_counter(1);
    DeviceBuffer<int> d_overflow(1);
    RL_CUDA(cudaMemcpyAsync(d_input.ptr, input.data(), input.size() * input.element_bytes(), cudaMemcpyHostToDevice, stream));
    RL_CUDA(cudaMemsetAsync(d_buf.ptr, 0xff, slots * sizeof(DeviceRecord), stream));
    RL_CUDA(cudaMemsetAsync(d_partials.ptr, 0xff, size_t(p.G) * tracked_size(s), stream));  // no partial stored yet
    RL_CUDA(cudaMemcpyAsync(d_out.ptr, &p.identity_bits, sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
    RL_CUDA(cudaMemsetAsync(d_counter.ptr, 0, sizeof(unsigned), stream));
    RL_CUDA(cudaMemsetAsync(d_overflow.ptr, 0, sizeof(int), stream));

    cudaEvent_t start, stop;
    RL_CUDA(cudaEventCreate(&start));
    RL_CUDA(cudaEventCreate(&stop));
    RL_CUDA(cudaEventRecord(start, stream));
    launch<true>(s, Launch{p, d_input.ptr, d_buf.ptr, d_partials.ptr, d_out.ptr, d_counter.ptr, d_overflow.ptr, stream});
    RL_CUDA(cudaEventRecord(stop, stream));
    wait_with_watchdog(stream, 20.0);
    float kernel_ms = 0;
    RL_CUDA(cudaEventElapsedTime(&kernel_ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);

    auto t1 = std::chrono::steady_clock::now();
    int overflow = 0;
    RL_CUDA(cudaMemcpy(&overflow, d_overflow.ptr, sizeof(int), cudaMemcpyDeviceToHost));
    if (overflow) throw Error("the GPU trace buffer overflowed (a thread recorded more events than planned): please report this schedule");
    DeviceBuffer<uint32_t> d_used(slots), d_index(slots);
    const int grid = int(std::min<uint64_t>((slots + 255) / 256, 4096));
    mark_used<<<grid, 256, 0, stream>>>(d_buf.ptr, slots, d_used.ptr);
    RL_CUDA(cudaGetLastError());
    size_t scratch_bytes = 0;
    RL_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, d_used.ptr, d_index.ptr, slots, stream));
    DeviceBuffer<unsigned char> d_scratch(scratch_bytes);
    RL_CUDA(cub::DeviceScan::ExclusiveSum(d_scratch.ptr, scratch_bytes, d_used.ptr, d_index.ptr, slots, stream));
    uint32_t last_index = 0, last_used = 0;
    RL_CUDA(cudaMemcpyAsync(&last_index, d_index.ptr + slots - 1, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    RL_CUDA(cudaMemcpyAsync(&last_used, d_used.ptr + slots - 1, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    RL_CUDA(cudaStreamSynchronize(stream));
    const size_t count = size_t(last_index) + last_used;
    DeviceBuffer<DeviceRecord> d_compact(count);
    compact<<<grid, 256, 0, stream>>>(d_buf.ptr, slots, d_index.ptr, d_compact.ptr);
    RL_CUDA(cudaGetLastError());
    DeviceRecord* host = pinned_records(count);
    RL_CUDA(cudaMemcpyAsync(host, d_compact.ptr, count * sizeof(DeviceRecord), cudaMemcpyDeviceToHost, stream));
    RL_CUDA(cudaStreamSynchronize(stream));
    auto t2 = std::chrono::steady_clock::now();

    Trace t = trace_from_gpu_records(s, shape_of(p), host, count, input);
    static const DeviceInfo info = probe_device();
    t.device = info.name + " (driver " + info.driver + ", CUDA runtime " + info.runtime + ")";
    attach_checked_hazards(t);  // by the rules, from the GPU's events alone (core/checker.h)
    if (t.result_event != kNoEvent) t.result_flags = t.events[t.result_event].flags;
    auto t3 = std::chrono::steady_clock::now();
    if (timing) {
        timing->kernel_ms = kernel_ms;
        timing->copy_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
        timing->convert_ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
        timing->total_ms = std::chrono::duration<double, std::milli>(t3 - t0).count();
    }
    return t;
}

struct ScheduleLaunch::Impl {
    Schedule s;
    Plan p;
    const void* input;
    DeviceBuffer<DeviceRecord> buf;
    DeviceBuffer<unsigned char> partials;
    DeviceBuffer<uint64_t> out{1};
    DeviceBuffer<uint64_t> identity{1};  // copied to `out` before each launch: a device copy, which never waits on the
                                         // host (one from pageable memory may, and a held stream would then time out)
    DeviceBuffer<unsigned> counter{1};
    DeviceBuffer<int> overflow{1};
    Impl(const Schedule& sched, const Plan& plan, const void* in, bool record)
        : s(sched), p(plan), input(in), buf(record ? total_slots(plan) : 0),
          partials(size_t(plan.G) * tracked_size(sched)) {
        RL_CUDA(cudaMemcpy(identity.ptr, &p.identity_bits, sizeof(uint64_t), cudaMemcpyHostToDevice));
        RL_CUDA(cudaMemset(overflow.ptr, 0, sizeof(int)));
        if (record) RL_CUDA(cudaMemset(buf.ptr, 0xff, total_slots(plan) * sizeof(DeviceRecord)));
        // Those ran on the legacy stream, and a copy from pageable memory may return before it lands: a launch on a
        // non-blocking stream (rlab bench's) must find them done.
        RL_CUDA(cudaDeviceSynchronize());
    }
};

ScheduleLaunch::ScheduleLaunch(const Schedule& s, const void* device_input, bool record) {
    if (std::string err = validate(s); !err.empty()) throw Error(err);
    Plan p = make_plan(s, 0);
    p.identity_bits = identity_bits(s);
    if (record && total_slots(p) >= kNoEvent)
        throw Error("the GPU trace would need " + std::to_string(total_slots(p)) + " slots, more than 2^32; use a smaller --n");
    impl_ = std::make_unique<Impl>(s, p, device_input, record);
}

ScheduleLaunch::~ScheduleLaunch() = default;

void ScheduleLaunch::enqueue(void* stream) {
    Impl& m = *impl_;
    auto st = static_cast<cudaStream_t>(stream);
    RL_CUDA(cudaMemcpyAsync(m.out.ptr, m.identity.ptr, sizeof(uint64_t), cudaMemcpyDeviceToDevice, st));
    RL_CUDA(cudaMemsetAsync(m.counter.ptr, 0, sizeof(unsigned), st));
    const bool record = m.buf.ptr != nullptr;
    const Launch l{m.p, m.input, m.buf.ptr, m.partials.ptr, m.out.ptr, m.counter.ptr, m.overflow.ptr, st};
    if (record) launch<true>(m.s, l);
    else launch<false>(m.s, l);
}

uint64_t ScheduleLaunch::result_bits() {
    uint64_t bits = 0;
    RL_CUDA(cudaDeviceSynchronize());
    RL_CUDA(cudaMemcpy(&bits, impl_->out.ptr, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    int overflow = 0;
    RL_CUDA(cudaMemcpy(&overflow, impl_->overflow.ptr, sizeof(int), cudaMemcpyDeviceToHost));
    if (overflow) throw Error("the GPU trace buffer overflowed (a thread recorded more events than planned): please report this schedule");
    return bits;
}

double time_uninstrumented_us(const Schedule& s, const InputData& input, int reps) {
    DeviceBuffer<unsigned char> d_input(input.size() * input.element_bytes());
    RL_CUDA(cudaMemcpy(d_input.ptr, input.data(), input.size() * input.element_bytes(), cudaMemcpyHostToDevice));
    ScheduleLaunch run(s, d_input.ptr);
    HeldTimer timer;  // as `rlab bench` times: the start event fires right before the launch, not when it is queued
    std::vector<float> ms;
    for (int r = 0; r < reps + 3; ++r) {
        const float e = timer.time_ms([&](cudaStream_t stream) { run.enqueue(stream); });
        if (r >= 3) ms.push_back(e);  // the first launches load the module: warm-up
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1000.0;
}

}  // namespace rl::cuda
