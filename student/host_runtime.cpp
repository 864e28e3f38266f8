// student/host_runtime.cpp — runs a student's kernel plugin on the CPU: one fiber per thread of a block, each
// warp in lock step to its next memory access, shuffle, barrier or __syncwarp, the warps of a block taking turns
// (round robin: one access, shuffle or __syncwarp per turn, as the plain-CUDA engine's warps); blocks one after
// another.
// The semantics (interface-16.md section 3): a shuffle completes when every lane its mask names waits at a
// shuffle or has exited; a barrier when every non-exited thread of the block waits at the same __syncthreads()
// (source line); when nothing can move the kernel hangs. Records follow core/student_record.h so the GPU's records of the same kernel match.
#include "student/host_runtime.h"
#include <dlfcn.h>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include "core/error.h"
#include "core/event_flags.h"
#include "core/limits.h"
#include "rlab/detail/host_abi.h"
#include "rlab/detail/record_flags.h"
#include "student/fibers.h"
#include "student/launch_plan.h"

namespace rl::student {
namespace {

constexpr uint32_t kNone = kNoEvent;

enum class Wait : uint8_t { Run, Access, Shuffle, Barrier, WarpSync, Exited };

struct Launch;

struct ThreadState {
    Launch* launch = nullptr;
    uint32_t tid = 0;
    Wait wait = Wait::Run;
    int line = 0;  // where it waits
    uint32_t seq = 0, shuffles = 0, barriers = 0, warpsyncs = 0, loads = 0, partial_loads = 0, shared_next = 0;
    // A pending shuffle, and its result once the warp completes it.
    int shfl_kind = 0;
    unsigned shfl_mask = 0;
    rl_val shfl_value{};
    int shfl_arg = 0;
    int shfl_width = 32;
    rl_val shfl_result{};
    unsigned warpsync_mask = 0;
    // Its rl::Shared declarations (device_abi.h's SharedSite, the GPU's table): line, slots, and an instance in scope.
    struct Site {
        int line;
        uint32_t base, slots;
        bool live;
    };
    std::vector<Site> sites;
};

rl_val make_val(uint64_t bits, uint32_t ev, uint8_t flags) {
    rl_val v{};
    v.bits = bits;
    v.ev = ev;
    v.flags = flags;
    return v;
}

template <class A> uint64_t combine_as(int op, uint64_t a, uint64_t b) {
    const A x = unpack_value<A>(a), y = unpack_value<A>(b);
    switch (op) {
        case RL_COMBINE_MAX: return pack_value(MaxOp<A>::combine(x, y));
        case RL_COMBINE_MIN: return pack_value(MinOp<A>::combine(x, y));
        case RL_COMBINE_PROD: return pack_value(mul_acc(x, y));
        default: return pack_value(add_acc(x, y));
    }
}

// --op witness: every combine (whatever the kernel wrote) merges element ranges, so an out-of-order merge shows.
uint64_t combine_bits(DType type, Op run_op, int op, uint64_t a, uint64_t b) {
    if (run_op == Op::Witness)
        return pack_value(WitnessOp::combine(unpack_value<WitnessValue>(a), unpack_value<WitnessValue>(b)));
    switch (type) {
        case DType::F64: return combine_as<double>(op, a, b);
        case DType::I32: return combine_as<int32_t>(op, a, b);
        default: return combine_as<float>(op, a, b);
    }
}

const char* shuffle_name(int kind) {
    switch (kind) {
        case RL_SHFL_UP: return "__shfl_up_sync";
        case RL_SHFL_XOR: return "__shfl_xor_sync";
        case RL_SHFL_IDX: return "__shfl_sync";
        default: return "__shfl_down_sync";
    }
}

// Thread ids (ascending) in few words: "thread 5", "threads 0-31", "threads 0, 2, 4, ..., 62", or the first runs
// and the count ("threads 0-3, 8-11, 16-19, 24-27, ... (40 in all)").
std::string thread_list(const std::vector<uint32_t>& ids) {
    if (ids.size() == 1) return "thread " + std::to_string(ids[0]);
    const uint32_t stride = ids[1] - ids[0];
    bool progression = true;
    for (size_t i = 2; i < ids.size(); ++i) progression = progression && ids[i] - ids[i - 1] == stride;
    if (progression && stride == 1) return "threads " + std::to_string(ids.front()) + "-" + std::to_string(ids.back());
    if (progression && ids.size() > 4)
        return "threads " + std::to_string(ids[0]) + ", " + std::to_string(ids[1]) + ", " + std::to_string(ids[2]) + ", ..., " +
               std::to_string(ids.back());
    std::string s;
    int runs = 0;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i + 1;
        while (j < ids.size() && ids[j] == ids[j - 1] + 1) ++j;
        if (++runs > 4) return s + ", ... (" + std::to_string(ids.size()) + " in all)";
        s += (s.empty() ? "threads " : ", ") + std::to_string(ids[i]) + (j - i > 1 ? "-" + std::to_string(ids[j - 1]) : "");
        i = j;
    }
    return s;
}

uint32_t saturate_index(long long i) { return i < 0 || i > 0xfffffffell ? 0xffffffffu : uint32_t(i); }

struct Launch {
    const rl_host_kernel& kernel;
    const LaunchInput& in;
    LaunchOutput& out;
    rl_host_api api{};
    rl_thread_view view{};
    FiberPool pool;
    std::vector<ThreadState> threads;
    std::vector<SlotState> shared;  // the block's shared memory (writer kNone: never written)
    ThreadState* cur = nullptr;
    uint32_t block = 0;
    uint32_t live = 0;
    uint32_t counter = 0;
    uint64_t identity = 0, poison = 0;
    bool stopped = false;

