// include/rlab/detail/device.h — the GPU branch of rlab/kernel.h (NVRTC): the same surface as detail/host.h,
// each call recorded as one rl::StudentRecord with the fields, flags, seq and group numbering the emulator's
// runtime (student/host_runtime.cpp) records, so a deterministic kernel gives the same records on both.
// A value travels with its record index and flags (a shuffle moves all three with the caller's mask); a Shared
// or Out slot keeps value + writer + flags (dynamic shared memory / global memory). Indices are checked here, so
// nothing reads outside a buffer; a kernel error is written for the host and every thread stops.
// No Exit records (student/kernel_backend.h): like the CPU runtime, this sees calls, not the kernel's branches, so
// it cannot tell a thread that skipped a __syncthreads() alive from one that returned; the assembly reads a thread
// without one as exited after its last record. (Untested on a GPU since Exit was added: the records are unchanged.)
// Included by rlab/kernel.h only; students include <rlab/kernel.h>.
#pragma once
#include "rlab/detail/device_abi.h"

extern "C" {
__constant__ rl::device_abi::Launch rl_launch;  // the host fills it before each launch
}
extern __shared__ unsigned long long rl_shared[];  // kSharedSlots values, then kSharedSlots tags

namespace rl {
namespace detail {
namespace abi = ::rl::device_abi;

// ---- the runtime: what detail/host_abi.h's table does on the CPU, here per thread on the GPU ----------------
struct Val {  // rl_val: packed bits, the record that produced them, their flags
    unsigned long long bits;
    unsigned ev;
    unsigned char flags;
};
__device__ inline Val make_val(unsigned long long bits, unsigned ev, unsigned char flags) {
    Val v;
    v.bits = bits;
    v.ev = ev;
    v.flags = flags;
    return v;
}

template <class T> __device__ inline unsigned long long pack(T v) {
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    return bits;
}
template <class T> __device__ inline T unpack(unsigned long long bits) {
    T v;
    memcpy(&v, &bits, sizeof(T));
    return v;
}

// core/event_flags.h's rule for the flags of a combined value.
constexpr unsigned char kTaintFlags = 1 | 4 | 8;  // kUndefined | kStale | kOrderViolated
__device__ inline unsigned char combined_flags(unsigned char a, unsigned char b) {
    unsigned char fl = (a | b) & kTaintFlags;
    if ((a & abi::kIdentityFlag) && (b & abi::kIdentityFlag)) fl |= abi::kIdentityFlag;
    if ((a | b) & abi::kIdentityFlag) fl |= 32;  // kIdentityCombine
    return fl;
}

__device__ inline abi::ThreadState& me() {
    return rl_launch.states[static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x];
}
__device__ inline unsigned* shared_tags() { return reinterpret_cast<unsigned*>(rl_shared + abi::kSharedSlots); }

// The first error wins; this thread stops here, every other thread at its next recorded call.
__device__ inline void fail(unsigned code, int line, long long index = 0, unsigned long long bound = 0, unsigned what = 0) {
    abi::KernelError* e = rl_launch.error;
    if (atomicCAS(&e->code, abi::kNoError, 0xffffffffu) == abi::kNoError) {  // claim, fill, then publish
        e->thread = threadIdx.x;
        e->block = blockIdx.x;
        e->line = unsigned(line);
        e->what = what;
        e->index = index;
        e->bound = bound;
        __threadfence();
        atomicExch(&e->code, code);
    }
    asm volatile("exit;");
}

// One event in this thread's program order; returns its index in the run's record array.
__device__ inline unsigned record(unsigned char kind, unsigned char flags, unsigned detail, unsigned aux, unsigned dep0,
                                  unsigned dep1, unsigned long long value, int line, unsigned group = 0) {
    if (*static_cast<volatile unsigned*>(&rl_launch.error->code) != abi::kNoError) asm volatile("exit;");
    abi::ThreadState& s = me();
    if (s.seq >= abi::kThreadEvents) fail(abi::kStepBudget, line, s.seq, abi::kThreadEvents);
    const unsigned k = atomicAdd(rl_launch.cursor, 1u);
    if (rl_launch.record_base + static_cast<unsigned long long>(k) >= abi::kTraceEvents - 1)
        fail(abi::kRecordsFull, line, k, abi::kTraceEvents);
    abi::Record r;
    r.kind = kind;
    r.flags = flags;
    r.launch = static_cast<unsigned char>(rl_launch.launch);
    r.pad0 = 0;
    r.thread = static_cast<unsigned short>(threadIdx.x);
    r.line = static_cast<unsigned short>(line < 0 ? 0 : line > 0xffff ? 0xffff : line);
    r.block = blockIdx.x;
    r.seq = s.seq++;
    r.group = group;
    r.detail = detail;
    r.aux = aux;
    r.dep[0] = dep0;
    r.dep[1] = dep1;
    r.value = value;
    r.atomic_old = 0;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    r.globaltimer_ns = t;
    r.clock = static_cast<unsigned long long>(clock64());
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    r.sm = sm;
    r.pad1 = 0;
    rl_launch.records[k] = r;
    return rl_launch.record_base + k;
}
__device__ inline abi::Record& at(unsigned ev) { return rl_launch.records[ev - rl_launch.record_base]; }

// The operator a kernel combines with: every one used, and the first (least block, seq, thread) for the runner.
__device__ inline void used(int op) {
    atomicOr(rl_launch.ops_used, 1u << op);
    const unsigned long long key = (static_cast<unsigned long long>(blockIdx.x) << 36) |
                                   (static_cast<unsigned long long>(me().seq & 0xffff) << 20) |
                                   (static_cast<unsigned long long>(threadIdx.x) << 4) | static_cast<unsigned>(op);
    atomicMin(rl_launch.first_op, key);
}

// core/ops.h's operators on the bits of the kernel's element type (integers wrap as on the GPU).
template <class A> __device__ A apply(int op, A a, A b) {
    constexpr bool integer = static_cast<A>(0.5) == 0;
    switch (op) {
        case abi::kMax: return b > a ? b : a;
        case abi::kMin: return b < a ? b : a;
        case abi::kProd:
            if constexpr (integer) return static_cast<A>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
            else return a * b;
        default:
            if constexpr (integer) return static_cast<A>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
            else return a + b;
    }
}

// --op witness (core/ops.h's WitnessOp): a value is the range of elements it covers, {lo, hi} packed lo first;
// merging two ranges that do not follow each other marks the result violated.
constexpr unsigned kWitnessEmpty = 0xffffffffu, kWitnessViolated = 0xfffffffeu;
__device__ inline bool witness_run() { return rl_launch.op == abi::kWitness; }
__device__ inline unsigned long long witness_combine(unsigned long long a, unsigned long long b) {
    const unsigned alo = unsigned(a), ahi = unsigned(a >> 32), blo = unsigned(b), bhi = unsigned(b >> 32);
    if (alo == kWitnessEmpty) return b;
    if (blo == kWitnessEmpty) return a;
    if (alo == kWitnessViolated || blo == kWitnessViolated || blo != ahi + 1)
        return (static_cast<unsigned long long>(kWitnessViolated) << 32) | kWitnessViolated;
    return (static_cast<unsigned long long>(bhi) << 32) | alo;
}
// What op(a, b) leaves on the packed bits of the run's values.
template <class T> __device__ unsigned long long combine_bits(int op, unsigned long long a, unsigned long long b) {
    return witness_run() ? witness_combine(a, b) : pack(apply<T>(op, unpack<T>(a), unpack<T>(b)));
}

__device__ inline unsigned saturate_index(long long i) { return i < 0 || i > 0xfffffffell ? 0xffffffffu : unsigned(i); }

__device__ inline Val identity_val(int line) {
    const unsigned long long id = rl_launch.identity;
    return make_val(id, record(abi::kIdentityFill, abi::kIdentityFlag, 0, 0, abi::kNone, abi::kNone, id, line),
                    abi::kIdentityFlag);
}
__device__ inline Val constant_val(unsigned long long bits, int line) {
    if (witness_run()) bits = rl_launch.identity;  // a constant covers no element: the empty range
    const unsigned char fl = bits == rl_launch.identity ? abi::kIdentityFlag : 0;
    return make_val(bits, record(abi::kIdentityFill, fl, 0, 0, abi::kNone, abi::kNone, bits, line), fl);
}
__device__ inline Val undefined_val(int line) {
    const unsigned long long p = rl_launch.poison;
    return make_val(p, record(abi::kIdentityFill, abi::kUndefinedFlag, 0, 0, abi::kNone, abi::kNone, p, line),
                    abi::kUndefinedFlag);
}
template <class T> __device__ Val combine_val(int op, Val a, Val b, int line) {
    used(op);
    const unsigned long long v = combine_bits<T>(op, a.bits, b.bits);
    const unsigned char fl = combined_flags(a.flags, b.flags);
    return make_val(v, record(abi::kCombine, fl, 0, 0, a.ev, b.ev, v, line), fl);
}

// ---- global memory ------------------------------------------------------------------------------------------
template <class T> __device__ Val load_in(long long i, int line) {
    abi::ThreadState& t = me();
    const unsigned long long p = rl_launch.poison;
    const bool inside = i >= 0 && i < rl_launch.n;
    if (rl_launch.launch == 0) {
        if (!inside)
            return make_val(p, record(abi::kLoad, abi::kUndefinedFlag, t.loads++, saturate_index(i), abi::kNone, abi::kNone, p, line),
                            abi::kUndefinedFlag);
        const unsigned long long v = witness_run() ? (static_cast<unsigned long long>(i) << 32) | static_cast<unsigned long long>(i)
                                                   : pack(static_cast<const T*>(rl_launch.in)[i]);
        return make_val(v, record(abi::kLoad, 0, t.loads++, unsigned(i), abi::kNone, abi::kNone, v, line), 0);
    }
    if (!inside)
        return make_val(p, record(abi::kPartialLoad, abi::kUndefinedFlag, t.partial_loads++, saturate_index(i), abi::kNone, abi::kNone, p, line),
                        abi::kUndefinedFlag);
    const unsigned long long bits = rl_launch.partial_bits[i];
    const unsigned tag = rl_launch.partial_tags[i];
    return make_val(bits, record(abi::kPartialLoad, abi::tag_flags(tag), t.partial_loads++, unsigned(i), abi::tag_writer(tag), abi::kNone, bits, line),
                    abi::tag_flags(tag));
}
__device__ inline void check_out(long long b, int line, unsigned what) {
    if (b < 0 || b >= static_cast<long long>(rl_launch.out_slots)) fail(abi::kOutIndex, line, b, rl_launch.out_slots, what);
}
// A slot's value and tag as one thread sees them (volatile: a racing kernel sees what memory holds).
__device__ inline unsigned long long read_bits(const unsigned long long* p) { return *static_cast<const volatile unsigned long long*>(p); }
__device__ inline unsigned read_tag(const unsigned* p) { return *static_cast<const volatile unsigned*>(p); }
__device__ inline Val load_out(long long b, int line) {
    check_out(b, line, 0);
    const unsigned long long bits = read_bits(rl_launch.out_bits + b);
    const unsigned tag = read_tag(rl_launch.out_tags + b);
    return make_val(bits, record(abi::kPartialLoad, abi::tag_flags(tag), me().partial_loads++, unsigned(b), abi::tag_writer(tag), abi::kNone, bits, line),
                    abi::tag_flags(tag));
}
// The load made by the left side of an assignment is marked; the runner drops it (launch_plan.h).
__device__ inline unsigned retract(unsigned ev) {
    if (ev == abi::kNone || ev < rl_launch.record_base) return 0;
    abi::Record& r = at(ev);
    r.flags = static_cast<unsigned char>(r.flags | abi::kRetracted);
    return r.detail;
}
__device__ inline void store_out(long long b, Val v, unsigned retracted, int line) {
    retract(retracted);
    check_out(b, line, 1);
    const unsigned ev = record(abi::kBlockPartial, v.flags, 0, unsigned(b), v.ev, abi::kNone, v.bits, line);
    *static_cast<volatile unsigned long long*>(rl_launch.out_bits + b) = v.bits;
    *static_cast<volatile unsigned*>(rl_launch.out_tags + b) = abi::make_tag(ev, v.flags);
}
// The hardware's atomic; its chain (dep[0], position) is left to the assembly, which orders each slot's
// atomics from the values they replaced.
template <class T> __device__ Val atomic_out(int op, long long b, Val v, int line) {
    if (b < 0) fail(abi::kAtomicAddress, line);
    check_out(b, line, 2);
    used(op);
    T* addr = reinterpret_cast<T*>(rl_launch.out_bits + b);
    const T x = unpack<T>(v.bits);
    T old{};
    unsigned long long old_bits = 0, now = 0;
    constexpr bool integer = static_cast<T>(0.5) == 0;
    if (witness_run()) {  // the range merge, on the slot's 8 bytes
        unsigned long long* word = rl_launch.out_bits + b;
        unsigned long long seen = read_bits(word), was;
        do {
            was = seen;
            seen = ::atomicCAS(word, was, witness_combine(was, v.bits));
        } while (seen != was);
        old_bits = was;
        now = witness_combine(was, v.bits);
    } else if (op == abi::kSum) {
        old = ::atomicAdd(addr, x);
    } else if constexpr (integer) {
        old = op == abi::kMax ? ::atomicMax(addr, x) : op == abi::kMin ? ::atomicMin(addr, x) : T(0);
        if (op == abi::kProd) {  // no hardware product: compare-and-swap
            int seen = *static_cast<volatile int*>(addr), was;
            do {
                was = seen;
                seen = ::atomicCAS(addr, was, apply<int>(op, was, x));
            } while (seen != was);
            old = was;
        }
    } else if constexpr (sizeof(T) == 8) {
        unsigned long long* word = rl_launch.out_bits + b;
        unsigned long long seen = read_bits(word), was;
        do {
            was = seen;
            seen = ::atomicCAS(word, was, pack(apply<T>(op, unpack<T>(was), x)));
        } while (seen != was);
        old = unpack<T>(was);
    } else {
        unsigned* word = reinterpret_cast<unsigned*>(addr);
        unsigned seen = *static_cast<volatile unsigned*>(word), was;
        do {
            was = seen;
            seen = ::atomicCAS(word, was, static_cast<unsigned>(pack(apply<T>(op, unpack<T>(was), x))));
        } while (seen != was);
        old = unpack<T>(was);
    }
    if (!witness_run()) {
        old_bits = pack(old);
        now = pack(apply<T>(op, old, x));
    }
    const unsigned old_tag = read_tag(rl_launch.out_tags + b);
    const unsigned char fl = static_cast<unsigned char>(v.flags | (abi::tag_flags(old_tag) & kTaintFlags));
    const unsigned ev = record(abi::kAtomic, fl, unsigned(b), 0, abi::kNone, v.ev, now, line);
    at(ev).atomic_old = old_bits;
    ::atomicExch(rl_launch.out_tags + b, abi::make_tag(ev, fl));
    return make_val(old_bits, abi::kNone, abi::tag_flags(old_tag));
}
__device__ inline unsigned ticket(unsigned add, int line) {
    const unsigned old = ::atomicAdd(rl_launch.counter, add);
    const unsigned ev = record(abi::kTicket, 0, 0, old, abi::kNone, abi::kNone, rl_launch.identity, line);
    at(ev).atomic_old = old;
    return old;
}
__device__ inline void fence(int line) {
    record(abi::kFence, 0, 0, 0, abi::kNone, abi::kNone, rl_launch.identity, line);
    __threadfence();
}

// ---- shared memory ------------------------------------------------------------------------------------------
// A declaration is one array (a __shared__ one is static): constructed again at its line once its last instance
// went out of scope (the next pass of a loop), it gets the same slots; a second declaration on one line, while the
// first is in scope, gets its own. student/host_runtime.cpp does the same.
__device__ inline unsigned shared_alloc(unsigned slots, int line) {
    abi::ThreadState& t = me();
    const unsigned short at = static_cast<unsigned short>(line < 0 ? 0 : line > 0xffff ? 0xffff : line);
    for (unsigned k = 0; k < t.sites; ++k) {
        abi::SharedSite& s = t.site[k];
        if (s.line == at && s.slots == slots && !s.live) {
            s.live = 1;
            return s.base;
        }
    }
    if (static_cast<unsigned long long>(t.shared_next) + slots > abi::kSharedSlots)
        fail(abi::kSharedTooMany, line, static_cast<long long>(t.shared_next) + slots, abi::kSharedSlots);
    if (t.sites == abi::kSharedSites) fail(abi::kSharedDeclarations, line, t.sites + 1, abi::kSharedSites);
    const unsigned base = t.shared_next;
    t.shared_next += slots;
    abi::SharedSite& s = t.site[t.sites++];
    s.line = at;
    s.base = static_cast<unsigned short>(base);
    s.slots = static_cast<unsigned short>(slots);
    s.live = 1;
    return base;
}
__device__ inline void shared_release(unsigned base) {
    abi::ThreadState& t = me();
    for (unsigned k = 0; k < t.sites; ++k)
        if (t.site[k].base == base && t.site[k].live) {
            t.site[k].live = 0;
            return;
        }
}
__device__ inline Val load_shared(unsigned base, unsigned size, long long i, int line) {
    if (i < 0 || i >= static_cast<long long>(size)) fail(abi::kSharedIndex, line, i, size);
    const unsigned slot = base + unsigned(i);
    const unsigned tag = read_tag(shared_tags() + slot);
    const unsigned long long p = rl_launch.poison;
    if (abi::tag_writer(tag) == abi::kNone)
        return make_val(p, record(abi::kSharedLoad, abi::kUndefinedFlag, slot, 0, abi::kNone, abi::kNone, p, line),
                        abi::kUndefinedFlag);
    const unsigned long long bits = read_bits(rl_shared + slot);
    return make_val(bits, record(abi::kSharedLoad, abi::tag_flags(tag), slot, 0, abi::tag_writer(tag), abi::kNone, bits, line),
                    abi::tag_flags(tag));
}
__device__ inline void store_shared(unsigned slot, Val v, unsigned retracted, int line) {
    retract(retracted);
    const unsigned ev = record(abi::kSharedStore, v.flags, slot, 0, v.ev, abi::kNone, v.bits, line);
    *static_cast<volatile unsigned long long*>(rl_shared + slot) = v.bits;
    *static_cast<volatile unsigned*>(shared_tags() + slot) = abi::make_tag(ev, v.flags);
}

// ---- warp and block synchronisation -------------------------------------------------------------------------
enum ShuffleKind { kDown = 0, kUp = 1, kXor = 2, kIdx = 3 };  // rl_shuffle_kind's values
// The source lane as the emulator finds it; a source the width does not allow returns the caller's own value.
// A source counts only if it executes this shuffle (the ballot with the caller's mask says which lanes do).
__device__ inline Val shuffle(int kind, unsigned mask, Val v, int arg, int width, int line) {
    if (width < 1 || width > 32 || (width & (width - 1))) fail(abi::kShuffleWidth, line, width, 32, unsigned(kind));
    const int lane = int(threadIdx.x % 32u), seg = lane & ~(width - 1);
    int src = lane, recorded = lane;
    switch (kind) {
        case kDown:
            recorded = lane + arg;
            src = (lane - seg) + arg < width ? recorded : lane;
            break;
        case kUp: src = recorded = (lane - seg) - arg >= 0 ? lane - arg : lane; break;
        case kXor:  // PTX's bfly: a partner in an earlier segment is read, one past this segment's end is not
            recorded = lane ^ arg;
            src = recorded < seg + width ? recorded : lane;
            break;
        default: src = recorded = seg + (arg & (width - 1)); break;
    }
    const unsigned executing = __ballot_sync(mask, 1);
    const bool other = src >= 0 && src < 32;
    const int from = other ? src : lane;
    const unsigned long long bits = __shfl_sync(mask, v.bits, from);
    const unsigned ev = __shfl_sync(mask, v.ev, from);
    const unsigned char flags = static_cast<unsigned char>(__shfl_sync(mask, static_cast<unsigned>(v.flags), from));
    Val got;
    if (src == lane) got = v;
    else if (other && ((executing >> src) & 1u)) got = make_val(bits, ev, flags);
    else got = make_val(rl_launch.poison, abi::kNone, abi::kUndefinedFlag);  // that lane does not take part
    const unsigned rec = recorded < 0 ? 0u : (recorded > 255 ? 255u : unsigned(recorded));
    abi::ThreadState& t = me();
    const unsigned e = record(abi::kShuffle, got.flags, unsigned(arg & 0xff) | rec << 8, mask, got.ev, abi::kNone,
                              got.bits, line, t.shuffles);
    ++t.shuffles;
    return make_val(got.bits, e, got.flags);
}
__device__ inline void sync_threads(int line) {
    abi::ThreadState& t = me();
    record(abi::kBarrier, 0, unsigned(line), 0, abi::kNone, abi::kNone, rl_launch.identity, line, t.barriers);
    ++t.barriers;
    __syncthreads();
}
__device__ inline void sync_warp(unsigned mask, int line) {
    abi::ThreadState& t = me();
    record(abi::kWarpSync, 0, 0, mask, abi::kNone, abi::kNone, rl_launch.identity, line, t.warpsyncs);
    ++t.warpsyncs;
    __syncwarp(mask);
}

// A subscript's index with the line of the subscript (operator[] can take no defaulted argument).
struct Index {
    long long i;
    int line;
    __device__ Index(long long v, int l = __builtin_LINE()) : i(v), line(l) {}
};

struct Uninitialised {};

enum Origin : unsigned char { kNowhere = 0, kFromShared = 1, kFromOut = 2 };

}  // namespace detail

// ---- the lab's types: detail/host.h's, over the device runtime above ----------------------------------------
template <class T> class In;
template <class T> class Out;
template <class T, unsigned N> class Shared;
template <class T> struct OutSlot;

template <class T> class Value {
public:
    // An operand of a combine: a Value or a T constant, with the line of the expression that combines it.
    struct Operand {
        detail::Val r;
        int line;
        __device__ Operand(const Value& v, int l = __builtin_LINE()) : r(v.r_), line(l) {}
        __device__ Operand(T c, int l = __builtin_LINE()) : r(detail::constant_val(detail::pack(c), l)), line(l) {}
    };

    // The uninitialised register (`rl::Value<T> v;`): an IdentityFill flagged kUndefined. The tag keeps this
    // constructor from converting an int: `rl::Value<float> v = 0;` is the constant 0.
    __device__ Value(detail::Uninitialised = {}, int line = __builtin_LINE()) : r_(detail::undefined_val(line)) {}
    __device__ Value(T c, int line = __builtin_LINE()) : r_(detail::constant_val(detail::pack(c), line)) {}
    __device__ Value(const Value& o) : r_(o.r_) {}
    __device__ Value& operator=(const Value& o) & {
        r_ = o.r_;
        return *this;
    }
    // The left side of s[i] = v or out[b] = v: the load that made this temporary is retracted, v is stored.
    __device__ void operator=(const Value& v) && { store(v.r_); }
    __device__ void operator=(T c) && { store(Operand(c, line_).r); }
    __device__ Value& operator+=(Operand b) & { return *this = combine(0, Operand(*this, b.line), b); }
    __device__ Value& operator*=(Operand b) & { return *this = combine(3, Operand(*this, b.line), b); }
    // s[i] += v: a real read, a combine and a store.
    __device__ void operator+=(Operand b) && { update(0, b); }
    __device__ void operator*=(Operand b) && { update(3, b); }
    // &out[b] for atomicAdd/Max/Min: the load is retracted.
    __device__ OutSlot<T> operator&() && {
        if (origin_ != detail::kFromOut) return OutSlot<T>{-1, line_};
        detail::retract(r_.ev);
        return OutSlot<T>{(long long)slot_, line_};
    }

    __device__ explicit operator T() const { return detail::unpack<T>(r_.bits); }

    friend __device__ Value operator+(Operand a, Operand b) { return combine(0, a, b); }
    friend __device__ Value operator*(Operand a, Operand b) { return combine(3, a, b); }
    friend __device__ Value max(Operand a, Operand b) { return combine(1, a, b); }
    friend __device__ Value min(Operand a, Operand b) { return combine(2, a, b); }
    friend __device__ Value fmaxf(Operand a, Operand b) { return combine(1, a, b); }
    friend __device__ Value fminf(Operand a, Operand b) { return combine(2, a, b); }
    friend __device__ Value fmax(Operand a, Operand b) { return combine(1, a, b); }
    friend __device__ Value fmin(Operand a, Operand b) { return combine(2, a, b); }

    // For the runtime's glue (not for students).
    __device__ static Value from_raw(detail::Val r) { return Value(r, detail::kNowhere, 0, 0); }
    __device__ detail::Val raw() const { return r_; }

private:
    friend class In<T>;
    friend class Out<T>;
    template <class U, unsigned M> friend class Shared;
    __device__ Value(detail::Val r, detail::Origin origin, unsigned slot, int line)
        : r_(r), origin_(origin), slot_(slot), line_(line) {}

    __device__ static Value combine(int op, const Operand& a, const Operand& b) {
        const int line = a.line > b.line ? a.line : b.line;
        return from_raw(detail::combine_val<T>(op, a.r, b.r, line));
    }
    __device__ void store(detail::Val v) {
        if (origin_ == detail::kFromShared) detail::store_shared(slot_, v, r_.ev, line_);
        else if (origin_ == detail::kFromOut) detail::store_out((long long)slot_, v, r_.ev, line_);
        else r_ = v;  // a temporary of no array: a plain (useless) assignment
    }
    __device__ void update(int op, const Operand& b) {
        Value sum = combine(op, Operand(*this, b.line), b);
        if (origin_ == detail::kFromShared) detail::store_shared(slot_, sum.r_, 0xffffffffu, b.line);
        else if (origin_ == detail::kFromOut) detail::store_out((long long)slot_, sum.r_, 0xffffffffu, b.line);
    }

    detail::Val r_;
    detail::Origin origin_ = detail::kNowhere;
    unsigned slot_ = 0;
    int line_ = 0;
};

template <class T> __device__ inline Value<T> identity(int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::identity_val(line));
}
template <class T> __device__ inline Value<T> max(const Value<T>& a, const Value<T>& b, int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::combine_val<T>(1, a.raw(), b.raw(), line));
}
template <class T> __device__ inline Value<T> min(const Value<T>& a, const Value<T>& b, int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::combine_val<T>(2, a.raw(), b.raw(), line));
}

