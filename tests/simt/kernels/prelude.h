// tests/simt/kernels/prelude.h — the tests' stand-in for the lab's CUDA headers (include/rlab/cuda/): force-included
// (-include) when a test compiles a plain CUDA file with clang-14 for the device only, without a CUDA installation.
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#include "__clang_cuda_builtin_vars.h"

#define RLAB_SHFL(NAME, KIND, T, SUFFIX, CLAMP)                                            \
    static __device__ inline T NAME(unsigned mask, T v, int arg, int width = 32) {         \
        return __nvvm_shfl_sync_##KIND##_##SUFFIX(mask, v, arg, ((32 - width) << 8) | CLAMP); \
    }
RLAB_SHFL(__shfl_down_sync, down, float, f32, 0x1f)
RLAB_SHFL(__shfl_down_sync, down, int, i32, 0x1f)
RLAB_SHFL(__shfl_up_sync, up, float, f32, 0)
RLAB_SHFL(__shfl_up_sync, up, int, i32, 0)
RLAB_SHFL(__shfl_xor_sync, bfly, float, f32, 0x1f)
RLAB_SHFL(__shfl_xor_sync, bfly, int, i32, 0x1f)
RLAB_SHFL(__shfl_sync, idx, float, f32, 0x1f)
RLAB_SHFL(__shfl_sync, idx, int, i32, 0x1f)
#undef RLAB_SHFL

static __device__ inline float atomicAdd(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ inline int atomicAdd(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ inline unsigned atomicAdd(unsigned* p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int*)p, (int)v); }
static __device__ inline unsigned atomicInc(unsigned* p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }
static __device__ inline int atomicMax(int* p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ inline int atomicMin(int* p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ inline int atomicCAS(int* p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
static __device__ inline int atomicExch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
static __device__ inline void __threadfence() { __nvvm_membar_gl(); }
static __device__ inline void __threadfence_block() { __nvvm_membar_cta(); }
static __device__ inline void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
static __device__ inline int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ inline unsigned __ballot_sync(unsigned mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
static __device__ inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
static __device__ inline int max(int a, int b) { return a > b ? a : b; }
static __device__ inline int min(int a, int b) { return a < b ? a : b; }
extern "C" __device__ int vprintf(const char*, void*);