    // Ends the launch: thrown on the failing thread's fiber (caught in thread_entry, so its frames unwind and
    // free what they hold) or on the scheduler's stack (caught in run()).
    struct Stop {};

    Launch(const rl_host_kernel& k, const LaunchInput& li, LaunchOutput& lo) : kernel(k), in(li), out(lo) {
        identity = identity_bits(in.type, in.op);
        poison = in.type == DType::F64 || in.op == Op::Witness ? kPoisonBits : kPoisonBits & 0xffffffffu;
        out.out = in.out;
        api.abi = RL_HOST_ABI;
        api.rt = this;
        api.view = &view;
        api.identity = &cb_identity;
        api.constant = &cb_constant;
        api.undefined = &cb_undefined;
        api.combine = &cb_combine;
        api.load_in = &cb_load_in;
        api.load_out = &cb_load_out;
        api.store_out = &cb_store_out;
        api.retract = &cb_retract;
        api.atomic_out = &cb_atomic_out;
        api.ticket = &cb_ticket;
        api.fence = &cb_fence;
        api.shared_alloc = &cb_shared_alloc;
        api.shared_release = &cb_shared_release;
        api.load_shared = &cb_load_shared;
        api.store_shared = &cb_store_shared;
        api.shuffle = &cb_shuffle;
        api.syncthreads = &cb_syncthreads;
        api.syncwarp = &cb_syncwarp;
    }

    static Launch& L(void* rt) { return *static_cast<Launch*>(rt); }

    // ---- errors and scheduling points --------------------------------------------------------------------
    std::string who(int line) const {
        return "thread " + std::to_string(cur->tid) + " of block " + std::to_string(block) +
               (in.launch ? " (the lab's second launch)" : "") + " on line " + std::to_string(line);
    }
    [[noreturn]] void fail(const std::string& message) {
        if (out.error.empty()) out.error = message;
        stopped = true;
        throw Stop{};
    }
    // Stops the thread before a memory access, so the warp's lanes all reach it before any performs it.
    void access(int line) {
        cur->wait = Wait::Access;
        cur->line = line;
        pool.yield();
    }

