// student/plain_session.cpp — a plain CUDA run's buffers and launches on the SIMT engine, and their one trace.
#include "student/plain_session.h"
#include <algorithm>
#include <cstring>
#include <map>
#include "core/error.h"
#include "core/limits.h"
#include "simt/values.h"
#include "student/launch_syntax.h"

namespace rl::student {

struct PlainSession::State {
    const simt::Module& module;
    Op op;
    DType element;
    uint32_t element_bytes;
    std::vector<simt::GlobalBuffer> buffers;
    uint64_t bytes = 0;  // of all buffers
    std::map<std::string, std::vector<uint8_t>> device_variables;
    std::vector<StudentRecord> records;
    uint64_t later_threads = 0;  // expect_later_threads()
    uint64_t merged = 0;         // records that make no event of their own (simt::LaunchResult::merged)
    std::vector<LaunchScope> scopes;
    uint32_t blocks = 0;  // the trace's block number of the next launch's block 0
    uint32_t ops_used = 0;
    int first_op = -1;
    int input = -1;
    std::string stopped;  // the kernel error that ended the run
    bool name_all = false;

    State(const simt::Module& m, Op o, DType e) : module(m), op(o), element(e), element_bytes(e == DType::F64 ? 8 : 4) {}

    simt::GlobalBuffer& buffer(uint32_t id, uint64_t offset, uint64_t size, const char* what) {
        if (id >= buffers.size())
            throw Error(std::string(what) + ": buffer " + std::to_string(id) + " does not exist (the run has " +
                        std::to_string(buffers.size()) + ")");
        simt::GlobalBuffer& b = buffers[id];
        if (offset > b.size || size > b.size - offset)
            throw Error(std::string(what) + " of " + std::to_string(size) + " bytes at byte " + std::to_string(offset) + " of " + b.name +
                        ", which has " + std::to_string(b.size) + " bytes");
        return b;
    }
    // Bytes the host wrote: values without history, defined.
    static void forget(simt::GlobalBuffer& b, uint64_t offset, uint64_t size) {
        if (size == 0) return;
        for (uint64_t g = offset / 4; g <= (offset + size - 1) / 4; ++g) {
            b.mem.hist[g] = kNoEvent;
            b.mem.flags[g] = 0;
        }
    }
};

PlainSession::PlainSession(const simt::Module& module, Op op, DType element) : s_(std::make_unique<State>(module, op, element)) {}
PlainSession::~PlainSession() = default;

uint32_t PlainSession::allocate(uint64_t bytes, const std::string& name, BufferStart start) {
    if (s_->buffers.size() >= kMaxBuffers)
        throw Error("a run has at most " + std::to_string(kMaxBuffers) + " global buffers (" + name + " would be the " +
                    std::to_string(kMaxBuffers + 1) + "th)");
    if (bytes > kMaxBufferBytes - s_->bytes)
        throw Error("the buffer " + name + " of " + std::to_string(bytes) + " bytes: the run's buffers hold at most " +
                    std::to_string(kMaxBufferBytes) + " bytes together in the lab's emulator");
    simt::GlobalBuffer b;
    b.name = name;
    b.size = bytes;
    b.mem.assign(bytes, start == BufferStart::Undefined ? kUndefined : kIdentity);
    if (start == BufferStart::Identity) {
        const uint64_t identity = simt::identity_of(s_->element, s_->op);
        const uint32_t e = s_->element_bytes;
        for (uint64_t i = 0; i + e <= bytes; i += e) {
            std::memcpy(&b.mem.bytes[i], &identity, e);
            b.mem.value[i / 4] = identity;
        }
    }
    s_->bytes += bytes;
    s_->buffers.push_back(std::move(b));
    return uint32_t(s_->buffers.size() - 1);
}

void PlainSession::write(uint32_t buffer, uint64_t offset, const void* bytes, uint64_t size) {
    simt::GlobalBuffer& b = s_->buffer(buffer, offset, size, "a copy to the device");
    if (size) std::memcpy(&b.mem.bytes[offset], bytes, size);
    State::forget(b, offset, size);
}

void PlainSession::fill(uint32_t buffer, uint64_t offset, uint8_t byte, uint64_t size) {
    simt::GlobalBuffer& b = s_->buffer(buffer, offset, size, "a memset");
    if (size) std::memset(&b.mem.bytes[offset], byte, size);
    State::forget(b, offset, size);
}

void PlainSession::read(uint32_t buffer, uint64_t offset, void* bytes, uint64_t size) const {
    const simt::GlobalBuffer& b = s_->buffer(buffer, offset, size, "a copy from the device");
    if (size) std::memcpy(bytes, &b.mem.bytes[offset], size);
}

uint64_t PlainSession::size(uint32_t buffer) const { return s_->buffer(buffer, 0, 0, "a buffer's size").size; }
const std::string& PlainSession::name(uint32_t buffer) const { return s_->buffer(buffer, 0, 0, "a buffer's name").name; }
uint32_t PlainSession::buffers() const { return uint32_t(s_->buffers.size()); }

void PlainSession::mark_input(uint32_t buffer, uint64_t elements) {
    simt::GlobalBuffer& b = s_->buffer(buffer, 0, elements * s_->element_bytes, "the input");
    b.input = true;
    b.input_elements = elements;
    s_->input = int(buffer);
}

const simt::Kernel* PlainSession::kernel(const std::string& name) const {
    try {
        return &simt::pick_kernel(s_->module, name);
    } catch (const Error&) {
        return nullptr;
    }
}

std::string PlainSession::launch(const simt::Kernel& kernel, const std::string& label, uint32_t grid, uint32_t block,
                                 uint32_t shared_bytes, const std::vector<SessionArg>& args) {
    State& s = *s_;
    if (!s.stopped.empty()) throw Error("the run stopped at a kernel error: no launch runs after it");
    const std::string which = "launch " + std::to_string(s.scopes.size() + 1) + " (" + label + ")";
    if (s.scopes.size() >= kMaxPlanLaunches)
        throw Error(which + ": a run has at most " + std::to_string(kMaxPlanLaunches) + " launches");
    if (grid < 1 || block < 1 || block > limits::kBlockThreads)
        throw Error(which + ": <<<" + std::to_string(grid) + ", " + std::to_string(block) + ">>>: a launch has at least one block, of 1.." +
                    std::to_string(limits::kBlockThreads) + " threads");
    if (uint64_t(s.blocks) + grid > 0xffffffffull) throw Error(which + ": the run's launches have more than 2^32 blocks together");
    if (args.size() != kernel.params.size())
        throw Error(which + ": " + kernel.name + " takes " + std::to_string(kernel.params.size()) + " arguments, and the launch passes " +
                    std::to_string(args.size()));
    simt::LaunchRequest r;
    r.launch = uint8_t(s.scopes.size());
    r.scope = s.scopes.empty() && !s.name_all ? "" : "launch " + std::to_string(s.scopes.size() + 1);
    r.grid = grid;
    r.block = block;
    r.dynamic_shared_bytes = shared_bytes;
    r.op = s.op;
    r.type = s.element;
    for (size_t p = 0; p < args.size(); ++p) {
        const SessionArg& a = args[p];
        if (a.pointer != kernel.params[p].pointer)
            throw Error(which + ": argument " + std::to_string(p + 1) + " is " + (a.pointer ? "a buffer" : "a number") + ", and " +
                        kernel.name + "'s parameter " + std::to_string(p + 1) + " is " + (kernel.params[p].pointer ? "a pointer" : "a number"));
        if (a.pointer) s.buffer(a.buffer, a.offset, 0, (which + ": argument " + std::to_string(p + 1)).c_str());
        simt::Argument arg;
        arg.kind = a.pointer ? simt::ArgKind::Buffer : simt::ArgKind::Scalar;
        arg.bits = a.bits;
        arg.buffer = a.buffer;
        arg.offset = a.offset;
        r.args.push_back(arg);
    }
    r.buffers = &s.buffers;
    r.device_variables = &s.device_variables;
    r.record_base = uint32_t(s.records.size());
    r.records = &s.records;  // appended in place: never a second array copied onto the first
    r.later_threads = s.later_threads;
    r.merged_before = s.merged;
    simt::LaunchResult res = simt::run_launch(kernel, r);
    if (s.first_op < 0) s.first_op = res.first_op;
    s.ops_used |= res.ops_used;
    s.merged += res.merged;
    if (!res.records.empty() || s.records.empty()) s.records = std::move(res.records);
    LaunchScope scope;
    scope.kernel = label;
    scope.grid = grid;
    scope.block = block;
    scope.shared_bytes = shared_bytes;
    scope.first_block = s.blocks;
    s.scopes.push_back(scope);
    s.blocks += grid;
    if (!res.error.empty()) s.stopped = res.error;
    return res.error;
}

size_t PlainSession::launches() const { return s_->scopes.size(); }
void PlainSession::name_every_launch() { s_->name_all = true; }
void PlainSession::expect_later_threads(uint64_t threads) { s_->later_threads = threads; }
uint32_t PlainSession::ops_used() const { return s_->ops_used; }
int PlainSession::first_op() const { return s_->first_op; }

Trace PlainSession::finish(const Finish& how) {
    State& s = *s_;
    if (!s.stopped.empty()) throw Error("the run stopped at a kernel error: " + s.stopped);
    if (s.scopes.empty()) throw Error("no kernel was launched");
    if (!how.input) throw Error("the run's input is not known (PlainSession::finish needs it for the reference)");
    const simt::GlobalBuffer& result = s.buffer(how.result_buffer, how.result_element * s.element_bytes, s.element_bytes, "the result");
    // Core reads the buffers as 0 = the input, 1 = the result, then the others in the order they were allocated.
    std::vector<uint32_t> id(s.buffers.size(), 0);
    {
        uint32_t next = 2;
        for (uint32_t b = 0; b < s.buffers.size(); ++b)
            id[b] = b == how.result_buffer ? 1 : int(b) == s.input ? 0 : next++;
        if (s.buffers.size() > PlainSession::kMaxBuffers) throw Error("more buffers than records can name");
    }
    for (StudentRecord& r : s.records) {
        const bool access = r.kind == EventKind::Load || r.kind == EventKind::PartialLoad || r.kind == EventKind::BlockPartial ||
                            r.kind == EventKind::Atomic;
        if (!access) continue;
        const uint32_t old = (r.pad0 >> 1) & 7u;
        if (old < id.size()) r.pad0 = uint8_t((r.pad0 & ~0x0eu) | simt::buffer_pad(id[old]));
    }
    StudentRun run;
    run.schedule = how.schedule;
    run.schedule.type = s.element;
    run.schedule.op = s.op;
    run.schedule.items = 1;
    if (run.schedule.grid == 0) run.schedule.grid = s.scopes[0].grid;
    if (run.schedule.block == 0) run.schedule.block = s.scopes[0].block;
    run.backend = Backend::Cpu;
    run.device = "CPU SIMT emulator (plain CUDA)";
    run.kernel_file = how.kernel_file;
    run.out_identity = simt::identity_of(s.element, s.op);
    const uint64_t g = how.result_element * s.element_bytes / 4;
    uint64_t bits = 0;
    std::memcpy(&bits, &result.mem.bytes[how.result_element * s.element_bytes], s.element_bytes);
    run.final_out0 = result.mem.hist[g] != kNoEvent ? result.mem.value[g] : bits;
    run.second_launch = false;
    run.launches = s.scopes;
    // Each buffer's elements of T under the number the trace gives it: the checker's words ("outside tmp's 64 elements").
    run.buffer_elements.assign(std::min<size_t>(id.empty() ? 0 : *std::max_element(id.begin(), id.end()) + 1u, kMaxTraceBuffers), 0);
    for (uint32_t b = 0; b < s.buffers.size(); ++b)
        if (id[b] < run.buffer_elements.size()) run.buffer_elements[id[b]] = s.buffers[b].size / s.element_bytes;
    try {
        return trace_from_student_records(run, std::move(s.records), *how.input);
    } catch (const Error& e) {
        throw Error(std::string("the kernel's records do not make a trace: ") + e.what());
    }
}

}  // namespace rl::student
