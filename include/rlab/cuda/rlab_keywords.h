// include/rlab/cuda/rlab_keywords.h — CUDA's declaration keywords as clang spells them, and the version macros
// code tests (the lab stands for CUDA 11.8 on sm_80: clang defines __CUDA_ARCH__ 800 itself).
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB
// __inline__ and __restrict__ are clang keywords already. __noinline__ is left out: libstdc++ spells
// __attribute__((__noinline__)), which a macro of that name would break.

// The lab's own device functions: always inlined, and without debug info of their own, so that what they inline
// (a shuffle, an atomic, a special-register read) carries the student's own source line in the line tables.
#define __RLAB_DEVICE static __device__ __forceinline__ __attribute__((nodebug))
#define __RLAB_MEMBER __device__ __forceinline__ __attribute__((nodebug))
#define __RLAB_HOST_DEVICE static __host__ __device__ __forceinline__ __attribute__((nodebug))

#define CUDA_VERSION 11080
#define CUDART_VERSION 11080
#define __CUDACC_VER_MAJOR__ 11
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