template <class T> class In {
public:
    __device__ const Value<T> operator[](detail::Index i) const {
        return Value<T>(detail::load_in<T>(i.i, i.line), detail::kNowhere, 0, i.line);
    }
};

template <class T> struct OutSlot {
    long long slot;  // -1: the address of something that is no out slot
    int line;
};

template <class T> class Out {
public:
    __device__ Value<T> operator[](detail::Index b) const {
        detail::Val r = detail::load_out(b.i, b.line);
        return Value<T>(r, detail::kFromOut, unsigned(b.i), b.line);
    }
};

class Counter {};

template <class T, unsigned N> class Shared {
    static_assert(N > 0, "rl::Shared needs at least one slot");

public:
    __device__ explicit Shared(int line = __builtin_LINE()) : base_(detail::shared_alloc(N, line)) {}
    __device__ ~Shared() { detail::shared_release(base_); }  // the next pass of a loop gets it back
    Shared(const Shared&) = delete;
    Shared& operator=(const Shared&) = delete;
    __device__ Value<T> operator[](detail::Index i) const {
        detail::Val r = detail::load_shared(base_, N, i.i, i.line);
        return Value<T>(r, detail::kFromShared, base_ + unsigned(i.i), i.line);
    }

private:
    unsigned base_;
};

namespace detail {
template <class T> __device__ inline T atomic(int op, OutSlot<T> p, const typename Value<T>::Operand& v, int line) {
    return unpack<T>(atomic_out<T>(op, p.slot, v.r, line < p.line ? p.line : line).bits);
}
}  // namespace detail

