// include/rlab/detail/device.h — the GPU branch of rlab/kernel.h (NVRTC): the lab types and CUDA's names
// record every call of a student's kernel as one rl::StudentRecord, with the seq/group numbering, fields and
// values the emulator (detail/host.h) records, so a deterministic kernel gives the same records on both.
// Values travel with their record index (shuffles move both with the same mask); Shared keeps value + writer
// in dynamic shared memory, Out in global memory. Bounds are checked here: nothing reads outside a buffer,
// and a kernel error (index out of range, records full) is written for the host and every thread stops.
#pragma once
#include "device_abi.h"

extern "C" {
__constant__ rl::device_abi::Launch rl_launch;  // the host fills it before each launch
}
extern __shared__ unsigned long long rl_shared[];      // kSharedSlots values, then kSharedSlots writers

namespace rl {

template <class T> struct Value;
template <class T> struct At;
template <class T> struct SharedRef;
template <class T> struct OutRef;

namespace detail {
namespace abi = ::rl::device_abi;

template <class T> struct Element;  // the element types a kernel may use
template <> struct Element<float> { static constexpr unsigned code = abi::kF32; };
template <> struct Element<double> { static constexpr unsigned code = abi::kF64; };
template <> struct Element<int> { static constexpr unsigned code = abi::kI32; };

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <class T> struct type_is { using type = T; };
template <class T> using no_deduce = typename type_is<T>::type;

// The element type of a lab value (Value, a Shared or Out slot), none for anything else.
template <class A> struct lab_type {};
template <class T> struct lab_type<Value<T>> { using type = T; };
template <class T> struct lab_type<SharedRef<T>> { using type = T; };
template <class T> struct lab_type<OutRef<T>> { using type = T; };
template <class A> struct lab_type<const A> : lab_type<A> {};
template <class A, class B> struct common_lab { using type = typename lab_type<A>::type; };
template <class B> struct common_lab<float, B> { using type = typename lab_type<B>::type; };
template <class B> struct common_lab<double, B> { using type = typename lab_type<B>::type; };
template <class B> struct common_lab<int, B> { using type = typename lab_type<B>::type; };

struct Raw {};  // tag: a value computed here, recorded by the caller

template <class T> __device__ inline unsigned long long bits_of(T v) {
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T> __device__ inline T from_bits(unsigned long long b) {
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
}
// kPoisonBits truncated as the type's packing does (the value of an uninitialised register).
template <class T> __device__ inline T poison() { return from_bits<T>(abi::kPoison); }

__device__ inline abi::ThreadState& me() { return rl_launch.states[blockIdx.x * blockDim.x + threadIdx.x]; }
__device__ inline unsigned lane() { return threadIdx.x % 32u; }

// The first error wins; this thread stops here, every other at its next recorded call.
__device__ inline void fail(unsigned code, int line, long long index, unsigned long long bound) {
    abi::KernelError* e = rl_launch.error;
    if (atomicCAS(&e->code, abi::kNoError, 0xffffffffu) == abi::kNoError) {  // claim, fill, then publish
        e->thread = threadIdx.x;
        e->block = blockIdx.x;
        e->line = unsigned(line);
        e->index = index;
        e->bound = bound;
        __threadfence();
        atomicExch(&e->code, code);
    }
    asm volatile("exit;");
}

struct Fields {
    unsigned char kind, flags = 0;
    int line;
    unsigned group = 0, detail = 0, aux = 0, dep0 = abi::kNone, dep1 = abi::kNone;
    unsigned long long value = 0, atomic_old = 0;
};

// One event in this thread's program order; returns its index in the record array.
__device__ inline unsigned record(const Fields& f) {
    if (*static_cast<volatile unsigned*>(&rl_launch.error->code) != abi::kNoError) asm volatile("exit;");
    abi::ThreadState& s = me();
    if (s.seq >= abi::kThreadEvents) fail(abi::kStepBudget, f.line, s.seq, abi::kThreadEvents);
    const unsigned at = atomicAdd(rl_launch.cursor, 1u);
    if (at >= rl_launch.capacity) fail(abi::kRecordsFull, f.line, at, rl_launch.capacity);
    abi::Record r;
    r.kind = f.kind;
    r.flags = f.flags;
    r.launch = static_cast<unsigned char>(rl_launch.launch);
    r.pad0 = 0;
    r.thread = static_cast<unsigned short>(threadIdx.x);
    r.line = static_cast<unsigned short>(f.line < 0 ? 0 : f.line > 0xffff ? 0xffff : f.line);
    r.block = blockIdx.x;
    r.seq = s.seq++;
    r.group = f.group;
    r.detail = f.detail;
    r.aux = f.aux;
    r.dep[0] = f.dep0;
    r.dep[1] = f.dep1;
    r.value = f.value;
    r.atomic_old = f.atomic_old;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    r.globaltimer_ns = t;
    r.clock = static_cast<unsigned long long>(clock64());
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    r.sm = sm;
    r.pad1 = 0;
    rl_launch.records[at] = r;
    return at;
}

// An index as the student wrote it (any integer type), with the line of the [] that took it.
struct Index {
    long long i;
    bool huge;  // an unsigned value past long long
    int line;
    template <class I>
    __device__ Index(I v, int l = __builtin_LINE()) : i(static_cast<long long>(v)), huge(false), line(l) {
        static_assert(static_cast<I>(1.5) == 1, "an index must be an integer");
        if (static_cast<I>(-1) > 0 && sizeof(I) >= sizeof(long long) && i < 0) huge = true;
    }
    __device__ bool inside(unsigned long long bound) const { return !huge && i >= 0 && static_cast<unsigned long long>(i) < bound; }
    // aux of an access outside the buffer: the index, saturated to 0xffffffff when negative or too large
    __device__ unsigned saturated() const { return huge || i < 0 || i > 0xffffffffll ? 0xffffffffu : unsigned(i); }
};

template <class T> __device__ Value<T> make(T v, unsigned rec) { return Value<T>(Raw{}, v, rec); }
template <class T> __device__ Value<T> fill(T v, unsigned char flags, int line) {
    Fields f{abi::kIdentityFill, flags, line};
    f.value = bits_of(v);
    return make(v, record(f));
}

enum class Combine { Add, Mul, Max, Min };
// The operators as core/ops.h combines (integers wrap as on the GPU).
template <class T> __device__ T apply(Combine c, T a, T b) {
    switch (c) {
        case Combine::Add:
            if constexpr (sizeof(T) == 4 && T(0.5) == 0) return T(unsigned(a) + unsigned(b));
            else return a + b;
        case Combine::Mul:
            if constexpr (sizeof(T) == 4 && T(0.5) == 0) return T(unsigned(a) * unsigned(b));
            else return a * b;
        case Combine::Max: return b > a ? b : a;
        default: return b < a ? b : a;
    }
}
template <class T> __device__ Value<T> combine(Combine c, const Value<T>& a, const Value<T>& b, int line) {
    const T v = apply(c, a.v, b.v);
    Fields f{abi::kCombine, 0, line};
    f.dep0 = a.rec;
    f.dep1 = b.rec;
    f.value = bits_of(v);
    return make(v, record(f));
}

// The operator identity of the run (rl_launch.op).
template <class T> __device__ T identity_of(unsigned op) {
    if (op == abi::kSum) return T(0);
    if (op == abi::kProd) return T(1);
    const bool max = op == abi::kMax;
    if constexpr (sizeof(T) == 4 && T(0.5) == 0) return max ? T(0x80000000u) : T(0x7fffffff);
    else if constexpr (sizeof(T) == 4) return from_bits<T>(max ? 0xff800000ull : 0x7f800000ull);  // -inf / +inf
    else return from_bits<T>(max ? 0xfff0000000000000ull : 0x7ff0000000000000ull);
}

// A shuffle: the hardware moves value and record index with the caller's mask; the source counts only if
// it is named in the mask and executes this call (the ballot with the same mask says which lanes do).
template <class T>
__device__ Value<T> shuffle(unsigned mask, const Value<T>& v, int src, bool own, unsigned arg, int line) {
    const unsigned executing = __ballot_sync(mask, 1);
    const int from = own ? int(lane()) : (src & 31);
    const T got = __shfl_sync(mask, v.v, from);
    const unsigned rec = __shfl_sync(mask, v.rec, from);
    const bool defined = own || (src >= 0 && src < 32 && ((executing >> src) & 1u));
    Fields f{abi::kShuffle, static_cast<unsigned char>(defined ? 0 : abi::kUndefinedFlag), line};
    f.group = me().shuffles++;
    f.aux = mask;
    f.detail = (arg & 0xffu) | (unsigned(src < 0 || src > 255 ? 255 : src) << 8);
    f.dep0 = defined ? rec : abi::kNone;
    const T value = defined ? got : poison<T>();
    f.value = bits_of(value);
    return make(value, record(f));
}

template <class T> __device__ T read_slot(const volatile unsigned long long* p) { return from_bits<T>(*p); }
template <class T> __device__ void write_slot(volatile unsigned long long* p, T v) { *p = bits_of(v); }

}  // namespace detail

// The values a kernel combines: the value and the record that produced it.
template <class T> struct At;

// The arithmetic a kernel writes; hidden friends of a base every lab value has, so that `a + b` works for
// values, shared and out slots and constants alike (the line comes from At's conversion at the call site).
template <class T> struct Arith {
    friend __device__ Value<T> operator+(At<T> a, At<T> b) { return detail::combine(detail::Combine::Add, a.v, b.v, a.line); }
    friend __device__ Value<T> operator*(At<T> a, At<T> b) { return detail::combine(detail::Combine::Mul, a.v, b.v, a.line); }
};

template <class T> struct Value : Arith<T> {
    static_assert(sizeof(detail::Element<T>) >= 0, "rl::Value<T>: T is float, double or int");
    T v;
    unsigned rec;
    // `rl::Value<T> v;` is an uninitialised register: an IdentityFill flagged undefined.
    struct Here { int line; };
    __device__ Value(Here h = Here{__builtin_LINE()})
        : Value(detail::fill(detail::poison<T>(), device_abi::kUndefinedFlag, h.line)) {}
    // A constant: an IdentityFill with its bits.
    __device__ Value(T c, int line = __builtin_LINE()) : Value(detail::fill(c, 0, line)) {}
    __device__ Value(detail::Raw, T value, unsigned record) : v(value), rec(record) {}
    Value(const Value&) = default;
    Value& operator=(const Value&) = default;
    __device__ Value& operator+=(At<T> b) { return *this = detail::combine(detail::Combine::Add, *this, b.v, b.line); }
    __device__ Value& operator*=(At<T> b) { return *this = detail::combine(detail::Combine::Mul, *this, b.v, b.line); }
};

// Anything usable as a Value<T> (a value, a slot, a constant), converted where the call is written.
template <class T> struct At {
    Value<T> v;
    int line;
    __device__ At(const Value<T>& x, int l = __builtin_LINE()) : v(x), line(l) {}
    __device__ At(const SharedRef<T>& x, int l = __builtin_LINE()) : v(x.load(l)), line(l) {}
    __device__ At(const OutRef<T>& x, int l = __builtin_LINE()) : v(x.load(l)), line(l) {}
    __device__ At(T c, int l = __builtin_LINE()) : v(c, l), line(l) {}
};

// The run operator's identity (0 for sum, -inf for max, +inf for min, 1 for prod; int limits for int).
template <class T> __device__ Value<T> identity(int line = __builtin_LINE()) {
    return detail::fill(detail::identity_of<T>(rl_launch.op), 0, line);
}

// The input: in[i] is a Load (launch 0) or a PartialLoad of block partial i (the lab's second launch).
template <class T> struct In {
    __device__ Value<T> operator[](detail::Index i) const {
        const bool first = rl_launch.launch == 0;
        const bool inside = i.inside(static_cast<unsigned long long>(rl_launch.n < 0 ? 0 : rl_launch.n));
        detail::Fields f{first ? device_abi::kLoad : device_abi::kPartialLoad, 0, i.line};
        f.detail = detail::me().loads++;
        f.aux = i.saturated();
        T v = detail::poison<T>();
        if (!inside) f.flags = device_abi::kUndefinedFlag;
        else if (first) v = static_cast<const T*>(rl_launch.in)[i.i];
        else {
            v = detail::from_bits<T>(rl_launch.partial_values[i.i]);
            f.dep0 = rl_launch.partial_writers[i.i];
        }
        f.value = detail::bits_of(v);
        return detail::make(v, detail::record(f));
    }
};

// One shared slot: s[i] = v is a SharedStore, reading it a SharedLoad of the store it sees.
template <class T> struct SharedRef : Arith<T> {
    unsigned slot;
    int line;
    __device__ volatile unsigned long long* value_at() const { return rl_shared + slot; }
    __device__ volatile unsigned* writer_at() const {
        return reinterpret_cast<unsigned*>(rl_shared + device_abi::kSharedSlots) + slot;
    }
    __device__ Value<T> load(int at) const {
        const unsigned writer = *writer_at();
        const T v = writer == device_abi::kNone ? detail::poison<T>() : detail::read_slot<T>(value_at());
        detail::Fields f{device_abi::kSharedLoad, writer == device_abi::kNone ? device_abi::kUndefinedFlag : (unsigned char)0, at};
        f.detail = slot;
        f.dep0 = writer;
        f.value = detail::bits_of(v);
        return detail::make(v, detail::record(f));
    }
    __device__ operator Value<T>() const { return load(line); }
    __device__ const SharedRef& operator=(At<T> x) const {
        detail::Fields f{device_abi::kSharedStore, 0, x.line};
        f.detail = slot;
        f.dep0 = x.v.rec;
        f.value = detail::bits_of(x.v.v);
        const unsigned rec = detail::record(f);
        detail::write_slot(value_at(), x.v.v);
        *writer_at() = rec;
        return *this;
    }
    __device__ const SharedRef& operator=(const SharedRef& o) const { return *this = At<T>(o, o.line); }
};

// `rl::Shared<T, N> s;` inside the kernel: N slots of the block's shared memory, placed by declaration order.
template <class T, unsigned N> struct Shared {
    static_assert(N > 0, "rl::Shared<T, N>: N is at least 1");
    unsigned base;
    struct Here { int line; };
    __device__ Shared(Here h = Here{__builtin_LINE()}) {
        device_abi::ThreadState& s = detail::me();
        if (N > device_abi::kSharedSlots - s.shared_next)
            detail::fail(device_abi::kSharedTooMany, h.line, (long long)s.shared_next + N, device_abi::kSharedSlots);
        base = s.shared_next;
        s.shared_next += N;
    }
    __device__ SharedRef<T> operator[](detail::Index i) const {
        if (!i.inside(N)) detail::fail(device_abi::kSharedIndex, i.line, i.huge ? -1 : i.i, N);
        SharedRef<T> r;
        r.slot = base + unsigned(i.i);
        r.line = i.line;
        return r;
    }
};

template <class T> struct OutPtr {
    unsigned slot;
    int line;
};

// One out slot: out[b] = v is a store (BlockPartial; the launcher marks the result's writer FinalStore),
// reading it a PartialLoad of the store or atomic it sees.
template <class T> struct OutRef : Arith<T> {
    unsigned slot;
    int line;
    __device__ Value<T> load(int at) const {
        const unsigned writer = *static_cast<volatile unsigned*>(rl_launch.out_writers + slot);
        const T v = detail::read_slot<T>(rl_launch.out_values + slot);
        detail::Fields f{device_abi::kPartialLoad, 0, at};
        f.aux = slot;
        f.dep0 = writer;
        f.value = detail::bits_of(v);
        return detail::make(v, detail::record(f));
    }
    __device__ operator Value<T>() const { return load(line); }
    __device__ const OutRef& operator=(At<T> x) const {
        detail::Fields f{device_abi::kBlockPartial, 0, x.line};
        f.aux = slot;
        f.dep0 = x.v.rec;
        f.value = detail::bits_of(x.v.v);
        const unsigned rec = detail::record(f);
        detail::write_slot(rl_launch.out_values + slot, x.v.v);
        *static_cast<volatile unsigned*>(rl_launch.out_writers + slot) = rec;
        return *this;
    }
    __device__ const OutRef& operator=(const OutRef& o) const { return *this = At<T>(o, o.line); }
    __device__ OutPtr<T> operator&() const { return OutPtr<T>{slot, line}; }
};

template <class T> struct Out {
    __device__ OutRef<T> operator[](detail::Index i) const {
        if (!i.inside(rl_launch.out_slots))
            detail::fail(device_abi::kOutIndex, i.line, i.huge ? -1 : i.i, rl_launch.out_slots);
        OutRef<T> r;
        r.slot = unsigned(i.i);
        r.line = i.line;
        return r;
    }
};

// The global counter of a last-block finish: atomicAdd(done, 1u) draws a ticket.
struct Counter {};

namespace detail {

// An atomic on an out slot: the hardware's atomic, recorded with the value it replaced (the launcher's
// assembly orders each slot's chain from these); the writer of the slot becomes this record.
template <class T> __device__ Value<T> atomic(Combine c, OutPtr<T> p, const Value<T>& x, int line) {
    T* addr = reinterpret_cast<T*>(rl_launch.out_values + p.slot);
    T old;
    if (c == Combine::Add) {
        old = atomicAdd(addr, x.v);
    } else if constexpr (sizeof(T) == 4 && T(0.5) == 0) {
        old = c == Combine::Max ? atomicMax(addr, x.v) : atomicMin(addr, x.v);
    } else if constexpr (sizeof(T) == 8) {  // floating max / min: compare-and-swap with core/ops.h's comparison
        unsigned long long* word = rl_launch.out_values + p.slot;
        unsigned long long seen = *static_cast<volatile unsigned long long*>(word), was;
        do {
            was = seen;
            seen = atomicCAS(word, was, bits_of(apply(c, from_bits<T>(was), x.v)));
        } while (seen != was);
        old = from_bits<T>(was);
    } else {
        unsigned* word = reinterpret_cast<unsigned*>(rl_launch.out_values + p.slot);
        unsigned seen = *static_cast<volatile unsigned*>(word), was;
        do {
            was = seen;
            seen = atomicCAS(word, was, unsigned(bits_of(apply(c, from_bits<T>(was), x.v))));
        } while (seen != was);
        old = from_bits<T>(was);
    }
    const T now = apply(c, old, x.v);
    Fields f{abi::kAtomic, 0, line};
    f.detail = p.slot;
    f.dep1 = x.rec;
    f.value = bits_of(now);
    f.atomic_old = bits_of(old);
    const unsigned rec = record(f);
    atomicExch(rl_launch.out_writers + p.slot, rec);
    return make(old, rec);
}

__device__ inline void sync_threads(int line = __builtin_LINE()) {
    Fields f{abi::kBarrier, 0, line};
    f.group = me().barriers++;
    f.detail = unsigned(line);
    record(f);
    __syncthreads();
}
__device__ inline void sync_warp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) {
    Fields f{abi::kWarpSync, 0, line};
    f.group = me().warpsyncs++;
    f.aux = mask;
    record(f);
    __syncwarp(mask);
}
__device__ inline void thread_fence(int line = __builtin_LINE()) {
    record(Fields{abi::kFence, 0, line});
    __threadfence();
}

// The launch: every thread's counters from zero, the block's shared writers empty, then the kernel.
__device__ inline void begin() {
    abi::ThreadState& s = me();
    s = abi::ThreadState{0, 0, 0, 0, 0, 0};
    unsigned* writers = reinterpret_cast<unsigned*>(rl_shared + abi::kSharedSlots);
    for (unsigned k = threadIdx.x; k < abi::kSharedSlots; k += blockDim.x) writers[k] = abi::kNone;
    __syncthreads();
}
template <class T> __device__ void enter(void (*kernel)(In<T>, Out<T>, int)) {
    begin();
    kernel(In<T>{}, Out<T>{}, rl_launch.n);
}
template <class T> __device__ void enter(void (*kernel)(In<T>, Out<T>, int, Counter)) {
    begin();
    kernel(In<T>{}, Out<T>{}, rl_launch.n, Counter{});
}
template <class F> __device__ void enter(F) {}  // RL_ENTRY's static_assert names the allowed signatures
template <class T> constexpr unsigned signature(void (*)(In<T>, Out<T>, int)) { return Element<T>::code; }
template <class T> constexpr unsigned signature(void (*)(In<T>, Out<T>, int, Counter)) {
    return Element<T>::code | abi::kTakesCounter;
}
template <class F> constexpr unsigned signature(F) { return 0xffffffffu; }

}  // namespace detail

namespace detail {
template <class T, class A, class B> __device__ Value<T> pick(Combine c, const A& a, const B& b, int line) {
    return combine(c, At<T>(a, line).v, At<T>(b, line).v, line);
}
}  // namespace detail

}  // namespace rl

