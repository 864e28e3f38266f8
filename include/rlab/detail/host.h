// include/rlab/detail/host.h — the host branch of rlab/kernel.h: the lab's types as thin calls into the
// emulator's runtime (detail/host_abi.h), for a kernel built by the host compiler and run as fibers.
// Included by rlab/kernel.h only; students include <rlab/kernel.h>.
#pragma once
#include "rlab/detail/host_abi.h"

namespace rl {

namespace detail {

// The runtime's table, set once by the entry point before any thread runs (one plugin, one translation unit).
static const rl_host_api* g_api = nullptr;
inline const rl_host_api& api() { return *g_api; }

template <class T> inline uint64_t pack(T v) {
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &v, sizeof(T));
    return bits;
}
template <class T> inline T unpack(uint64_t bits) {
    T v;
    __builtin_memcpy(&v, &bits, sizeof(T));
    return v;
}

// A subscript's index with the line of the subscript (operator[] can take no defaulted argument).
struct Index {
    long long i;
    int line;
    Index(long long v, int l = __builtin_LINE()) : i(v), line(l) {}
};

struct Uninitialised {};

enum Origin : unsigned char { kNowhere = 0, kFromShared = 1, kFromOut = 2 };

}  // namespace detail

template <class T> class In;
template <class T> class Out;
template <class T, unsigned N> class Shared;
template <class T> struct OutSlot;

template <class T> class Value {
public:
    // An operand of a combine: a Value or a T constant, with the line of the expression that combines it.
    struct Operand {
        rl_val r;
        int line;
        Operand(const Value& v, int l = __builtin_LINE()) : r(v.r_), line(l) {}
        Operand(T c, int l = __builtin_LINE()) : r(detail::api().constant(detail::api().rt, detail::pack(c), l)), line(l) {}
    };

    // The uninitialised register (`rl::Value<T> v;`): an IdentityFill flagged kUndefined. The tag keeps this
    // constructor from converting an int: `rl::Value<float> v = 0;` is the constant 0.
    Value(detail::Uninitialised = {}, int line = __builtin_LINE()) : r_(detail::api().undefined(detail::api().rt, line)) {}
    Value(T c, int line = __builtin_LINE()) : r_(detail::api().constant(detail::api().rt, detail::pack(c), line)) {}
    Value(const Value& o) : r_(o.r_) {}
    Value& operator=(const Value& o) & {
        r_ = o.r_;
        return *this;
    }
    // The left side of s[i] = v or out[b] = v: the load that made this temporary is retracted, v is stored.
    void operator=(const Value& v) && { store(v.r_); }
    void operator=(T c) && { store(Operand(c, line_).r); }
    Value& operator+=(Operand b) & { return *this = combine(RL_COMBINE_SUM, Operand(*this, b.line), b); }
    Value& operator*=(Operand b) & { return *this = combine(RL_COMBINE_PROD, Operand(*this, b.line), b); }
    // s[i] += v: a real read, a combine and a store.
    void operator+=(Operand b) && { update(RL_COMBINE_SUM, b); }
    void operator*=(Operand b) && { update(RL_COMBINE_PROD, b); }
    // &out[b] for atomicAdd/Max/Min: the load is retracted.
    OutSlot<T> operator&() && {
        if (origin_ != detail::kFromOut) return OutSlot<T>{-1, line_};
        detail::api().retract(detail::api().rt, r_.ev);
        return OutSlot<T>{(long long)slot_, line_};
    }

    explicit operator T() const { return detail::unpack<T>(r_.bits); }

    friend Value operator+(Operand a, Operand b) { return combine(RL_COMBINE_SUM, a, b); }
    friend Value operator*(Operand a, Operand b) { return combine(RL_COMBINE_PROD, a, b); }
    friend Value max(Operand a, Operand b) { return combine(RL_COMBINE_MAX, a, b); }
    friend Value min(Operand a, Operand b) { return combine(RL_COMBINE_MIN, a, b); }
    friend Value fmaxf(Operand a, Operand b) { return combine(RL_COMBINE_MAX, a, b); }
    friend Value fminf(Operand a, Operand b) { return combine(RL_COMBINE_MIN, a, b); }
    friend Value fmax(Operand a, Operand b) { return combine(RL_COMBINE_MAX, a, b); }
    friend Value fmin(Operand a, Operand b) { return combine(RL_COMBINE_MIN, a, b); }

    // For the runtime's glue (not for students).
    static Value from_raw(rl_val r) { return Value(r, detail::kNowhere, 0, 0); }
    rl_val raw() const { return r_; }

private:
    friend class In<T>;
    friend class Out<T>;
    template <class U, unsigned M> friend class Shared;
    Value(rl_val r, detail::Origin origin, unsigned slot, int line) : r_(r), origin_(origin), slot_(slot), line_(line) {}

    static Value combine(int op, const Operand& a, const Operand& b) {
        const int line = a.line > b.line ? a.line : b.line;
        return from_raw(detail::api().combine(detail::api().rt, op, a.r, b.r, line));
    }
    void store(rl_val v) {
        if (origin_ == detail::kFromShared)
            detail::api().store_shared(detail::api().rt, slot_, v, r_.ev, line_);
        else if (origin_ == detail::kFromOut)
            detail::api().store_out(detail::api().rt, (long long)slot_, v, r_.ev, line_);
        else
            r_ = v;  // a temporary of no array: a plain (useless) assignment
    }
    void update(int op, const Operand& b) {
        Value sum = combine(op, Operand(*this, b.line), b);
        if (origin_ == detail::kFromShared)
            detail::api().store_shared(detail::api().rt, slot_, sum.r_, 0xffffffffu, b.line);
        else if (origin_ == detail::kFromOut)
            detail::api().store_out(detail::api().rt, (long long)slot_, sum.r_, 0xffffffffu, b.line);
    }

    rl_val r_;
    detail::Origin origin_ = detail::kNowhere;
    unsigned slot_ = 0;
    int line_ = 0;
};