template <class T> __device__ inline T atomicAdd(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(0, p, v, line);
}
template <class T> __device__ inline T atomicMax(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(1, p, v, line);
}
template <class T> __device__ inline T atomicMin(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(2, p, v, line);
}
__device__ inline unsigned atomicAdd(Counter, unsigned add, int line = __builtin_LINE()) { return detail::ticket(add, line); }

}  // namespace rl

// ---- CUDA's names (threadIdx, blockIdx, blockDim, gridDim and warpSize are the hardware's own) ---------------
using rl::atomicAdd;
using rl::atomicMax;
using rl::atomicMin;
using rl::max;  // ::max as CUDA has it (the same entity as rl::max: no ambiguity with ADL)
using rl::min;

template <class T>
__device__ inline rl::Value<T> __shfl_down_sync(unsigned mask, const rl::Value<T>& v, unsigned delta, int width = 32,
                                                int line = __builtin_LINE()) {
    return rl::Value<T>::from_raw(rl::detail::shuffle(rl::detail::kDown, mask, v.raw(), int(delta), width, line));
}
template <class T>
__device__ inline rl::Value<T> __shfl_up_sync(unsigned mask, const rl::Value<T>& v, unsigned delta, int width = 32,
                                              int line = __builtin_LINE()) {
    return rl::Value<T>::from_raw(rl::detail::shuffle(rl::detail::kUp, mask, v.raw(), int(delta), width, line));
}
template <class T>
__device__ inline rl::Value<T> __shfl_xor_sync(unsigned mask, const rl::Value<T>& v, int lane_mask, int width = 32,
                                               int line = __builtin_LINE()) {
    return rl::Value<T>::from_raw(rl::detail::shuffle(rl::detail::kXor, mask, v.raw(), lane_mask, width, line));
}
template <class T>
__device__ inline rl::Value<T> __shfl_sync(unsigned mask, const rl::Value<T>& v, int src_lane, int width = 32,
                                           int line = __builtin_LINE()) {
    return rl::Value<T>::from_raw(rl::detail::shuffle(rl::detail::kIdx, mask, v.raw(), src_lane, width, line));
}

