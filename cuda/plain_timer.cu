// cuda/plain_timer.cu — a plain CUDA kernel (or launch plan) timed uninstrumented beside the fast path and CUB.
//
// Sections: 1. the rows (the student's plan, the fast path, CUB)   2. timing and checking   3. the run
//
// Method, as `rlab bench` times the fast path (cuda/bench.cu): the GPU's clocks warmed first; per row two warm-up
// runs, then repetitions each preceded by one untimed run of the same row (warm: L2 holds what its own last run left),
// each timed with CUDA events on a held stream (cuda/held_timer.h: the start event fires right before the work);
// median, min and max. Before every run the contract's `out` and `tmp` are reset to the operator's identity (outside
// the events): a kernel that accumulates into out[0] with atomics starts from the identity each time, as its program
// would after a cudaMemset. After every timed repetition out[0] is read back and checked against the exact reference
// computed on the host from the same input (core/kernel_timing.h KernelCheck).
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <set>
#include <thread>
#include <cub/device/device_reduce.cuh>

#include "core/input.h"
#include "core/text_format.h"
#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/fast_reduce.h"
#include "cuda/held_timer.h"
#include "cuda/host_api.h"
#include "cuda/plain_compile.h"
#include "cuda/plain_timer.h"

#ifndef RLAB_CUDA_INCLUDE
#define RLAB_CUDA_INCLUDE "/usr/local/cuda/include"
#endif

namespace rl::cuda {
namespace {

// The operator's identity of T as bytes (sum 0, max the lowest value, min the highest), `count` times.
std::vector<unsigned char> identity_image(DType t, Op op, size_t count) {
    uint64_t bits = 0;
    if (t == DType::I32) {
        const int32_t v = op == Op::Max ? lowest_value<int32_t>() : op == Op::Min ? highest_value<int32_t>() : 0;
        bits = pack_value(v);
    } else if (t == DType::F64) {
        const double v = op == Op::Max ? lowest_value<double>() : op == Op::Min ? highest_value<double>() : 0.0;
        bits = pack_value(v);
    } else {
        const float v = op == Op::Max ? lowest_value<float>() : op == Op::Min ? highest_value<float>() : 0.0f;
        bits = pack_value(v);
    }
    std::vector<unsigned char> out(count * element_bytes(t));
    for (size_t i = 0; i < count; ++i) std::memcpy(out.data() + i * element_bytes(t), &bits, element_bytes(t));
    return out;
}


std::string value_text(double v, DType t) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return format_number("%.0f", v);
    return format_number(t == DType::F64 ? "%.17g" : "%.9g", v);
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buf;
}

// ---- 1. the rows: something that enqueues one whole reduction and says where its result lands
struct Row {
    virtual ~Row() = default;
    virtual void enqueue(cudaStream_t s) = 0;  // the reduction (what is timed)
    virtual void reset(cudaStream_t) {}        // before every run, outside the events
    virtual const void* result() const = 0;    // out[0]
};

// The student's launches under the contract: in (n elements), out and tmp (the largest grid's elements, at least
// one) reset to the identity before every run.
struct PlanRow : Row {
    struct Launch {
        cudaKernel_t kernel = nullptr;
        TimedLaunch plan;
        std::vector<KernelParam> params;
    };
    std::vector<Launch> launches;
    const void* in = nullptr;
    uint64_t n = 0;
    std::unique_ptr<DeviceMemory> out, tmp, identity;
    size_t slot_bytes = 0;

    void reset(cudaStream_t s) override {
        RL_CUDA(cudaMemcpyAsync(out->ptr, identity->ptr, slot_bytes, cudaMemcpyDeviceToDevice, s));
        RL_CUDA(cudaMemcpyAsync(tmp->ptr, identity->ptr, slot_bytes, cudaMemcpyDeviceToDevice, s));
    }
    void enqueue(cudaStream_t s) override {
        for (const Launch& l : launches) {
            // one slot of 8 bytes per argument, each holding what its parameter takes
            std::vector<uint64_t> slots(l.params.size());
            std::vector<void*> argv(l.params.size());
            for (size_t a = 0; a < l.params.size(); ++a) {
                const TimedArg arg = l.plan.args[a];
                if (l.params[a].kind == ParamKind::Pointer) {
                    const void* p = arg == TimedArg::In ? in : arg == TimedArg::Out ? out->ptr : tmp->ptr;
                    std::memcpy(&slots[a], &p, sizeof p);
                } else {
                    const int64_t v = arg == TimedArg::N ? int64_t(n) : l.plan.literals[a];
                    if (l.params[a].kind == ParamKind::Int32) {
                        const int32_t v32 = int32_t(v);
                        std::memcpy(&slots[a], &v32, 4);
                    } else {
                        std::memcpy(&slots[a], &v, 8);
                    }
                }
                argv[a] = &slots[a];
            }
            RL_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(l.kernel), dim3(l.plan.grid), dim3(l.plan.block),
                                     argv.data(), l.plan.shared_bytes, s));
        }
    }
    const void* result() const override { return out->ptr; }
};