// CUDA's names for lab values (global, beside CUDA's own overloads for plain numbers; rl::max is the same
// function, so that an unqualified max(a, b) finds one candidate through both lookups).
#define RL_PICK(NAME, HOW)                                                                            \
    template <class A, class B, class T = typename rl::detail::common_lab<A, B>::type>                \
    __device__ rl::Value<T> NAME(const A& a, const B& b, int line = __builtin_LINE()) {               \
        return rl::detail::pick<T>(rl::detail::Combine::HOW, a, b, line);                             \
    }
RL_PICK(max, Max)
RL_PICK(min, Min)
RL_PICK(fmaxf, Max)
RL_PICK(fminf, Min)
RL_PICK(fmax, Max)
RL_PICK(fmin, Min)
#undef RL_PICK
namespace rl {
using ::max;
using ::min;
}  // namespace rl

template <class A, class T = typename rl::detail::lab_type<A>::type>
__device__ rl::Value<T> __shfl_down_sync(unsigned mask, const A& a, unsigned delta, int width = 32, int line = __builtin_LINE()) {
    const int l = int(rl::detail::lane()), w = width < 1 || width > 32 ? 32 : width;
    return rl::detail::shuffle(mask, rl::At<T>(a, line).v, l + int(delta), (l % w) + int(delta) >= w, delta, line);
}
template <class A, class T = typename rl::detail::lab_type<A>::type>
__device__ rl::Value<T> __shfl_up_sync(unsigned mask, const A& a, unsigned delta, int width = 32, int line = __builtin_LINE()) {
    const int l = int(rl::detail::lane()), w = width < 1 || width > 32 ? 32 : width;
    return rl::detail::shuffle(mask, rl::At<T>(a, line).v, l - int(delta), (l % w) < int(delta), delta, line);
}
template <class A, class T = typename rl::detail::lab_type<A>::type>
__device__ rl::Value<T> __shfl_xor_sync(unsigned mask, const A& a, int lane_mask, int width = 32, int line = __builtin_LINE()) {
    const int l = int(rl::detail::lane()), w = width < 1 || width > 32 ? 32 : width, src = l ^ lane_mask;
    return rl::detail::shuffle(mask, rl::At<T>(a, line).v, src, src < 0 || src >= 32 || src / w > l / w, unsigned(lane_mask), line);
}
template <class A, class T = typename rl::detail::lab_type<A>::type>
__device__ rl::Value<T> __shfl_sync(unsigned mask, const A& a, int src_lane, int width = 32, int line = __builtin_LINE()) {
    const int l = int(rl::detail::lane()), w = width < 1 || width > 32 ? 32 : width;
    return rl::detail::shuffle(mask, rl::At<T>(a, line).v, (l / w) * w + ((src_lane % w) + w) % w, false, unsigned(src_lane), line);
}

