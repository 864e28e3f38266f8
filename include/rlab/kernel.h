// include/rlab/kernel.h — what a student's reduction kernel includes: CUDA's own names plus the lab's small
// recording types, the same file compiled for the GPU (NVRTC: detail/device.h) and the emulator (the host
// compiler: detail/host.h). This common part fixes the surface both branches implement.
//
//   RL_KERNEL void NAME(rl::In<T> in, rl::Out<T> out, int n [, rl::Counter done])   T: float, double, int
//
// Public surface (both branches, namespace rl):
//   Value<T>     what in[i], shuffles, shared/out loads and combines return (write `auto`). a + b, a * b,
//                max/min(a, b) (also rl::max, ::max, fmaxf, fminf), +=, *= : one Combine each. Value<T>(c) or a
//                T constant where a Value is expected: an IdentityFill with c's bits (flagged kIdentity when c is
//                the run's identity); `rl::Value<T> v;` an IdentityFill flagged kUndefined (the uninitialised
//                register). `explicit operator T()` reads the number (not recorded).
//   identity<T>()  the run's operator identity (0 sum, -inf max, +inf min, 1 prod; int limits), an IdentityFill.
//                Run with --op witness, every combine merges the element ranges values cover (order checking).
//   In<T>        in[i]: Load (aux = i, detail = this thread's k-th load; an index outside [0, n) is a Load flagged
//                kUndefined with aux = i saturated to 0xffffffff); in the lab's second launch a PartialLoad.
//   Out<T>       gridDim.x slots starting at the identity. out[b] = v: a store (BlockPartial, or FinalStore when
//                it writes the result); reading out[b]: a PartialLoad; atomicAdd/Max/Min(&out[b], v): an Atomic.
//   Shared<T, N> declared inside the kernel; s[i] = v: SharedStore; s[i] read: SharedLoad. Slots are numbered in
//                the order a thread constructs its Shared arrays; a declaration is one array, as __shared__ is (one
//                inside a loop keeps its slots and values from pass to pass); at most RL_SHARED_SITES of them.
//   Counter      atomicAdd(done, 1u): a Ticket returning the ticket as unsigned; __threadfence(): a Fence.
//   CUDA names   threadIdx, blockIdx, blockDim, gridDim (.x; .y/.z are 0/1), warpSize, __shfl_down_sync,
//                __shfl_up_sync, __shfl_xor_sync, __shfl_sync, __syncthreads, __syncwarp, __threadfence.
// Every recorded call takes its source line through a defaulted `int line = __builtin_LINE()` parameter (or, for
// operators and subscripts, through the implicit conversion of an operand, which has one).
//
// How a subscript knows whether it is read or written: s[i] and out[b] load at once (so `auto x = s[i]` reads
// where it stands) and return a Value that remembers its origin; assigning to that temporary (s[i] = v, or
// taking &out[b]) marks the load retracted (flag RL_RETRACTED_RECORD) and stores. The runner drops retracted
// records before assembly (C++17 evaluates the right side of `=` first, so nothing of this thread lies between).
#pragma once

#include "rlab/detail/record_flags.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define RL_KERNEL static __device__
#include "rlab/detail/device.h"
#else
#define RL_KERNEL static
#include "rlab/detail/host.h"
#endif

namespace rl::detail {

template <class T> struct IsElement { static constexpr bool value = false; };
template <> struct IsElement<float> { static constexpr bool value = true; };
template <> struct IsElement<double> { static constexpr bool value = true; };
template <> struct IsElement<int> { static constexpr bool value = true; };

// The two signatures a kernel may have: the element type and whether it takes a Counter.
// Anything else: not ok (the entry still compiles, so the static_assert is the only message).
template <class F> struct EntrySignature {
    static constexpr bool ok = false;
    static constexpr bool counter = false;
    using type = float;
};
template <class T> struct EntrySignature<void (*)(In<T>, Out<T>, int)> {
    static constexpr bool ok = IsElement<T>::value;
    static constexpr bool counter = false;
    using type = T;
};
template <class T> struct EntrySignature<void (*)(In<T>, Out<T>, int, Counter)> {
    static constexpr bool ok = IsElement<T>::value;
    static constexpr bool counter = true;
    using type = T;
};

// The element type's code in the entry's description: 0 f32, 1 f64, 2 i32 (core's DType F32, F64, I32).
template <class T> struct ElementCode;
template <> struct ElementCode<float> { static constexpr int value = 0; };
template <> struct ElementCode<double> { static constexpr int value = 1; };
template <> struct ElementCode<int> { static constexpr int value = 2; };

}  // namespace rl::detail

#define RL_CHECK_ENTRY(NAME)                                                                                \
    static_assert(::rl::detail::EntrySignature<decltype(&NAME)>::ok,                                        \
                  "RL_KERNEL " #NAME " must be void " #NAME "(rl::In<T> in, rl::Out<T> out, int n) or void " #NAME \
                  "(rl::In<T> in, rl::Out<T> out, int n, rl::Counter done) with T float, double or int")

// The lab appends RL_ENTRY(NAME) to the compiled text: the signature check and the backend's entry point.
#define RL_ENTRY(NAME)  \
    RL_CHECK_ENTRY(NAME); \
    RL_BACKEND_ENTRY(NAME)