struct FastRow : Row {
    FastReducer reducer;
    const void* in;
    uint64_t n;
    DeviceMemory word{8};
    FastRow(DType t, Op op, const void* input, uint64_t count) : reducer(t, op, FastMode::Atomic), in(input), n(count) {}
    void enqueue(cudaStream_t s) override { reducer.enqueue(in, n, word.ptr, s); }
    const void* result() const override { return word.ptr; }
};

// cub::DeviceReduce from the toolkit's CCCL; its temporary storage allocated once, outside the timing.
struct CubRow : Row {
    DType type;
    Op op;
    const void* in;
    uint64_t n;
    DeviceMemory word{8};
    std::unique_ptr<DeviceMemory> temp;
    size_t temp_bytes = 0;
    CubRow(DType t, Op o, const void* input, uint64_t count) : type(t), op(o), in(input), n(count) {
        run(nullptr, nullptr);
        temp = std::make_unique<DeviceMemory>(temp_bytes);
    }
    template <class T> cudaError_t call(void* tmp, cudaStream_t s) {
        const T* x = static_cast<const T*>(in);
        T* y = static_cast<T*>(word.ptr);
        if (op == Op::Max) return cub::DeviceReduce::Max(tmp, temp_bytes, x, y, int64_t(n), s);
        if (op == Op::Min) return cub::DeviceReduce::Min(tmp, temp_bytes, x, y, int64_t(n), s);
        return cub::DeviceReduce::Sum(tmp, temp_bytes, x, y, int64_t(n), s);
    }
    void run(void* tmp, cudaStream_t s) {
        const cudaError_t err = type == DType::F64 ? call<double>(tmp, s) : type == DType::I32 ? call<int32_t>(tmp, s)
                                                                                                : call<float>(tmp, s);
        check(err, "cub::DeviceReduce");
    }
    void enqueue(cudaStream_t s) override { run(temp->ptr, s); }
    const void* result() const override { return word.ptr; }
};

// ---- 2. timing and checking
// The student's first run, watched: a kernel that does not end within the limit cannot be stopped from the host
// (the context is lost), so the process ends here with one line, as the runner does (cuda/student_kernel.cpp).
void first_run_watched(PlanRow& row, cudaStream_t s, double limit_s, const std::string& file) {
    row.reset(s);
    row.enqueue(s);
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const cudaError_t q = cudaStreamQuery(s);
        if (q == cudaSuccess) return;
        if (q != cudaErrorNotReady)
            throw KernelTimingError(KernelTimingError::Program,
                                   std::string("the GPU stopped the kernel: ") + cudaGetErrorString(q) +
                                       " (an index out of range? rlab run --backend cpu names the thread and line)");
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit_s) {
            const std::string line = "rlab: " + file + ": the kernel did not finish within " + format_number("%g", limit_s) +
                                     " s on the GPU (an endless loop, or a __syncthreads() not every thread reaches?): "
                                     "it was stopped\n";
            ssize_t ignored = write(2, line.data(), line.size());
            (void)ignored;
            _exit(1);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

void measure(Row& row, KernelTimingRow& out, const KernelCheck& check, DType type, HeldTimer& timer, int max_reps) {
    const cudaStream_t s = timer.stream();
    auto once = [&]() {
        row.reset(s);
        row.enqueue(s);  // warm: L2 as this row's own last run left it
        row.reset(s);
        return timer.time_ms([&](cudaStream_t st) { row.enqueue(st); });
    };
    float first = 0;
    for (int w = 0; w < 2; ++w) first = once();
    // about two seconds per row at most, never fewer than 3 repetitions
    const int reps = std::clamp(int(2.0 / std::max(1e-6, 2e-3 * double(first))), 3, std::max(3, max_reps));
    std::vector<float> ms;
    double last = 0;
    for (int r = 0; r < reps; ++r) {
        ms.push_back(once());
        last = read_device_value(row.result(), type);  // synchronous: after the stop event
        if (!check.passes(last)) ++out.wrong;
    }
    std::sort(ms.begin(), ms.end());
    const size_t k = ms.size();
    out.timed = true;
    out.reps = int(k);
    out.median_us = 1000.0 * (k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]));
    out.min_us = 1000.0 * ms.front();
    out.max_us = 1000.0 * ms.back();
    out.result = value_text(last, type);
}

