// student/program_run.cpp — a program with main() in the runner: the device side decoded, the host side loaded, its
// buffers and launches on a PlainSession (made at the first launch, when the element type is known), then the
// input and result chosen from what the program did and the trace finished.
#include "student/program_run.h"
#include <cstring>
#include <memory>
#include <vector>
#include "core/error.h"
#include "core/input.h"
#include "student/cuda_compile.h"
#include "student/cuda_runtime_lab.h"
#include "student/host_program.h"
#include "student/plain_session.h"
#include "simt/program.h"

namespace rl::student {

namespace {

constexpr size_t kScheduleValues = 16384;

Op program_op_of(int c) {
    return c == simt::kCombineMax ? Op::Max : c == simt::kCombineMin ? Op::Min : c == simt::kCombineProd ? Op::Prod : Op::Sum;
}

DType program_element_type(simt::Type t) { return t == simt::Type::F64 ? DType::F64 : t == simt::Type::I32 ? DType::I32 : DType::F32; }

// The device behind the program's runtime. Until the first launch the element type (and so the session) is not
// known: buffers are kept here, with which bytes the program defined, and handed to the session at that launch.
class SessionDevice : public ProgramDevice {
public:
    SessionDevice(const simt::Module& module, Op op, bool op_given) : module_(module), op_(op), op_given_(op_given) {}

    bool kernel_params(const std::string& symbol, std::vector<ProgramParam>& params) const override {
        const simt::Kernel* k = by_symbol(symbol);
        if (!k) return false;
        params.clear();
        for (const simt::Param& p : k->params) params.push_back({p.pointer, p.pointer ? 8u : simt::type_bytes(p.type)});
        return true;
    }

    uint32_t allocate(uint64_t bytes) override {
        if (buffers_.size() >= PlainSession::kMaxBuffers)
            throw Error("the program allocates more than " + std::to_string(PlainSession::kMaxBuffers) +
                        " device buffers (cudaMalloc), the most the lab's emulator keeps apart (cudaFree does not give "
                        "one back): reuse buffers");
        total_ += bytes;
        if (total_ > PlainSession::kMaxBufferBytes)
            throw Error("the program's device buffers come to more than 1 GiB, the most the lab's emulator holds");
        Buffer b;
        b.bytes = bytes;
        if (session_) {
            b.session_id = session_->allocate(bytes, buffer_name(buffers_.size()));
        } else {
            b.shadow.assign(bytes, 0);
            b.defined.assign(bytes, 0);
        }
        buffers_.push_back(std::move(b));
        return uint32_t(buffers_.size() - 1);
    }

    void release(uint32_t) override {}  // the session keeps every buffer to the end: its records name them

    void write(uint32_t buffer, uint64_t offset, const void* bytes, uint64_t size) override {
        Buffer& b = buffers_.at(buffer);
        if (session_) return session_->write(b.session_id, offset, bytes, size);
        std::memcpy(b.shadow.data() + offset, bytes, size);
        std::memset(b.defined.data() + offset, 1, size);
    }

    void read(uint32_t buffer, uint64_t offset, void* bytes, uint64_t size) override {
        const Buffer& b = buffers_.at(buffer);
        if (session_) return session_->read(b.session_id, offset, bytes, size);
        std::memcpy(bytes, b.shadow.data() + offset, size);
    }

    std::string launch(const ProgramLaunch& l) override {
        const simt::Kernel* k = by_symbol(l.symbol);
        if (!k) return "no kernel " + l.symbol + " in the device code";
        const std::string where = "launch " + std::to_string(launches_ + 1) + " (" + k->name + ")";
        if (l.grid[1] != 1 || l.grid[2] != 1 || l.block[1] != 1 || l.block[2] != 1)
            throw ProgramStop{ProgramStop::Unsupported, 0,
                              where + ": a grid or block of more than one dimension is not supported by the lab; launch "
                                      "with one-dimensional sizes, kernel<<<blocks, threads, sharedBytes>>>"};
        if (!session_) start(*k, l);
        std::vector<SessionArg> args;
        for (size_t i = 0; i < l.args.size(); ++i) {
            const ProgramArg& a = l.args[i];
            if (!a.pointer) {
                args.push_back(SessionArg::scalar(a.bits));
                continue;
            }
            if (a.buffer == kNoBuffer)
                return where + ": argument " + std::to_string(i + 1) + " (" + k->params[i].name + ") is " +
                       (a.bits ? "a host pointer" : "a null pointer") +
                       ", not memory from cudaMalloc: a kernel reads and writes device memory only";
            args.push_back(SessionArg::in_buffer(buffers_.at(a.buffer).session_id, uint64_t(a.offset)));
        }
        ++launches_;
        note_launch(*k, l);
        try {
            return session_->launch(*k, k->name, l.grid[0], l.block[0], uint32_t(l.shared_bytes), args);
        } catch (const Error& e) {
            throw ProgramStop{ProgramStop::Unsupported, 0, where + ": " + e.what()};
        }
    }