    uint32_t record(EventKind kind, uint8_t flags, uint32_t detail, uint32_t aux, uint32_t dep0, uint32_t dep1,
                    uint64_t value, int line, ThreadState& t) {
        if (t.seq >= limits::kStudentThreadEvents) {
            ThreadState* keep = cur;
            cur = &t;
            std::string w = who(line);
            cur = keep;
            fail(w + " records its " + std::to_string(limits::kStudentThreadEvents) +
                 "th event: the step budget stops it (an endless loop?)");
        }
        if (in.record_base + out.records.size() >= limits::kTraceEvents)
            fail("the kernel records more than " + std::to_string(limits::kTraceEvents) +
                 " events (the trace limit): use a smaller n or grid");
        StudentRecord r;
        r.kind = kind;
        r.flags = flags;
        r.launch = in.launch;
        r.thread = uint16_t(t.tid);
        r.line = uint16_t(line < 0 ? 0 : line > 0xffff ? 0xffff : line);
        r.block = block;
        r.seq = t.seq++;
        r.detail = detail;
        r.aux = aux;
        r.dep[0] = dep0;
        r.dep[1] = dep1;
        r.value = value;
        out.records.push_back(r);
        return in.record_base + uint32_t(out.records.size() - 1);
    }
    uint32_t record(EventKind kind, uint8_t flags, uint32_t detail, uint32_t aux, uint32_t dep0, uint32_t dep1,
                    uint64_t value, int line) {
        return record(kind, flags, detail, aux, dep0, dep1, value, line, *cur);
    }
    StudentRecord& at(uint32_t ev) { return out.records.at(ev - in.record_base); }

    void used(int op) {
        if (out.first_op < 0) out.first_op = op;
        out.ops_used |= 1u << op;
    }

    // ---- values ------------------------------------------------------------------------------------------
    static rl_val cb_identity(void* rt, int line) {
        Launch& l = L(rt);
        return make_val(l.identity, l.record(EventKind::IdentityFill, kIdentity, 0, 0, kNone, kNone, l.identity, line),
                        kIdentity);
    }
    static rl_val cb_constant(void* rt, uint64_t bits, int line) {
        Launch& l = L(rt);
        if (l.in.op == Op::Witness) bits = l.identity;  // a constant covers no element
        const uint8_t fl = bits == l.identity ? kIdentity : 0;
        return make_val(bits, l.record(EventKind::IdentityFill, fl, 0, 0, kNone, kNone, bits, line), fl);
    }
    static rl_val cb_undefined(void* rt, int line) {
        Launch& l = L(rt);
        return make_val(l.poison, l.record(EventKind::IdentityFill, kUndefined, 0, 0, kNone, kNone, l.poison, line),
                        kUndefined);
    }
    static bool leaf(const StudentRecord& r) {
        return r.kind == EventKind::Load || r.kind == EventKind::SharedLoad || r.kind == EventKind::PartialLoad ||
               r.kind == EventKind::IdentityFill;
    }
    // Operands in left-to-right order whatever the compiler: g++ evaluates `s[i] + s[j]` right to left, clang and
    // NVRTC left to right. When the two operands are this thread's last two records, leaf values made right to
    // left, they swap places in the thread's program order (the GPU's records of the same line then match).
    // A right operand made on an earlier line than the left one is an earlier statement's value (`rl::Value<T> u;`
    // or `auto x = s[i];` above `in[t] + u`): already in program order, it stays (the H200 records it first).
    void left_to_right(const rl_val& a, const rl_val& b) {
        if (a.ev == kNone || b.ev == kNone || a.ev <= b.ev || b.ev < in.record_base) return;
        StudentRecord &ra = at(a.ev), &rb = at(b.ev);
        if (ra.block != block || rb.block != block || ra.thread != cur->tid || rb.thread != cur->tid) return;
        if (ra.seq != rb.seq + 1 || ra.seq + 1 != cur->seq || !leaf(ra) || !leaf(rb) || rb.line < ra.line) return;
        std::swap(ra.seq, rb.seq);
    }
    static rl_val cb_combine(void* rt, int op, rl_val a, rl_val b, int line) {
        Launch& l = L(rt);
        l.used(op);
        l.left_to_right(a, b);
        const uint64_t v = combine_bits(l.in.type, l.in.op, op, a.bits, b.bits);
        const uint8_t fl = combined_flags(a.flags, b.flags);
        return make_val(v, l.record(EventKind::Combine, fl, 0, 0, a.ev, b.ev, v, line), fl);
    }