// Which arguments a parameter takes, for the one-line refusal.
void check_arguments(const PlanRow::Launch& l, size_t index) {
    const std::string where = "launch " + std::to_string(index + 1) + " (" + l.plan.kernel + ")";
    if (l.plan.args.size() != l.params.size())
        throw KernelTimingError(KernelTimingError::BadInput,
                               where + ": " + std::to_string(l.plan.args.size()) + " argument(s) given, the kernel takes " +
                                   std::to_string(l.params.size()));
    for (size_t a = 0; a < l.params.size(); ++a) {
        const TimedArg arg = l.plan.args[a];
        const bool buffer = arg == TimedArg::In || arg == TimedArg::Out || arg == TimedArg::Tmp;
        const ParamKind k = l.params[a].kind;
        const std::string what = where + ", argument " + std::to_string(a + 1) + ": ";
        if (k == ParamKind::Pointer && !buffer)
            throw KernelTimingError(KernelTimingError::BadInput, what + "the parameter is a pointer; allowed: in, out or tmp");
        if ((k == ParamKind::Int32 || k == ParamKind::Int64) && buffer)
            throw KernelTimingError(KernelTimingError::BadInput,
                                   what + "the parameter is an integer; allowed: n or an integer literal");
        if (k == ParamKind::Other)
            throw KernelTimingError(KernelTimingError::BadInput,
                                   what + "the parameter's type is neither a pointer nor a 32/64-bit integer, which the "
                                          "launch contract cannot pass");
    }
}

}  // namespace

