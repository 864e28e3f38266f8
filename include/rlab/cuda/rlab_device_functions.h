// include/rlab/cuda/rlab_device_functions.h — CUDA's warp and block intrinsics on clang's NVVM builtins, so each is
// one NVVM intrinsic in the bitcode the lab decodes: __syncthreads (a clang builtin: llvm.nvvm.barrier0),
// __syncwarp, the fences, __shfl_*_sync, __ballot_sync, __any_sync, __all_sync, __activemask; and the bit tricks
// warp code uses (__popc, __ffs, __clz, __float_as_int ...).
#pragma once

__RLAB_DEVICE void __syncwarp(unsigned int mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
__RLAB_DEVICE void __threadfence_block() { __nvvm_membar_cta(); }
__RLAB_DEVICE void __threadfence() { __nvvm_membar_gl(); }
__RLAB_DEVICE void __threadfence_system() { __nvvm_membar_sys(); }

// Votes. clang 14 has no builtin for activemask.b32; the ballot of a true predicate over the lanes that execute it
// (llvm.nvvm.vote.ballot(i1 true)) is that mask by definition.
__RLAB_DEVICE unsigned int __ballot_sync(unsigned int mask, int pred) {
    return __nvvm_vote_ballot_sync(mask, pred != 0);
}
__RLAB_DEVICE int __any_sync(unsigned int mask, int pred) { return __nvvm_vote_any_sync(mask, pred != 0); }
__RLAB_DEVICE int __all_sync(unsigned int mask, int pred) { return __nvvm_vote_all_sync(mask, pred != 0); }
__RLAB_DEVICE int __uni_sync(unsigned int mask, int pred) { return __nvvm_vote_uni_sync(mask, pred != 0); }
__RLAB_DEVICE unsigned int __activemask() { return __nvvm_vote_ballot(true); }

// Shuffles. The NVVM builtin's last operand packs the segment: ((32 - width) << 8) | clamp, the clamp 0x1f for
// down, xor and idx and 0 for up (PTX's shfl.sync c operand). 64-bit values go as two 32-bit shuffles (low word,
// then high word), as CUDA does.
#define __RLAB_SHUFFLE(NAME, OP, CLAMP, OFFSET)                                                             \
    __RLAB_DEVICE int NAME(unsigned int mask, int v, OFFSET o, int width = warpSize) {                      \
        return __nvvm_shfl_sync_##OP##_i32(mask, v, o, ((warpSize - width) << 8) | (CLAMP));                \
    }                                                                                                       \
    __RLAB_DEVICE float NAME(unsigned int mask, float v, OFFSET o, int width = warpSize) {                  \
        return __nvvm_shfl_sync_##OP##_f32(mask, v, o, ((warpSize - width) << 8) | (CLAMP));                \
    }                                                                                                       \
    __RLAB_DEVICE unsigned int NAME(unsigned int mask, unsigned int v, OFFSET o, int width = warpSize) {    \
        return static_cast<unsigned int>(NAME(mask, static_cast<int>(v), o, width));                        \
    }                                                                                                       \
    __RLAB_DEVICE unsigned long long NAME(unsigned int mask, unsigned long long v, OFFSET o,                \
                                        int width = warpSize) {                                             \
        const unsigned int lo = NAME(mask, static_cast<unsigned int>(v), o, width);                         \
        const unsigned int hi = NAME(mask, static_cast<unsigned int>(v >> 32), o, width);                   \
        return static_cast<unsigned long long>(hi) << 32 | lo;                                              \
    }                                                                                                       \
    __RLAB_DEVICE long long NAME(unsigned int mask, long long v, OFFSET o, int width = warpSize) {          \
        return static_cast<long long>(NAME(mask, static_cast<unsigned long long>(v), o, width));            \
    }                                                                                                       \
    __RLAB_DEVICE unsigned long NAME(unsigned int mask, unsigned long v, OFFSET o, int width = warpSize) {  \
        return static_cast<unsigned long>(NAME(mask, static_cast<unsigned long long>(v), o, width));        \
    }                                                                                                       \
    __RLAB_DEVICE long NAME(unsigned int mask, long v, OFFSET o, int width = warpSize) {                    \
        return static_cast<long>(NAME(mask, static_cast<unsigned long long>(v), o, width));                 \
    }                                                                                                       \
    __RLAB_DEVICE double NAME(unsigned int mask, double v, OFFSET o, int width = warpSize) {                \
        return __builtin_bit_cast(double, NAME(mask, __builtin_bit_cast(unsigned long long, v), o, width)); \
    }

__RLAB_SHUFFLE(__shfl_sync, idx, 0x1f, int)
__RLAB_SHUFFLE(__shfl_up_sync, up, 0, unsigned int)
__RLAB_SHUFFLE(__shfl_down_sync, down, 0x1f, unsigned int)
__RLAB_SHUFFLE(__shfl_xor_sync, bfly, 0x1f, int)
#undef __RLAB_SHUFFLE

// Bits and reinterpretation (index arithmetic: the lab records none of it).
__RLAB_DEVICE int __popc(unsigned int x) { return __builtin_popcount(x); }
__RLAB_DEVICE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__RLAB_DEVICE int __ffs(int x) { return __builtin_ffs(x); }
__RLAB_DEVICE int __ffsll(long long x) { return __builtin_ffsll(x); }
__RLAB_DEVICE int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
__RLAB_DEVICE int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
__RLAB_DEVICE unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__RLAB_DEVICE int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__RLAB_DEVICE unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
__RLAB_DEVICE float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__RLAB_DEVICE float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
__RLAB_DEVICE long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__RLAB_DEVICE double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }

// __ldg: a load through the read-only cache is, for the lab, a load.
template <class T>
__RLAB_DEVICE T __ldg(const T* p) { return *p; }

// Device-side printf and assert, as clang's own CUDA headers declare them (clang turns printf into vprintf).
extern "C" {
__device__ int printf(const char*, ...);
__device__ int vprintf(const char*, const char*);
__device__ void __assertfail(const char* message, const char* file, unsigned int line, const char* function,
                             size_t charSize);
__device__ static inline void __assert_fail(const char* message, const char* file, unsigned int line,
                                            const char* function) {
    __assertfail(message, file, line, function, sizeof(char));
}
}