    // The trace of the run: the input chosen at the first launch, the result from `result` (a buffer of this device
    // and a byte offset).
    Trace finish(uint32_t result_buffer, uint64_t result_offset, const std::string& file) {
        PlainSession::Finish f;
        f.schedule.n = input_.size();
        f.schedule.block = first_block_;
        f.schedule.grid = first_grid_;
        f.schedule.type = element_;
        f.schedule.op = op_;
        if (!op_given_ && session_->first_op() >= 0) f.schedule.op = program_op_of(session_->first_op());
        // The schedule names the input as values while they are few; a trace's schedule has room for about a
        // megabyte of text (core/trace_binary), so a larger program's input is only in the trace's inputs and the
        // schedule says so: input `program` (docs/plain-cuda.md, "Input and result").
        f.schedule.input.kind = InputKind::Program;
        if (input_.size() <= kScheduleValues) {
            f.schedule.input.kind = InputKind::Values;
            f.schedule.input.values.resize(input_.size());
            for (size_t i = 0; i < input_.size(); ++i) f.schedule.input.values[i] = input_.value(i);
        }
        f.input = &input_;
        f.result_buffer = buffers_.at(result_buffer).session_id;
        f.result_element = result_offset / element_bytes();
        f.kernel_file = file;
        return session_->finish(f);
    }

    bool started() const { return session_ != nullptr; }
    // The operator the launches combined with first, when it is not the one the session ran with (and --op did not
    // name it): the program must run again with it (the identity's flags in the records depend on it).
    bool other_op(Op& op) const {
        if (op_given_ || !session_ || session_->first_op() < 0 || program_op_of(session_->first_op()) == op_) return false;
        op = program_op_of(session_->first_op());
        return true;
    }
    uint32_t element_bytes() const { return element_ == DType::F64 ? 8 : 4; }
    // The last launch's last pointer argument the kernel may write (not const): where a program that copies
    // nothing back left its answer.
    bool last_written(uint32_t& buffer, uint64_t& offset) const {
        if (last_written_buffer_ == kNoBuffer) return false;
        buffer = last_written_buffer_;
        offset = last_written_offset_;
        return true;
    }

private:
    void note_launch(const simt::Kernel& k, const ProgramLaunch& l) {
        last_written_buffer_ = kNoBuffer;
        for (size_t i = 0; i < l.args.size() && i < k.params.size(); ++i)
            if (l.args[i].pointer && !k.params[i].is_const && l.args[i].buffer != kNoBuffer) {
                last_written_buffer_ = l.args[i].buffer;
                last_written_offset_ = uint64_t(l.args[i].offset);
            }
    }

    struct Buffer {
        uint64_t bytes = 0;
        std::vector<unsigned char> shadow, defined;  // before the session
        uint32_t session_id = 0;
    };

    static std::string buffer_name(size_t index) { return "buffer " + std::to_string(index + 1); }

    const simt::Kernel* by_symbol(const std::string& symbol) const {
        for (const simt::Kernel& k : module_.kernels)
            if (k.symbol == symbol) return &k;
        return nullptr;
    }

    // The first launch: the element type from its kernel, the session, the buffers so far, and the input.
    void start(const simt::Kernel& k, const ProgramLaunch& l) {
        if (!k.has_element)
            throw ProgramStop{ProgramStop::Unsupported, 0,
                              "launch 1 (" + k.name + "): its first pointer parameter points to no float, double or int, "
                                                       "the element types the lab follows"};
        element_ = program_element_type(k.element);
        session_ = std::make_unique<PlainSession>(module_, op_, element_);
        session_->name_every_launch();  // how many launches follow is the program's to decide
        for (size_t i = 0; i < buffers_.size(); ++i) {
            Buffer& b = buffers_[i];
            b.session_id = session_->allocate(b.bytes, buffer_name(i));
            // Only what the program wrote: bytes it never set stay undefined, as cudaMalloc leaves them.
            for (uint64_t at = 0; at < b.bytes;) {
                if (!b.defined[at]) {
                    ++at;
                    continue;
                }
                uint64_t end = at;
                while (end < b.bytes && b.defined[end]) ++end;
                session_->write(b.session_id, at, b.shadow.data() + at, end - at);
                at = end;
            }
        }
        // The input: the buffer the first pointer argument points into, all of it, as the program filled it.
        size_t first_pointer = l.args.size();
        for (size_t i = 0; i < l.args.size(); ++i)
            if (l.args[i].pointer) {
                first_pointer = i;
                break;
            }
        if (first_pointer == l.args.size() || l.args[first_pointer].buffer == kNoBuffer)
            throw ProgramStop{ProgramStop::Unsupported, 0,
                              "launch 1 (" + k.name + "): its first pointer argument is no buffer from cudaMalloc, so "
                                                       "the lab has no input to follow"};
        const Buffer& in = buffers_.at(l.args[first_pointer].buffer);
        const uint64_t elements = in.bytes / element_bytes();
        input_.type = element_;
        if (element_ == DType::F64) {
            input_.f64.resize(elements);
            std::memcpy(input_.f64.data(), in.shadow.data(), elements * 8);
        } else if (element_ == DType::I32) {
            input_.i32.resize(elements);
            std::memcpy(input_.i32.data(), in.shadow.data(), elements * 4);
        } else {
            input_.f32.resize(elements);
            std::memcpy(input_.f32.data(), in.shadow.data(), elements * 4);
        }
        session_->mark_input(in.session_id, elements);
        first_grid_ = l.grid[0];
        first_block_ = l.block[0];
        for (Buffer& b : buffers_) b.shadow.clear(), b.shadow.shrink_to_fit(), b.defined.clear(), b.defined.shrink_to_fit();
    }