    // ---- global memory -----------------------------------------------------------------------------------
    uint64_t element(uint64_t i) const {
        if (in.op == Op::Witness) return pack_value(WitnessValue{uint32_t(i), uint32_t(i)});
        const InputData& d = *in.input;
        switch (in.type) {
            case DType::F64: return pack_value(d.f64[i]);
            case DType::I32: return pack_value(d.i32[i]);
            default: return pack_value(d.f32[i]);
        }
    }
    static rl_val cb_load_in(void* rt, long long i, int line) {
        Launch& l = L(rt);
        l.access(line);
        ThreadState& t = *l.cur;
        const bool inside = i >= 0 && i < l.in.n;
        if (l.in.launch == 0) {
            if (!inside)
                return make_val(l.poison, l.record(EventKind::Load, kUndefined, t.loads++, saturate_index(i), kNone, kNone, l.poison, line),
                                kUndefined);
            const uint64_t v = l.element(uint64_t(i));
            return make_val(v, l.record(EventKind::Load, 0, t.loads++, uint32_t(i), kNone, kNone, v, line), 0);
        }
        if (!inside || size_t(i) >= l.in.partials.size())
            return make_val(l.poison, l.record(EventKind::PartialLoad, kUndefined, t.partial_loads++, saturate_index(i), kNone, kNone, l.poison, line),
                            kUndefined);
        const SlotState& p = l.in.partials[size_t(i)];
        return make_val(p.bits, l.record(EventKind::PartialLoad, p.flags, t.partial_loads++, uint32_t(i), p.writer, kNone, p.bits, line),
                        p.flags);
    }
    void check_out(long long b, int line, const char* what) {
        if (b < 0 || b >= (long long)out.out.size())
            fail("out of range: " + who(line) + " " + what + " out[" + std::to_string(b) + "], and out has " +
                 std::to_string(out.out.size()) + " slots (0.." + std::to_string(out.out.size() - 1) + ", one per block)");
    }
    static rl_val cb_load_out(void* rt, long long b, int line) {
        Launch& l = L(rt);
        l.check_out(b, line, "reads");
        l.access(line);
        const SlotState& s = l.out.out[size_t(b)];
        return make_val(s.bits, l.record(EventKind::PartialLoad, s.flags, l.cur->partial_loads++, uint32_t(b), s.writer, kNone, s.bits, line),
                        s.flags);
    }
    static uint32_t cb_retract(void* rt, uint32_t ev) {
        Launch& l = L(rt);
        if (ev == kNone || ev < l.in.record_base) return 0;
        StudentRecord& r = l.at(ev);
        r.flags = uint8_t(r.flags | RL_RETRACTED_RECORD);
        return r.detail;
    }
    static void cb_store_out(void* rt, long long b, rl_val v, uint32_t retract, int line) {
        Launch& l = L(rt);
        cb_retract(rt, retract);
        l.check_out(b, line, "writes");
        l.access(line);
        const uint32_t ev = l.record(EventKind::BlockPartial, v.flags, 0, uint32_t(b), v.ev, kNone, v.bits, line);
        l.out.out[size_t(b)] = {v.bits, v.flags, ev};
    }
    static rl_val cb_atomic_out(void* rt, int op, long long b, rl_val v, int line) {
        Launch& l = L(rt);
        if (b < 0) l.fail(l.who(line) + ": an atomic's address must be &out[b]");
        l.check_out(b, line, "applies an atomic to");
        l.access(line);
        l.used(op);
        SlotState& s = l.out.out[size_t(b)];
        const SlotState old = s;
        const uint64_t now = combine_bits(l.in.type, l.in.op, op, old.bits, v.bits);
        const uint8_t fl = uint8_t(v.flags | (old.flags & kTaintFlags));
        // The chain (dep[0]) and the position (aux) come from atomic_old in the assembly, as on the GPU.
        const uint32_t ev = l.record(EventKind::Atomic, fl, uint32_t(b), 0, kNone, v.ev, now, line);
        l.at(ev).atomic_old = old.bits;
        s = {now, fl, ev};
        return make_val(old.bits, kNone, old.flags);
    }
    static unsigned cb_ticket(void* rt, unsigned add, int line) {
        Launch& l = L(rt);
        l.access(line);
        const uint32_t old = l.counter;
        l.counter += add;
        const uint32_t ev = l.record(EventKind::Ticket, 0, 0, old, kNone, kNone, l.identity, line);
        l.at(ev).atomic_old = old;
        return old;
    }
    static void cb_fence(void* rt, int line) {
        Launch& l = L(rt);
        l.access(line);
        l.record(EventKind::Fence, 0, 0, 0, kNone, kNone, l.identity, line);
    }

