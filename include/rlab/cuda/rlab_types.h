// include/rlab/cuda/rlab_types.h — dim3, uint3 and CUDA's small vector types (int2, float4, ...), and the built-in
// variables threadIdx, blockIdx, blockDim, gridDim and warpSize, read with the NVVM special-register builtins as
// clang's own __clang_cuda_builtin_vars.h reads them, but without debug info of their own (see rlab_keywords.h).
#pragma once

// The vector types: plain structs aligned as CUDA aligns them, and their make_ functions.
#define __RLAB_VECTOR2(T, NAME, ALIGN)        \
    struct __align__(ALIGN) NAME { T x, y; }; \
    __RLAB_HOST_DEVICE constexpr NAME make_##NAME(T x, T y) { return {x, y}; }
#define __RLAB_VECTOR3(T, NAME) \
    struct NAME { T x, y, z; }; \
    __RLAB_HOST_DEVICE constexpr NAME make_##NAME(T x, T y, T z) { return {x, y, z}; }
#define __RLAB_VECTOR4(T, NAME, ALIGN)                                  \
    struct __align__(ALIGN) NAME { T x, y, z, w; };                     \
    __RLAB_HOST_DEVICE constexpr NAME make_##NAME(T x, T y, T z, T w) { \
        return {x, y, z, w};                                            \
    }

__RLAB_VECTOR2(int, int2, 8)
__RLAB_VECTOR3(int, int3)
__RLAB_VECTOR4(int, int4, 16)
__RLAB_VECTOR2(unsigned int, uint2, 8)
__RLAB_VECTOR3(unsigned int, uint3)
__RLAB_VECTOR4(unsigned int, uint4, 16)
__RLAB_VECTOR2(float, float2, 8)
__RLAB_VECTOR3(float, float3)
__RLAB_VECTOR4(float, float4, 16)
__RLAB_VECTOR2(double, double2, 16)
__RLAB_VECTOR3(double, double3)
__RLAB_VECTOR2(long long, longlong2, 16)
__RLAB_VECTOR2(unsigned long long, ulonglong2, 16)

#undef __RLAB_VECTOR2
#undef __RLAB_VECTOR3
#undef __RLAB_VECTOR4

struct dim3 {
    unsigned int x, y, z;
    __host__ __device__ __attribute__((nodebug)) constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                                                unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    __host__ __device__ __attribute__((nodebug)) constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    __host__ __device__ __attribute__((nodebug)) constexpr operator uint3() const { return {x, y, z}; }
};

// The built-in variables: each field a property whose getter is the special register. Like CUDA's, they cannot be
// copied, assigned or have their address taken, and convert to dim3 and uint3.
#define __CUDA_BUILTIN_VARS_H  // clang's own version of these is not to be included as well
#define __RLAB_BUILTIN_FIELD(FIELD, REGISTER)                               \
    __declspec(property(get = __fetch_builtin_##FIELD)) unsigned int FIELD; \
    static __RLAB_MEMBER unsigned int __fetch_builtin_##FIELD() { return REGISTER; }
#define __RLAB_BUILTIN_VAR(TYPE, X, Y, Z)                             \
    struct TYPE {                                                     \
        __RLAB_BUILTIN_FIELD(x, X)                                    \
        __RLAB_BUILTIN_FIELD(y, Y)                                    \
        __RLAB_BUILTIN_FIELD(z, Z)                                    \
        __RLAB_MEMBER operator dim3() const { return dim3(x, y, z); } \
        __RLAB_MEMBER operator uint3() const { return {x, y, z}; }    \
                                                                      \
    private:                                                          \
        __device__ TYPE() = delete;                                   \
        __device__ TYPE(const TYPE&) = delete;                        \
        __device__ void operator=(const TYPE&) const = delete;        \
        __device__ TYPE* operator&() const = delete;                  \
    };
__RLAB_BUILTIN_VAR(__cuda_builtin_threadIdx_t, __nvvm_read_ptx_sreg_tid_x(), __nvvm_read_ptx_sreg_tid_y(),
                   __nvvm_read_ptx_sreg_tid_z())
__RLAB_BUILTIN_VAR(__cuda_builtin_blockIdx_t, __nvvm_read_ptx_sreg_ctaid_x(), __nvvm_read_ptx_sreg_ctaid_y(),
                   __nvvm_read_ptx_sreg_ctaid_z())
__RLAB_BUILTIN_VAR(__cuda_builtin_blockDim_t, __nvvm_read_ptx_sreg_ntid_x(), __nvvm_read_ptx_sreg_ntid_y(),
                   __nvvm_read_ptx_sreg_ntid_z())
__RLAB_BUILTIN_VAR(__cuda_builtin_gridDim_t, __nvvm_read_ptx_sreg_nctaid_x(), __nvvm_read_ptx_sreg_nctaid_y(),
                   __nvvm_read_ptx_sreg_nctaid_z())
#undef __RLAB_BUILTIN_VAR
#undef __RLAB_BUILTIN_FIELD

extern const __device__ __attribute__((weak)) __cuda_builtin_threadIdx_t threadIdx;
extern const __device__ __attribute__((weak)) __cuda_builtin_blockIdx_t blockIdx;
extern const __device__ __attribute__((weak)) __cuda_builtin_blockDim_t blockDim;
extern const __device__ __attribute__((weak)) __cuda_builtin_gridDim_t gridDim;
// Every NVIDIA GPU so far has 32 lanes a warp; a constant, as clang's header has it.
__device__ const int warpSize = 32;