// ---- 3. the run
KernelTiming time_plain_kernel(const KernelTimingRequest& rq) {
    const DeviceInfo info = probe_device();
    if (!info.usable) throw KernelTimingError(KernelTimingError::BadInput, "--time needs a GPU: " + info.reason);
    if (rq.plan.empty()) throw KernelTimingError(KernelTimingError::BadInput, "--time: no launch to time");
    if (rq.n == 0 || rq.n > uint64_t(INT32_MAX))
        throw KernelTimingError(KernelTimingError::BadInput, "--n " + std::to_string(rq.n) + ": --time takes 1 to 2^31 - 1 elements");
    int dev = 0, major = 0, minor = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    RL_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));

    // The file as it is, every kernel the plan names (templates' instances too), for this GPU.
    std::vector<std::string> names;
    for (const TimedLaunch& l : rq.plan)
        if (std::find(names.begin(), names.end(), l.kernel) == names.end()) names.push_back(l.kernel);
    PlainProgram prog;
    try {
        std::string include = rq.cuda_include;  // the request's, else $CUDA_HOME's, else the toolkit the lab was built with
        if (const char* home = getenv("CUDA_HOME"); include.empty() && home && *home) include = std::string(home) + "/include";
        if (include.empty()) include = RLAB_CUDA_INCLUDE;
        prog = compile_plain_for_gpu(rq.file, rq.source, names, major * 10 + minor, include);
    } catch (const Error& e) {
        throw KernelTimingError(KernelTimingError::BadInput, e.what());
    }
    if (!prog.ok) throw KernelTimingError(KernelTimingError::Compile, "NVRTC could not compile " + rq.file, prog.log);
    cudaLibrary_t lib = nullptr;
    RL_CUDA(cudaLibraryLoadData(&lib, prog.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    struct Unload {
        cudaLibrary_t l;
        ~Unload() { cudaLibraryUnload(l); }
    } unload{lib};

    // The element type from the kernels' parameters (their lowered names); every kernel of the plan must agree.
    PlanRow plan_row;
    DType type = DType::F32;
    for (size_t i = 0; i < rq.plan.size(); ++i) {
        PlanRow::Launch l;
        l.plan = rq.plan[i];
        const size_t k = size_t(std::find(names.begin(), names.end(), l.plan.kernel) - names.begin());
        try {
            l.params = kernel_params_from_mangled(prog.symbols[k]);
            const DType t = element_type_of(l.params, l.plan.kernel);
            if (i && t != type)
                throw Error("launch " + std::to_string(i + 1) + " (" + l.plan.kernel +
                            ") reduces another element type than launch 1: --time needs one type throughout");
            type = t;
        } catch (const KernelTimingError&) {
            throw;
        } catch (const Error& e) {
            throw KernelTimingError(KernelTimingError::BadInput, e.what());
        }
        check_arguments(l, i);
        RL_CUDA(cudaLibraryGetKernel(&l.kernel, lib, prog.symbols[k].c_str()));
        plan_row.launches.push_back(std::move(l));
    }
    if (rq.single_launch)  // the contract's one launch: K<<<grid, block, block * sizeof(T)>>>(in, out, n)
        for (PlanRow::Launch& l : plan_row.launches) l.plan.shared_bytes = uint32_t(l.plan.block * element_bytes(type));
    for (PlanRow::Launch& l : plan_row.launches)
        if (l.plan.shared_bytes > 48 * 1024)  // beyond the default: the kernel must be allowed that much
            RL_CUDA(cudaKernelSetAttributeForDevice(l.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    int(l.plan.shared_bytes), dev));

    // The input: the run's --input over n elements of the kernel's type, as the emulator makes it.
    Schedule s;
    s.n = rq.n;
    s.type = type;
    s.input = rq.input;
    const InputData input = make_input(s);
    KernelCheck check;
    try {
        check = kernel_check(input, rq.op);
    } catch (const Error& e) {
        throw KernelTimingError(KernelTimingError::BadInput, e.what());
    }
    DeviceMemory in(input.size() * element_bytes(type));
    RL_CUDA(cudaMemcpy(in.ptr, input.data(), input.size() * element_bytes(type), cudaMemcpyHostToDevice));
    uint32_t slots = 1;
    for (const TimedLaunch& l : rq.plan) slots = std::max(slots, l.grid);
    const std::vector<unsigned char> identity = identity_image(type, rq.op, slots);
    plan_row.in = in.ptr;
    plan_row.n = rq.n;
    plan_row.slot_bytes = identity.size();
    plan_row.out = std::make_unique<DeviceMemory>(identity.size());
    plan_row.tmp = std::make_unique<DeviceMemory>(identity.size());
    plan_row.identity = std::make_unique<DeviceMemory>(identity.size());
    RL_CUDA(cudaMemcpy(plan_row.identity->ptr, identity.data(), identity.size(), cudaMemcpyHostToDevice));

    KernelTiming t;
    t.device = info.name;
    t.driver = info.driver;
    t.date = utc_now();
    t.file = rq.file;
    t.dtype = std::string(to_string(type));
    t.op = std::string(to_string(rq.op));
    t.n = rq.n;
    t.input = std::string(to_string(rq.input.kind)) + (rq.input.kind == InputKind::Iota ? "" : ", seed " + std::to_string(rq.input.seed));
    t.datasheet_gbps = datasheet_bandwidth_gbps(info.name);
    t.check = check;
    t.method = "warm (each repetition after an untimed run of its own), 2 warm-up runs, CUDA events on a held stream, "
               "out/tmp reset to the identity before every run outside the events, out[0] of every timed repetition "
               "checked against the exact host reference; GB/s = n * element size / median";
    t.rows.resize(3);
    t.rows[0].name = "your kernel";
    t.rows[0].what = timed_plan_text([&] {
        std::vector<TimedLaunch> p;
        for (const PlanRow::Launch& l : plan_row.launches) p.push_back(l.plan);
        return p;
    }());
    t.rows[1].name = "fast path";
    t.rows[1].what = "the lab's fast path, one launch (rlab bench's `fast`)";
    t.rows[2].name = "CUB";
    t.rows[2].what = std::string("cub::DeviceReduce::") + (rq.op == Op::Max ? "Max" : rq.op == Op::Min ? "Min" : "Sum");

    HeldTimer timer;
    first_run_watched(plan_row, timer.stream(), rq.time_limit_s, rq.file);
    std::unique_ptr<Row> fast, cub;
    try {
        fast = std::make_unique<FastRow>(type, rq.op, in.ptr, rq.n);
    } catch (const Error& e) {
        t.rows[1].why = e.what();
    }
    cub = std::make_unique<CubRow>(type, rq.op, in.ptr, rq.n);
    // The clocks leave their idle level before anything is timed (the SM clock idles far below its boost clock).
    {
        Row& warm = fast ? *fast : *cub;
        const auto t0 = std::chrono::steady_clock::now();
        while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 0.3) {
            for (int i = 0; i < 20; ++i) warm.enqueue(timer.stream());
            RL_CUDA(cudaStreamSynchronize(timer.stream()));
        }
    }
    try {
        measure(plan_row, t.rows[0], check, type, timer, rq.reps);
    } catch (const Error& e) {  // it ran once, then failed: a kernel that fails as a program
        throw KernelTimingError(KernelTimingError::Program, e.what());
    }
    if (fast) measure(*fast, t.rows[1], check, type, timer, rq.reps);
    measure(*cub, t.rows[2], check, type, timer, rq.reps);
    RL_CUDA(cudaDeviceSynchronize());
    return t;
}

}  // namespace rl::cuda
