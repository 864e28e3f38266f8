// include/rlab/cuda/rlab_math.h — the device math reductions use: fmaxf, fminf, fmax, fmin, fabsf, fabs (LLVM's
// maxnum/minnum/fabs), and CUDA's max/min overloads for integers and floating point (host and device, as CUDA
// has them). <math.h> declares the host functions; clang lets a __device__ function overload a __host__ one.
#pragma once

__RLAB_DEVICE float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__RLAB_DEVICE float fminf(float a, float b) { return __builtin_fminf(a, b); }
__RLAB_DEVICE double fmax(double a, double b) { return __builtin_fmax(a, b); }
__RLAB_DEVICE double fmin(double a, double b) { return __builtin_fmin(a, b); }
__RLAB_DEVICE float fabsf(float a) { return __builtin_fabsf(a); }
__RLAB_DEVICE double fabs(double a) { return __builtin_fabs(a); }
__RLAB_DEVICE int abs(int a) { return a < 0 ? -a : a; }
__RLAB_DEVICE long long llabs(long long a) { return a < 0 ? -a : a; }

#define __RLAB_MAX_MIN(R, A, B)                                                               \
    __RLAB_HOST_DEVICE R max(A a, B b) {                                                      \
        return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
    }                                                                                         \
    __RLAB_HOST_DEVICE R min(A a, B b) {                                                      \
        return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
    }
__RLAB_MAX_MIN(int, int, int)
__RLAB_MAX_MIN(unsigned int, unsigned int, unsigned int)
__RLAB_MAX_MIN(unsigned int, int, unsigned int)
__RLAB_MAX_MIN(unsigned int, unsigned int, int)
__RLAB_MAX_MIN(long, long, long)
__RLAB_MAX_MIN(unsigned long, unsigned long, unsigned long)
__RLAB_MAX_MIN(long long, long long, long long)
__RLAB_MAX_MIN(unsigned long long, unsigned long long, unsigned long long)
__RLAB_MAX_MIN(unsigned long long, long long, unsigned long long)
__RLAB_MAX_MIN(unsigned long long, unsigned long long, long long)
#undef __RLAB_MAX_MIN

// Floating point: fmaxf/fmax semantics (a NaN operand yields the other), as CUDA's max(float, float) has.
__RLAB_HOST_DEVICE float max(float a, float b) { return __builtin_fmaxf(a, b); }
__RLAB_HOST_DEVICE float min(float a, float b) { return __builtin_fminf(a, b); }
__RLAB_HOST_DEVICE double max(double a, double b) { return __builtin_fmax(a, b); }
__RLAB_HOST_DEVICE double min(double a, double b) { return __builtin_fmin(a, b); }
__RLAB_HOST_DEVICE double max(float a, double b) { return __builtin_fmax(a, b); }
__RLAB_HOST_DEVICE double min(float a, double b) { return __builtin_fmin(a, b); }
__RLAB_HOST_DEVICE double max(double a, float b) { return __builtin_fmax(a, b); }
__RLAB_HOST_DEVICE double min(double a, float b) { return __builtin_fmin(a, b); }