    const simt::Module& module_;
    Op op_;
    bool op_given_;
    DType element_ = DType::F32;
    std::unique_ptr<PlainSession> session_;
    std::vector<Buffer> buffers_;
    uint64_t total_ = 0;
    uint32_t launches_ = 0;
    InputData input_;
    uint32_t first_grid_ = 1, first_block_ = 1;
    uint32_t last_written_buffer_ = kNoBuffer;
    uint64_t last_written_offset_ = 0;
};

// "the program's main() returned 3" / "the program called exit(3)"
std::string program_status_words(const ProgramOutcome& o) {
    return o.end == ProgramOutcome::Exited ? "the program called exit(" + std::to_string(o.status) + ")"
                                           : "the program's main() returned " + std::to_string(o.status);
}

}  // namespace

ProgramRun run_program(const std::string& file, const std::string& source, Op op, bool op_given,
                       const std::string& output_path, const std::function<void()>& before_main) {
    ProgramRun run;
    auto fail = [&](int code, const std::string& line) {
        run.exit_code = code;
        run.message = line;
        return run;
    };
    // An argmax's contract (an int index out, tmpi) is a plan's: a program's buffers have no such names.
    if (op_given && op == Op::ArgMax)
        return fail(2, "--op argmax: a program with main() runs sum, max, min or prod; run its argmax kernel alone or with "
                       "--launch (out: an int index, tmpi: the scratch indices)");
    CudaCompile device = compile_cuda_device(file, source);
    if (!device.ok) {
        run.compiler_log = !device.diagnostics.empty();
        return fail(3, run.compiler_log ? device.log : device.error);
    }
    simt::Module module;
    try {
        module = simt::decode(device.bitcode, file);
    } catch (const Error& e) {
        return fail(3, e.what());  // a device construct outside the emulator's subset, at its line
    }
    HostProgramCompile host = compile_cuda_host_program(file, source);
    if (!host.ok) {
        run.compiler_log = !host.diagnostics.empty();
        return fail(3, run.compiler_log ? host.log : host.error);
    }
    // The operator: --op's, else the one the kernels combine with, known only once they ran: a program whose
    // kernels combine with another than sum runs a second time with it, as a single kernel is launched again
    // (student/launch_plan.cpp). Its output is the second run's.
    Op run_op = op_given ? op : Op::Sum;
    std::unique_ptr<SessionDevice> state;
    std::unique_ptr<ProgramRuntime> rt;
    ProgramOutcome o;
    for (int attempt = 0; attempt < 2; ++attempt) {
        rt.reset();
        state = std::make_unique<SessionDevice>(module, run_op, op_given);
        rt = std::make_unique<ProgramRuntime>(*state);
        o = run_host_program(*host.program, file, *rt, output_path, before_main);
        if (!state->other_op(run_op)) break;
    }
    SessionDevice& device_state = *state;
    ProgramRuntime& runtime = *rt;
    switch (o.end) {
        case ProgramOutcome::LoadFailed:
        case ProgramOutcome::Unsupported: return fail(2, o.message);
        case ProgramOutcome::KernelFailed:
        case ProgramOutcome::Threw: return fail(4, o.message);
        default: break;
    }
    if (const std::string t = runtime.thread_problem(); !t.empty()) return fail(2, t);
    if (runtime.launches() == 0 || !device_state.started()) {
        if (o.status != 0) return fail(4, program_status_words(o) + " before it launched any kernel");
        return fail(2, program_status_words(o) + " without launching a kernel: the lab records kernel launches (kernel<<<grid, block>>>(...)); "
                           "to run one kernel alone, name it with --kernel");
    }
    // The result: the first element of the last copy back after the last launch, else what the last launch could
    // write through its last non-const pointer (docs/plain-cuda.md, "Input and result").
    uint32_t result_buffer = kNoBuffer;
    uint64_t result_offset = 0;
    for (auto it = runtime.device_to_host().rbegin(); it != runtime.device_to_host().rend(); ++it)
        if (it->after_launches == runtime.launches()) {
            result_buffer = it->buffer;
            result_offset = it->offset;
            break;
        }
    if (result_buffer == kNoBuffer && !device_state.last_written(result_buffer, result_offset))
        return fail(2, "the program's last launch writes through no pointer and nothing is copied back after it: the lab "
                       "has no result to check");
    try {
        run.trace = device_state.finish(result_buffer, result_offset, file);
    } catch (const Error& e) {
        return fail(5, e.what());
    }
    if (o.status != 0) {
        run.exit_code = 6;
        run.message = program_status_words(o);
    }
    return run;
}

}  // namespace rl::student