template <class T>
__device__ rl::Value<T> atomicAdd(rl::OutPtr<T> p, rl::At<rl::detail::no_deduce<T>> x) {
    return rl::detail::atomic(rl::detail::Combine::Add, p, x.v, x.line);
}
template <class T>
__device__ rl::Value<T> atomicMax(rl::OutPtr<T> p, rl::At<rl::detail::no_deduce<T>> x) {
    return rl::detail::atomic(rl::detail::Combine::Max, p, x.v, x.line);
}
template <class T>
__device__ rl::Value<T> atomicMin(rl::OutPtr<T> p, rl::At<rl::detail::no_deduce<T>> x) {
    return rl::detail::atomic(rl::detail::Combine::Min, p, x.v, x.line);
}
// A ticket of the last-block finish: the value drawn, as a plain unsigned.
__device__ inline unsigned atomicAdd(rl::Counter, unsigned increment, int line = __builtin_LINE()) {
    const unsigned ticket = atomicAdd(rl_launch.counter, increment);
    rl::detail::Fields f{rl::device_abi::kTicket, 0, line};
    f.aux = ticket;
    f.value = ticket + increment;
    f.atomic_old = ticket;
    rl::detail::record(f);
    return ticket;
}

// The recorded calls replace CUDA's (after the definitions above, which call the real ones).
#define __syncthreads() ::rl::detail::sync_threads()
#define __syncwarp(...) ::rl::detail::sync_warp(__VA_ARGS__)
#define __threadfence() ::rl::detail::thread_fence()

#define RL_KERNEL static __device__
// The entry the launcher calls (appended by the lab after the student's text) and the kernel's signature.
#define RL_ENTRY(NAME)                                                                                   \
    static_assert(::rl::detail::signature(NAME) != 0xffffffffu,                                          \
                  "RL_KERNEL must be void NAME(rl::In<T> in, rl::Out<T> out, int n) or void NAME(rl::In<T> " \
                  "in, rl::Out<T> out, int n, rl::Counter done), with T float, double or int");             \
    extern "C" __device__ const unsigned rl_kernel_signature = ::rl::detail::signature(NAME);   \
    extern "C" __global__ void rl_student_entry() { ::rl::detail::enter(NAME); }