    // ---- shared memory -----------------------------------------------------------------------------------
    // A declaration is one array, as __shared__ is: constructed again at its line after its last instance went out
    // of scope (a loop's next pass), it keeps its slots; a second one on the same line while the first lives gets
    // its own. The line is clamped as the GPU's 16-bit table keeps it.
    static uint32_t cb_shared_alloc(void* rt, uint32_t slots, int line) {
        Launch& l = L(rt);
        ThreadState& t = *l.cur;
        const int at = line < 0 ? 0 : line > 0xffff ? 0xffff : line;
        for (ThreadState::Site& s : t.sites)
            if (s.line == at && s.slots == slots && !s.live) {
                s.live = true;
                return s.base;
            }
        if (uint64_t(t.shared_next) + slots > limits::kStudentSharedSlots)
            l.fail(l.who(line) + " declares rl::Shared beyond " + std::to_string(limits::kStudentSharedSlots) + " slots in all");
        if (t.sites.size() == RL_SHARED_SITES)
            l.fail(l.who(line) + " declares more than " + std::to_string(RL_SHARED_SITES) +
                   " rl::Shared arrays (a declaration counts once, inside a loop too)");
        const uint32_t base = t.shared_next;
        t.shared_next += slots;
        t.sites.push_back({at, base, slots, true});
        return base;
    }
    static void cb_shared_release(void* rt, uint32_t base) {
        if (!L(rt).cur) return;  // not from a running thread's fiber: nothing to give back
        for (ThreadState::Site& s : L(rt).cur->sites)
            if (s.base == base && s.live) {
                s.live = false;
                return;
            }
    }
    static rl_val cb_load_shared(void* rt, uint32_t base, uint32_t size, long long i, int line) {
        Launch& l = L(rt);
        if (i < 0 || i >= (long long)size)
            l.fail("out of range: " + l.who(line) + " indexes a shared array of " + std::to_string(size) +
                   " slots with " + std::to_string(i) + " (allowed 0.." + std::to_string(size - 1) + ")");
        l.access(line);
        const uint32_t slot = base + uint32_t(i);
        const SlotState& s = l.shared[slot];
        if (s.writer == kNone)
            return make_val(l.poison, l.record(EventKind::SharedLoad, kUndefined, slot, 0, kNone, kNone, l.poison, line),
                            kUndefined);
        return make_val(s.bits, l.record(EventKind::SharedLoad, s.flags, slot, 0, s.writer, kNone, s.bits, line), s.flags);
    }
    static void cb_store_shared(void* rt, uint32_t slot, rl_val v, uint32_t retract, int line) {
        Launch& l = L(rt);
        cb_retract(rt, retract);
        l.access(line);
        const uint32_t ev = l.record(EventKind::SharedStore, v.flags, slot, 0, v.ev, kNone, v.bits, line);
        l.shared[slot] = {v.bits, v.flags, ev};
    }

    // ---- warp and block synchronisation ------------------------------------------------------------------
    static rl_val cb_shuffle(void* rt, int kind, unsigned mask, rl_val v, int arg, int width, int line) {
        Launch& l = L(rt);
        ThreadState& t = *l.cur;
        if (width < 1 || width > 32 || (width & (width - 1)))
            l.fail(l.who(line) + ": " + shuffle_name(kind) + "'s width is " + std::to_string(width) +
                   " (allowed: a power of two 1..32)");
        t.shfl_kind = kind;
        t.shfl_mask = mask;
        t.shfl_value = v;
        t.shfl_arg = arg;
        t.shfl_width = width;
        t.wait = Wait::Shuffle;
        t.line = line;
        l.pool.yield();
        return t.shfl_result;
    }
    static void cb_syncthreads(void* rt, int line) {
        Launch& l = L(rt);
        ThreadState& t = *l.cur;
        l.record(EventKind::Barrier, 0, uint32_t(line), 0, kNone, kNone, l.identity, line);
        l.out.records.back().group = t.barriers++;
        t.wait = Wait::Barrier;
        t.line = line;
        l.pool.yield();
    }
    static void cb_syncwarp(void* rt, unsigned mask, int line) {
        Launch& l = L(rt);
        ThreadState& t = *l.cur;
        l.record(EventKind::WarpSync, 0, 0, mask, kNone, kNone, l.identity, line);
        l.out.records.back().group = t.warpsyncs++;
        t.warpsync_mask = mask;
        t.wait = Wait::WarpSync;
        t.line = line;
        l.pool.yield();
    }