namespace rl::detail {
__device__ inline void sync_warp_at(int line, unsigned mask = 0xffffffffu) { sync_warp(mask, line); }

template <class T> __device__ inline void call_kernel(void (*f)(In<T>, Out<T>, int), int n) { f(In<T>{}, Out<T>{}, n); }
template <class T> __device__ inline void call_kernel(void (*f)(In<T>, Out<T>, int, Counter), int n) {
    f(In<T>{}, Out<T>{}, n, Counter{});
}
template <class F> __device__ inline void call_kernel(F, int) {}  // RL_CHECK_ENTRY names the allowed signatures

// The launch: every thread's counters from zero and the block's shared slots unwritten, then the kernel.
__device__ inline void begin() {
    me() = abi::ThreadState{};
    for (unsigned k = threadIdx.x; k < abi::kSharedSlots; k += blockDim.x) shared_tags()[k] = abi::make_tag(abi::kNone, 0);
    ::__syncthreads();
}
template <class F, bool ok> struct SignatureCode { static constexpr unsigned value = 0xffffffffu; };
}  // namespace rl::detail

// CUDA declares these as builtins without a line parameter: the recorded versions replace them by name (after
// every definition above, which calls the real ones).
#define __syncthreads() ::rl::detail::sync_threads(__LINE__)
#define __syncwarp(...) ::rl::detail::sync_warp_at(__LINE__ __VA_OPT__(, ) __VA_ARGS__)
#define __threadfence() ::rl::detail::fence(__LINE__)

// The entry the launcher (cuda/student_kernel.cpp) looks up, and the kernel's element type and Counter.
#define RL_BACKEND_ENTRY(NAME)                                                                                   \
    namespace rl::detail {                                                                                       \
    template <class F> struct SignatureCode<F, true> {                                                           \
        static constexpr unsigned value = unsigned(ElementCode<typename EntrySignature<F>::type>::value) |        \
                                          (EntrySignature<F>::counter ? abi::kTakesCounter : 0u);                 \
    };                                                                                                           \
    }                                                                                                            \
    extern "C" __device__ const unsigned rl_kernel_signature =                                                   \
        ::rl::detail::SignatureCode<decltype(&NAME), ::rl::detail::EntrySignature<decltype(&NAME)>::ok>::value;  \
    extern "C" __global__ void rl_student_entry() {                                                              \
        ::rl::detail::begin();                                                                                   \
        ::rl::detail::call_kernel(&NAME, rl_launch.n);                                                           \
    }
