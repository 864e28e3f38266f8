// cuda/student_kernel.cpp — the runner's `--backend cuda`: a student's kernel compiled with NVRTC for this GPU,
// launched with the record buffer (include/rlab/detail/device_abi.h), stopped by a watchdog at the time limit,
// its records and out slots read back as student/kernel_backend.h's LaunchOutput.
// The runtime's library API (cudaLibrary*, the driver's cuLibrary* underneath) over the static runtime: the
// runner starts on machines without a driver and says so, and needs no libcuda at link time.
#include "student/cuda_backend.h"

#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "core/emulator.h"  // identity_bits
#include "core/error.h"
#include "core/event_flags.h"
#include "core/limits.h"
#include "core/student_record.h"
#include "cuda/student_compile.h"
#include "rlab/detail/device_abi.h"
#include "rlab/detail/record_flags.h"
#include "student/host_compile.h"  // compiled_text, kernel_include_dir

namespace rl::student {
namespace {

namespace abi = device_abi;

// The device's record is rl::StudentRecord byte for byte, its kinds and constants core's.
static_assert(sizeof(abi::Record) == sizeof(StudentRecord));
static_assert(offsetof(abi::Record, seq) == offsetof(StudentRecord, seq));
static_assert(offsetof(abi::Record, dep) == offsetof(StudentRecord, dep));
static_assert(offsetof(abi::Record, value) == offsetof(StudentRecord, value));
static_assert(offsetof(abi::Record, sm) == offsetof(StudentRecord, sm));
static_assert(abi::kFence == uint8_t(EventKind::Fence) && abi::kPartialLoad == uint8_t(EventKind::PartialLoad) &&
              abi::kTicket == uint8_t(EventKind::Ticket) && abi::kShuffle == uint8_t(EventKind::Shuffle));
static_assert(abi::kUndefinedFlag == kUndefined && abi::kIdentityFlag == kIdentity && abi::kPoison == kPoisonBits);
static_assert(abi::kRetracted == RL_RETRACTED_RECORD && abi::kNone == kNoEvent);
static_assert(abi::kSharedSlots == limits::kStudentSharedSlots && abi::kThreadEvents == limits::kStudentThreadEvents);
static_assert(abi::kTraceEvents == limits::kTraceEvents);
static_assert(abi::kSharedSites == RL_SHARED_SITES);
// A slot's tag keeps writer and flags (records stay below kTraceEvents - 1, so the writer fits 24 bits).
static_assert(abi::tag_writer(abi::make_tag(kNoEvent, kIdentity)) == kNoEvent && abi::tag_flags(abi::make_tag(kNoEvent, kIdentity)) == kIdentity);
static_assert(abi::tag_writer(abi::make_tag(0xfffffe, 0x81)) == 0xfffffe && abi::tag_flags(abi::make_tag(0xfffffe, 0x81)) == 0x81);
static_assert(abi::tag_writer(abi::make_tag(0, 0)) == 0);

void cu(cudaError_t r, const char* what) {
    if (r != cudaSuccess) throw Error(std::string(what) + ": " + cudaGetErrorString(r));
}
#define CU(call) cu((call), #call)

// Device memory freed with its owner.
struct DeviceBuffer {
    void* p = nullptr;
    explicit DeviceBuffer(size_t bytes) { CU(cudaMalloc(&p, bytes < 8 ? 8 : bytes)); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { cudaFree(p); }
    template <class T> T* as() const { return static_cast<T*>(p); }
};

template <class T> void upload(const DeviceBuffer& b, const std::vector<T>& v) {
    if (!v.empty()) CU(cudaMemcpy(b.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
}

constexpr size_t kDynamicShared = size_t(abi::kSharedSlots) * (sizeof(unsigned long long) + sizeof(unsigned));

class CudaBackend final : public KernelBackend {
public:
    CudaBackend(const std::vector<char>& cubin, std::string device, double time_limit_s)
        : device_(std::move(device)), time_limit_s_(time_limit_s) {
        CU(cudaLibraryLoadData(&lib_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
        CU(cudaLibraryGetKernel(&entry_, lib_, "rl_student_entry"));
        void* sig = nullptr;
        size_t size = 0;
        CU(cudaLibraryGetGlobal(&sig, &size, lib_, "rl_kernel_signature"));
        CU(cudaMemcpy(&signature_, sig, sizeof signature_, cudaMemcpyDeviceToHost));
        CU(cudaLibraryGetGlobal(&launch_, &size, lib_, "rl_launch"));
        if (size != sizeof(abi::Launch)) throw Error("the compiled kernel was built against another rlab/kernel.h");
        if ((signature_ & 0xff) > 2) throw Error("the compiled kernel reports an element type the lab does not know");
    }
    ~CudaBackend() override {
        if (lib_) cudaLibraryUnload(lib_);
    }
    DType element() const override {
        const unsigned e = signature_ & 0xff;
        return e == 1 ? DType::F64 : e == 2 ? DType::I32 : DType::F32;
    }
    bool has_counter() const override { return (signature_ & abi::kTakesCounter) != 0; }
    std::string device() const override { return device_; }
    LaunchOutput launch(const LaunchInput& in) override;

private:
    std::string device_;
    double time_limit_s_;
    cudaLibrary_t lib_ = nullptr;
    cudaKernel_t entry_ = nullptr;
    void* launch_ = nullptr;  // the module's rl_launch
    unsigned signature_ = 0;
};

// A kernel error in the emulator's words (student/host_runtime.cpp), so both backends say the same.
std::string error_message(const abi::KernelError& e, const LaunchInput& in) {
    const std::string who = "thread " + std::to_string(e.thread) + " of block " + std::to_string(e.block) +
                            (in.launch ? " (the lab's second launch)" : "") + " on line " + std::to_string(e.line);
    const std::string slots = std::to_string(in.out.size());
    switch (e.code) {
        case abi::kSharedIndex:
            return "out of range: " + who + " indexes a shared array of " + std::to_string(e.bound) + " slots with " +
                   std::to_string(e.index) + " (allowed 0.." + std::to_string(e.bound - 1) + ")";
        case abi::kOutIndex:
            return "out of range: " + who + " " + (e.what == 0 ? "reads" : e.what == 1 ? "writes" : "applies an atomic to") +
                   " out[" + std::to_string(e.index) + "], and out has " + slots + " slots (0.." +
                   std::to_string(in.out.size() - 1) + ", one per block)";
        case abi::kSharedTooMany:
            return who + " declares rl::Shared beyond " + std::to_string(abi::kSharedSlots) +
                   " slots in all";
        case abi::kSharedDeclarations:
            return who + " declares more than " + std::to_string(abi::kSharedSites) +
                   " rl::Shared arrays (a declaration counts once, inside a loop too)";
        case abi::kRecordsFull:
            return "the kernel records more than " + std::to_string(limits::kTraceEvents) +
                   " events (the trace limit): use a smaller n or grid";
        case abi::kStepBudget:
            return who + " records its " + std::to_string(abi::kThreadEvents) +
                   "th event: the step budget stops it (an endless loop?)";
        case abi::kAtomicAddress: return who + ": an atomic's address must be &out[b]";
        case abi::kShuffleWidth: {
            static const char* names[] = {"__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync", "__shfl_sync"};
            return who + ": " + names[e.what & 3] + "'s width is " + std::to_string(e.index) +
                   " (allowed: a power of two 1..32)";
        }
        default: return who + ": kernel error " + std::to_string(e.code);
    }
}

// A hung or endless kernel cannot be stopped from the host; the context is lost, so the runner ends here with
// the one line the parent shows (the driver reclaims the GPU when the process exits). On the GPU a barrier some
// threads never reach looks the same as an endless loop (the emulator tells them apart).
[[noreturn]] void time_limit_reached(double seconds) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "the kernel did not finish within %g s (an endless loop, or a __syncthreads() not every thread "
                  "reaches?): it was stopped\n", seconds);
    ssize_t ignored = write(2, line, std::strlen(line));
    (void)ignored;
    _exit(4);
}

LaunchOutput CudaBackend::launch(const LaunchInput& in) {
    LaunchOutput out;
    const size_t threads = size_t(in.grid) * in.block, slots = in.out.size();
    const uint64_t room = limits::kTraceEvents - 1 - in.record_base;  // records this launch may write

    DeviceBuffer records(room * sizeof(abi::Record)), cursor(sizeof(unsigned)), states(threads * sizeof(abi::ThreadState)),
        error(sizeof(abi::KernelError)), counter(sizeof(unsigned)), ops(sizeof(unsigned)), first(sizeof(unsigned long long));
    CU(cudaMemset(cursor.p, 0, sizeof(unsigned)));
    CU(cudaMemset(error.p, 0, sizeof(abi::KernelError)));
    CU(cudaMemset(counter.p, 0, sizeof(unsigned)));
    CU(cudaMemset(ops.p, 0, sizeof(unsigned)));
    CU(cudaMemset(first.p, 0xff, sizeof(unsigned long long)));

    // in[]: the input (first launch) or the block partials (second launch); out: its slots as the plan gives them
    const size_t in_bytes = in.launch == 0 && in.input ? in.input->size() * in.input->element_bytes() : 0;
    DeviceBuffer input(in_bytes);
    if (in_bytes) CU(cudaMemcpy(input.p, in.input->data(), in_bytes, cudaMemcpyHostToDevice));
    std::vector<unsigned long long> bits(slots), pbits(in.partials.size());
    std::vector<unsigned> tags(slots), ptags(in.partials.size());
    for (size_t b = 0; b < slots; ++b) {
        bits[b] = in.out[b].bits;
        tags[b] = abi::make_tag(in.out[b].writer, in.out[b].flags);
    }
    for (size_t b = 0; b < in.partials.size(); ++b) {
        pbits[b] = in.partials[b].bits;
        ptags[b] = abi::make_tag(in.partials[b].writer, in.partials[b].flags);
    }
    DeviceBuffer out_bits(slots * 8), out_tags(slots * 4), part_bits(pbits.size() * 8), part_tags(ptags.size() * 4);
    upload(out_bits, bits);
    upload(out_tags, tags);
    upload(part_bits, pbits);
    upload(part_tags, ptags);

    Schedule s;
    s.type = in.type;
    s.op = in.op;
    abi::Launch l{};
    l.records = records.as<abi::Record>();
    l.cursor = cursor.as<unsigned>();
    l.states = states.as<abi::ThreadState>();
    l.error = error.as<abi::KernelError>();
    l.in = input.p;
    l.partial_bits = part_bits.as<unsigned long long>();
    l.partial_tags = part_tags.as<unsigned>();
    l.out_bits = out_bits.as<unsigned long long>();
    l.out_tags = out_tags.as<unsigned>();
    l.counter = counter.as<unsigned>();
    l.ops_used = ops.as<unsigned>();
    l.first_op = first.as<unsigned long long>();
    l.identity = identity_bits(s);
    l.poison = in.type == DType::F64 || in.op == Op::Witness ? kPoisonBits : kPoisonBits & 0xffffffffull;
    l.record_base = in.record_base;
    l.out_slots = unsigned(slots);
    l.launch = in.launch;
    l.op = unsigned(in.op == Op::Max    ? abi::kMax
                    : in.op == Op::Min  ? abi::kMin
                    : in.op == Op::Prod ? abi::kProd
                    : in.op == Op::Witness ? abi::kWitness
                                           : abi::kSum);
    l.n = in.n;
    CU(cudaMemcpy(launch_, &l, sizeof l, cudaMemcpyHostToDevice));

    cudaStream_t stream = nullptr;
    CU(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CU(cudaLaunchKernel(reinterpret_cast<const void*>(entry_), dim3(in.grid), dim3(in.block), nullptr, kDynamicShared, stream));
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const cudaError_t q = cudaStreamQuery(stream);
        if (q == cudaSuccess) break;
        if (q != cudaErrorNotReady) {
            out.error = std::string("the GPU stopped the kernel: ") + cudaGetErrorString(q);
            return out;
        }
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > time_limit_s_)
            time_limit_reached(time_limit_s_);
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    CU(cudaStreamDestroy(stream));

    abi::KernelError e{};
    CU(cudaMemcpy(&e, error.p, sizeof e, cudaMemcpyDeviceToHost));
    if (e.code != abi::kNoError) {
        out.error = error_message(e, in);
        return out;
    }
    unsigned count = 0, used = 0;
    unsigned long long first_key = 0;
    CU(cudaMemcpy(&count, cursor.p, sizeof count, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(&used, ops.p, sizeof used, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(&first_key, first.p, sizeof first_key, cudaMemcpyDeviceToHost));
    out.records.resize(count);
    if (count) CU(cudaMemcpy(out.records.data(), records.p, size_t(count) * sizeof(StudentRecord), cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(bits.data(), out_bits.p, slots * 8, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(tags.data(), out_tags.p, slots * 4, cudaMemcpyDeviceToHost));
    out.out.resize(slots);
    for (size_t b = 0; b < slots; ++b) out.out[b] = {bits[b], abi::tag_flags(tags[b]), abi::tag_writer(tags[b])};
    out.ops_used = used;
    out.first_op = first_key == ~0ull ? -1 : int(first_key & 0xf);
    return out;
}

}  // namespace

CudaKernel make_cuda_backend(const std::string& file, const std::string& source, double time_limit_s) {
    CudaKernel k;
    const std::string text = compiled_text(file, source);  // throws rl::Error: no RL_KERNEL, or two
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        k.error = "--backend cuda: no CUDA device is usable here (use --backend cpu)";
        return k;
    }
    try {
        int dev = 0, major = 0, minor = 0;
        CU(cudaGetDevice(&dev));
        CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
        cudaDeviceProp prop{};
        CU(cudaGetDeviceProperties(&prop, dev));
        GpuProgram p = compile_for_gpu(file, text, major * 10 + minor, kernel_include_dir());
        if (!p.ok) {
            k.compile_failed = true;
            k.log = p.log;
            return k;
        }
        k.backend = std::make_unique<CudaBackend>(p.cubin, prop.name, time_limit_s);
    } catch (const Error& e) {
        k.error = e.what();
    }
    return k;
}

}  // namespace rl::student