    // ---- the scheduler -----------------------------------------------------------------------------------
    static void thread_entry(void* arg) {
        ThreadState& t = *static_cast<ThreadState*>(arg);
        Launch& l = *t.launch;
        try {
            l.kernel.run_thread(l.in.n);
        } catch (const Stop&) {
            return;  // a kernel error: stopped is set, the scheduler ends the launch
        }
        t.wait = Wait::Exited;
        --l.live;
    }

    void resume(ThreadState& t) {
        t.wait = Wait::Run;
        cur = &t;
        view.thread_idx = {t.tid, 0, 0};
        pool.resume(t.tid);
        cur = nullptr;
    }

    uint32_t lanes_of(uint32_t w) const {
        const uint32_t n = std::min<uint32_t>(32, in.block - 32 * w);
        return n == 32 ? 0xffffffffu : (1u << n) - 1;
    }
    uint32_t lanes_waiting(uint32_t w, Wait what) const {
        uint32_t m = 0;
        for (uint32_t lane = 0; lane < 32 && 32 * w + lane < in.block; ++lane)
            if (threads[32 * w + lane].wait == what) m |= 1u << lane;
        return m;
    }
    // The lanes of a waiting group that can complete: the largest set whose masks name only its own members,
    // exited lanes, or lanes never launched.
    uint32_t completing(uint32_t w, uint32_t waiting, bool shuffle) const {
        const uint32_t gone = lanes_waiting(w, Wait::Exited) | ~lanes_of(w);
        uint32_t c = waiting;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t lane = 0; lane < 32; ++lane) {
                if (!(c >> lane & 1u)) continue;
                const ThreadState& t = threads[32 * w + lane];
                const uint32_t need = (shuffle ? t.shfl_mask : t.warpsync_mask) & ~gone;
                if (need & ~c) {
                    c &= ~(1u << lane);
                    changed = true;
                }
            }
        }
        return c;
    }

    bool complete_shuffle(uint32_t w) {
        const uint32_t c = completing(w, lanes_waiting(w, Wait::Shuffle), true);
        if (!c) return false;
        for (uint32_t lane = 0; lane < 32; ++lane) {
            if (!(c >> lane & 1u)) continue;
            ThreadState& t = threads[32 * w + lane];
            const int wd = t.shfl_width, seg = int(lane) & ~(wd - 1), arg = t.shfl_arg;
            int src = int(lane), recorded = int(lane);
            switch (t.shfl_kind) {
                case RL_SHFL_DOWN:
                    recorded = int(lane) + arg;
                    src = (int(lane) - seg) + arg < wd ? recorded : int(lane);
                    break;
                case RL_SHFL_UP: src = recorded = (int(lane) - seg) - arg >= 0 ? int(lane) - arg : int(lane); break;
                case RL_SHFL_XOR:
                    // PTX's bfly (the H200 agrees, 2026-12-03): a partner in an earlier segment is read, one past this
                    // segment's end is not: with width 8, lanes 8-15 ^ 8 read lanes 0-7, lanes 0-7 ^ 8 keep their own.
                    recorded = int(lane) ^ arg;
                    src = recorded < seg + wd ? recorded : int(lane);
                    break;
                default: src = recorded = seg + (arg & (wd - 1)); break;
            }
            rl_val got;
            if (src == int(lane))
                got = t.shfl_value;
            else if (src >= 0 && src < 32 && (c >> src & 1u))
                got = threads[32 * w + uint32_t(src)].shfl_value;
            else
                got = make_val(poison, kNone, kUndefined);  // that lane does not take part: undefined
            cur = &t;
            const uint32_t rec = recorded < 0 ? 0u : std::min(uint32_t(recorded), 255u);
            const uint32_t ev = record(EventKind::Shuffle, got.flags, uint32_t(arg & 0xff) | rec << 8, t.shfl_mask, got.ev,
                                       kNone, got.bits, t.line);
            cur = nullptr;
            out.records.back().group = t.shuffles++;
            t.shfl_result = make_val(got.bits, ev, got.flags);
            t.wait = Wait::Run;
        }
        return true;
    }
    bool complete_warpsync(uint32_t w) {
        const uint32_t c = completing(w, lanes_waiting(w, Wait::WarpSync), false);
        for (uint32_t lane = 0; lane < 32; ++lane)
            if (c >> lane & 1u) threads[32 * w + lane].wait = Wait::Run;
        return c != 0;
    }

    // One turn of warp w: each runnable lane makes its pending access and runs to its next point (an access it
    // stops before, a shuffle, a barrier, __syncwarp, its exit), then a shuffle or __syncwarp its lanes now wait at
    // completes. The warps of a block take turns, so a warp's accesses interleave with the others' one by one, as on
    // the plain-CUDA engine (simt/launch.cpp): a missing barrier lets another warp's store in between (or not) the
    // same way on both CPU paths. False: nothing moved.
    bool run_warp(uint32_t w) {
        bool moved = false;
        for (uint32_t lane = 0; lane < 32 && 32 * w + lane < in.block; ++lane) {
            ThreadState& t = threads[32 * w + lane];
            if (t.wait != Wait::Run && t.wait != Wait::Access) continue;
            resume(t);
            moved = true;
            if (stopped) return true;
        }
        return complete_shuffle(w) || complete_warpsync(w) || moved;
    }

    void hang() {
        std::string what;
        int groups = 0;
        for (uint32_t i = 0; i < in.block;) {
            const ThreadState& t = threads[i];
            uint32_t j = i + 1;
            while (j < in.block && threads[j].wait == t.wait && threads[j].line == t.line &&
                   (t.wait != Wait::Shuffle || threads[j].shfl_kind == t.shfl_kind))
                ++j;
            if (t.wait != Wait::Exited) {
                if (++groups > 6) {
                    what += "; ...";
                    break;
                }
                const std::string site = t.wait == Wait::Barrier    ? "__syncthreads()"
                                         : t.wait == Wait::WarpSync ? "__syncwarp()"
                                                                    : std::string(shuffle_name(t.shfl_kind)) + "()";
                what += (what.empty() ? "" : "; ") + std::string(j - i > 1 ? "threads " : "thread ") + std::to_string(i) +
                        (j - i > 1 ? "-" + std::to_string(j - 1) : "") + " wait at " + site + " on line " + std::to_string(t.line);
            }
            i = j;
        }
        if (out.error.empty())
            out.error = "the kernel hangs: in block " + std::to_string(block) + (in.launch ? " of the lab's second launch" : "") +
                        ", " + what + " (a shuffle waits for a lane that waits elsewhere, or a barrier not every thread reaches)";
        stopped = true;
    }

    // A barrier completes only when the waiting threads of each warp wait at the same __syncthreads() (its source
    // line): the hardware counts arrivals at barrier 0 per warp, whatever the instruction. The H200 never finishes
    // __syncthreads() in both arms of a per-thread branch, and finishes it when the branch splits the block by
    // whole warps (docs/student-kernels.md; both in tests/gpu/student).
    bool each_warp_at_one_barrier_line() const {
        for (uint32_t w = 0; 32 * w < in.block; ++w) {
            int line = -1;
            for (uint32_t i = 32 * w; i < in.block && i < 32 * w + 32; ++i)
                if (threads[i].wait == Wait::Barrier) {
                    if (line >= 0 && threads[i].line != line) return false;
                    line = threads[i].line;
                }
        }
        return true;
    }
    // Every live thread waits at a barrier, at two or more lines: one line naming who waits where.
    void barrier_lines_hang() {
        std::vector<int> lines;  // in the order of their first (lowest) thread
        for (const ThreadState& t : threads)
            if (t.wait == Wait::Barrier && std::find(lines.begin(), lines.end(), t.line) == lines.end()) lines.push_back(t.line);
        std::string what;
        for (size_t k = 0; k < lines.size(); ++k) {
            std::vector<uint32_t> ids;
            for (const ThreadState& t : threads)
                if (t.wait == Wait::Barrier && t.line == lines[k]) ids.push_back(t.tid);
            what += (k == 0 ? "" : k + 1 == lines.size() ? " and " : ", ") + thread_list(ids) +
                    (k == 0 ? " wait at __syncthreads() on line " : " on line ") + std::to_string(lines[k]);
        }
        if (out.error.empty())
            out.error = "the kernel hangs: in block " + std::to_string(block) + (in.launch ? " of the lab's second launch" : "") +
                        ", " + what + ": the threads of a warp must all reach the same __syncthreads()";
        stopped = true;
    }

    void run_block(uint32_t b) {
        block = b;
        view.block_idx = {b, 0, 0};
        threads.assign(in.block, ThreadState{});
        std::vector<void*> args(in.block);
        for (uint32_t i = 0; i < in.block; ++i) {
            threads[i].launch = this;
            threads[i].tid = i;
            args[i] = &threads[i];
        }
        shared.assign(limits::kStudentSharedSlots, SlotState{0, 0, kNone});
        pool.reset(in.block, &thread_entry, args.data());
        live = in.block;
        const uint32_t warps = (in.block + 31) / 32;
        while (!stopped && live > 0) {
            bool moved = false;
            for (uint32_t w = 0; w < warps && !stopped; ++w) moved |= run_warp(w);
            if (stopped || live == 0) break;
            uint32_t at_barrier = 0;
            for (const ThreadState& t : threads) at_barrier += t.wait == Wait::Barrier;
            if (at_barrier == live) {
                if (!each_warp_at_one_barrier_line()) {  // a warp waits at two __syncthreads(): nothing can move
                    barrier_lines_hang();
                    break;
                }
                for (ThreadState& t : threads)
                    if (t.wait == Wait::Barrier) t.wait = Wait::Run;
                continue;
            }
            if (!moved) hang();
        }
    }

    void run() {
        view.block_dim = {in.block, 1, 1};
        view.grid_dim = {in.grid, 1, 1};
        try {
            for (uint32_t b = 0; b < in.grid && !stopped; ++b) run_block(b);
        } catch (const Stop&) {
        }
    }
};