template <class T> inline Value<T> identity(int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::api().identity(detail::api().rt, line));
}
template <class T> inline Value<T> max(const Value<T>& a, const Value<T>& b, int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::api().combine(detail::api().rt, RL_COMBINE_MAX, a.raw(), b.raw(), line));
}
template <class T> inline Value<T> min(const Value<T>& a, const Value<T>& b, int line = __builtin_LINE()) {
    return Value<T>::from_raw(detail::api().combine(detail::api().rt, RL_COMBINE_MIN, a.raw(), b.raw(), line));
}

template <class T> class In {
public:
    const Value<T> operator[](detail::Index i) const {
        return Value<T>(detail::api().load_in(detail::api().rt, i.i, i.line), detail::kNowhere, 0, i.line);
    }
};

template <class T> struct OutSlot {
    long long slot;  // -1: the address of something that is no out slot
    int line;
};

template <class T> class Out {
public:
    Value<T> operator[](detail::Index b) const {
        rl_val r = detail::api().load_out(detail::api().rt, b.i, b.line);
        return Value<T>(r, detail::kFromOut, unsigned(b.i), b.line);
    }
};

class Counter {};

template <class T, unsigned N> class Shared {
    static_assert(N > 0, "rl::Shared needs at least one slot");

public:
    explicit Shared(int line = __builtin_LINE()) : base_(detail::api().shared_alloc(detail::api().rt, N, line)) {}
    ~Shared() { detail::api().shared_release(detail::api().rt, base_); }  // the next pass of a loop gets it back
    Shared(const Shared&) = delete;
    Shared& operator=(const Shared&) = delete;
    Value<T> operator[](detail::Index i) const {
        rl_val r = detail::api().load_shared(detail::api().rt, base_, N, i.i, i.line);
        return Value<T>(r, detail::kFromShared, base_ + unsigned(i.i), i.line);
    }

private:
    uint32_t base_;
};

namespace detail {
template <class T> inline T atomic(int op, OutSlot<T> p, const typename Value<T>::Operand& v, int line) {
    rl_val old = api().atomic_out(api().rt, op, p.slot, v.r, line < p.line ? p.line : line);
    return unpack<T>(old.bits);
}
}  // namespace detail

template <class T> inline T atomicAdd(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(RL_COMBINE_SUM, p, v, line);
}
template <class T> inline T atomicMax(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(RL_COMBINE_MAX, p, v, line);
}
template <class T> inline T atomicMin(OutSlot<T> p, typename Value<T>::Operand v, int line = __builtin_LINE()) {
    return detail::atomic(RL_COMBINE_MIN, p, v, line);
}
inline unsigned atomicAdd(Counter, unsigned add, int line = __builtin_LINE()) {
    return detail::api().ticket(detail::api().rt, add, line);
}

}  // namespace rl