class CpuBackend final : public KernelBackend {
public:
    explicit CpuBackend(const std::string& path) {
        handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) throw Error(std::string("cannot load the compiled kernel: ") + dlerror());
        entry_ = reinterpret_cast<rl_host_entry_fn>(dlsym(handle_, RL_HOST_ENTRY_SYMBOL));
        if (!entry_) throw Error("the compiled kernel has no RL_ENTRY (" RL_HOST_ENTRY_SYMBOL " is missing)");
        rl_host_api probe{};
        probe.abi = RL_HOST_ABI;
        if (entry_(&probe, &kernel_) != 0 || kernel_.abi != RL_HOST_ABI)
            throw Error("the compiled kernel was built against another rlab/kernel.h (ABI " + std::to_string(kernel_.abi) + ")");
    }
    ~CpuBackend() override {
        if (handle_) dlclose(handle_);
    }
    DType element() const override {
        return kernel_.element == 1 ? DType::F64 : kernel_.element == 2 ? DType::I32 : DType::F32;
    }
    bool has_counter() const override { return kernel_.has_counter != 0; }
    std::string device() const override { return "CPU SIMT emulator (student kernel)"; }
    LaunchOutput launch(const LaunchInput& in) override {
        LaunchOutput out;
        Launch l(kernel_, in, out);
        rl_host_kernel bound{};
        entry_(&l.api, &bound);  // binds this launch's table
        l.run();
        return out;
    }

private:
    void* handle_ = nullptr;
    rl_host_entry_fn entry_ = nullptr;
    rl_host_kernel kernel_{};
};

}  // namespace

std::unique_ptr<KernelBackend> make_cpu_backend(const std::string& plugin_path) {
    return std::make_unique<CpuBackend>(plugin_path);
}

}  // namespace rl::student