// ---- CUDA's names -------------------------------------------------------------------------------------------
#define threadIdx (::rl::detail::g_api->view->thread_idx)
#define blockIdx (::rl::detail::g_api->view->block_idx)
#define blockDim (::rl::detail::g_api->view->block_dim)
#define gridDim (::rl::detail::g_api->view->grid_dim)
static constexpr int warpSize = 32;

using rl::atomicAdd;
using rl::atomicMax;
using rl::atomicMin;
using rl::max;  // ::max as CUDA has it (the same entity as rl::max: no ambiguity with ADL)
using rl::min;

inline void __syncthreads(int line = __builtin_LINE()) { rl::detail::api().syncthreads(rl::detail::api().rt, line); }
inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) {
    rl::detail::api().syncwarp(rl::detail::api().rt, mask, line);
}
inline void __threadfence(int line = __builtin_LINE()) { rl::detail::api().fence(rl::detail::api().rt, line); }

namespace rl::detail {
template <class T> inline Value<T> shuffle(int kind, unsigned mask, const Value<T>& v, int arg, int width, int line) {
    return Value<T>::from_raw(api().shuffle(api().rt, kind, mask, v.raw(), arg, width, line));
}
}  // namespace rl::detail

template <class T>
inline rl::Value<T> __shfl_down_sync(unsigned mask, const rl::Value<T>& v, unsigned delta, int width = 32,
                                     int line = __builtin_LINE()) {
    return rl::detail::shuffle(RL_SHFL_DOWN, mask, v, int(delta), width, line);
}
template <class T>
inline rl::Value<T> __shfl_up_sync(unsigned mask, const rl::Value<T>& v, unsigned delta, int width = 32,
                                   int line = __builtin_LINE()) {
    return rl::detail::shuffle(RL_SHFL_UP, mask, v, int(delta), width, line);
}
template <class T>
inline rl::Value<T> __shfl_xor_sync(unsigned mask, const rl::Value<T>& v, int lane_mask, int width = 32,
                                    int line = __builtin_LINE()) {
    return rl::detail::shuffle(RL_SHFL_XOR, mask, v, lane_mask, width, line);
}
template <class T>
inline rl::Value<T> __shfl_sync(unsigned mask, const rl::Value<T>& v, int src_lane, int width = 32,
                                int line = __builtin_LINE()) {
    return rl::detail::shuffle(RL_SHFL_IDX, mask, v, src_lane, width, line);
}

namespace rl::detail {
template <class F> inline void call_kernel(F, int) {}  // a wrong signature: RL_ENTRY's static_assert says so
template <class T> inline void call_kernel(void (*f)(In<T>, Out<T>, int), int n) { f(In<T>{}, Out<T>{}, n); }
template <class T> inline void call_kernel(void (*f)(In<T>, Out<T>, int, Counter), int n) {
    f(In<T>{}, Out<T>{}, n, Counter{});
}
}  // namespace rl::detail

// The entry the runtime looks up: binds the table, reports the element type, and runs one thread of NAME.
#define RL_BACKEND_ENTRY(NAME)                                                                               \
    namespace rl::detail {                                                                                   \
    static void run_thread_##NAME(int n) { call_kernel(&NAME, n); }                                          \
    }                                                                                                        \
    extern "C" __attribute__((visibility("default"))) int rlab_host_entry(const rl_host_api* api,           \
                                                                         rl_host_kernel* kernel) {          \
        if (api->abi != RL_HOST_ABI) return 1;                                                               \
        ::rl::detail::g_api = api;                                                                           \
        using Sig = ::rl::detail::EntrySignature<decltype(&NAME)>;                                           \
        kernel->abi = RL_HOST_ABI;                                                                           \
        kernel->element = ::rl::detail::ElementCode<typename Sig::type>::value;                              \
        kernel->has_counter = Sig::counter ? 1 : 0;                                                          \
        kernel->run_thread = &::rl::detail::run_thread_##NAME;                                               \
        return 0;                                                                                            \
    }
