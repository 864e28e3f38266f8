// include/rlab/cuda/rlab_unsupported.h — CUDA constructs outside the lab's subset, declared so that clang itself
// reports a use as one error at the student's FILE:LINE:COL naming the construct and what to write instead
// (`'tex1Dfetch' is unavailable: textures are not supported in the lab; ...`). The subset: docs/student-kernels.md.
#pragma once

#define __RLAB_UNSUPPORTED(WHAT, INSTEAD) \
    __attribute__((unavailable(WHAT " not supported in the lab; " INSTEAD " (docs/student-kernels.md, Plain CUDA)")))
#define __RLAB_NO(WHAT, INSTEAD) __host__ __device__ __RLAB_UNSUPPORTED(WHAT, INSTEAD)

// Any argument list, so each call reaches the unavailable declaration rather than a mismatch.
#define __RLAB_UNSUPPORTED_CALL(NAME, WHAT, INSTEAD) \
    template <class __T = void, class... __A>        \
    __RLAB_NO(WHAT, INSTEAD) int NAME(__A...);

// ---- textures and surfaces -----------------------------------------------------------------------------------
#define __RLAB_TEX(NAME) __RLAB_UNSUPPORTED_CALL(NAME, "textures are", "read the input through its pointer, in[i]")
__RLAB_TEX(tex1Dfetch)
__RLAB_TEX(tex1D)
__RLAB_TEX(tex2D)
__RLAB_TEX(tex3D)
__RLAB_TEX(tex1DLod)
__RLAB_TEX(tex2DLod)
__RLAB_TEX(tex1DLayered)
__RLAB_TEX(tex2DLayered)
__RLAB_TEX(texCubemap)
__RLAB_TEX(tex2Dgather)
__RLAB_TEX(cudaCreateTextureObject)
__RLAB_TEX(cudaDestroyTextureObject)
__RLAB_TEX(cudaBindTexture)
__RLAB_TEX(cudaBindTexture2D)
__RLAB_TEX(cudaUnbindTexture)
__RLAB_TEX(cudaCreateChannelDesc)
#undef __RLAB_TEX
#define __RLAB_SURF(NAME) __RLAB_UNSUPPORTED_CALL(NAME, "surfaces are", "read and write the data through pointers")
__RLAB_SURF(surf1Dread)
__RLAB_SURF(surf1Dwrite)
__RLAB_SURF(surf2Dread)
__RLAB_SURF(surf2Dwrite)
__RLAB_SURF(surf3Dread)
__RLAB_SURF(surf3Dwrite)
__RLAB_SURF(cudaCreateSurfaceObject)
__RLAB_SURF(cudaDestroySurfaceObject)
#undef __RLAB_SURF
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct __RLAB_UNSUPPORTED("textures are", "read the input through its pointer, in[i]") cudaResourceDesc;
struct __RLAB_UNSUPPORTED("textures are", "read the input through its pointer, in[i]") cudaTextureDesc;
struct __RLAB_UNSUPPORTED("textures are", "read the input through its pointer, in[i]") cudaChannelFormatDesc;
// A texture reference, `texture<float, 1, cudaReadModeElementType> t;`: clang does not report an unavailable class
// template at its first use, so the name `texture` reports (a macro). What it declares is a device variable with
// fetches declared for it, so that the declaration is the one error and its uses report nothing more.
template <class __T, int __dim = 1, enum cudaTextureReadMode __mode = cudaReadModeElementType>
struct __rlab_texture_reference {};
#define __RLAB_TEX_REF(NAME)                                                       \
    template <class __T, int __dim, enum cudaTextureReadMode __mode, class... __A> \
    __device__ __T NAME(__rlab_texture_reference<__T, __dim, __mode>, __A...);
__RLAB_TEX_REF(tex1Dfetch)
__RLAB_TEX_REF(tex1D)
__RLAB_TEX_REF(tex2D)
__RLAB_TEX_REF(tex3D)
#undef __RLAB_TEX_REF
#define texture \
    _Pragma("GCC error \"texture references are not supported in the lab; read the input through its pointer, in[i] (docs/student-kernels.md, Plain CUDA)\"") \
    __device__ __rlab_texture_reference

// ---- streams beyond the default (a launch on a stream: rlab_runtime_api.h) -------------------------------------
#define __RLAB_STREAM(NAME) \
    __RLAB_UNSUPPORTED_CALL(NAME, "streams are", "launch on the default stream: kernel<<<grid, block, sharedBytes>>>")
__RLAB_STREAM(cudaStreamCreate)
__RLAB_STREAM(cudaStreamCreateWithFlags)
__RLAB_STREAM(cudaStreamCreateWithPriority)
__RLAB_STREAM(cudaStreamWaitEvent)
#undef __RLAB_STREAM

// ---- grid-wide and cooperative launches, dynamic parallelism on the host side ----------------------------------
__RLAB_UNSUPPORTED_CALL(cudaLaunchCooperativeKernel, "cooperative launches are",
                        "launch with <<<grid, block, sharedBytes>>>; the lab runs the second launch over the partials")
// The runtime API called from device code (dynamic parallelism); a launch in device code clang reports itself.
#define __RLAB_DEVICE_RUNTIME "the CUDA runtime in device code (dynamic parallelism) is"
#define __RLAB_HOST_ONLY "call it from host code; kernels are launched from the host"
extern "C" {
__device__ cudaError_t cudaDeviceSynchronize(void) __RLAB_UNSUPPORTED(__RLAB_DEVICE_RUNTIME, __RLAB_HOST_ONLY);
__device__ cudaError_t cudaGetLastError(void) __RLAB_UNSUPPORTED(__RLAB_DEVICE_RUNTIME, __RLAB_HOST_ONLY);
__device__ cudaError_t cudaMalloc(void**, size_t) __RLAB_UNSUPPORTED(__RLAB_DEVICE_RUNTIME, __RLAB_HOST_ONLY);
__device__ cudaError_t cudaFree(void*) __RLAB_UNSUPPORTED(__RLAB_DEVICE_RUNTIME, __RLAB_HOST_ONLY);
}
#undef __RLAB_DEVICE_RUNTIME
#undef __RLAB_HOST_ONLY

// ---- device-side operations the lab does not model -------------------------------------------------------------
__RLAB_DEVICE void __nanosleep(unsigned int)
    __RLAB_UNSUPPORTED("__nanosleep is", "wait with __syncthreads, __syncwarp or an atomic");
__RLAB_DEVICE long long clock64()
    __RLAB_UNSUPPORTED("timing inside a kernel (clock64) is", "time the run with the lab's own timing");
__RLAB_DEVICE clock_t clock()
    __RLAB_UNSUPPORTED("timing inside a kernel (clock) is", "time the run with the lab's own timing");
#define __RLAB_SYNC_PRED(NAME)                                                                        \
    __RLAB_DEVICE int NAME(int) __RLAB_UNSUPPORTED(#NAME " (a barrier that also counts or votes) is", \
                                                   "use __syncthreads() and a __shared__ counter or __ballot_sync")
__RLAB_SYNC_PRED(__syncthreads_count);
__RLAB_SYNC_PRED(__syncthreads_and);
__RLAB_SYNC_PRED(__syncthreads_or);
#undef __RLAB_SYNC_PRED
// The sm_80 warp-reduce instructions (redux.sync) are one step the lab cannot show; shuffles show every step.
#define __RLAB_REDUX(NAME)                                                    \
    __RLAB_UNSUPPORTED_CALL(NAME, "the warp-reduce instruction " #NAME " is", \
                            "reduce the warp with __shfl_down_sync or __shfl_xor_sync")
__RLAB_REDUX(__reduce_add_sync)
__RLAB_REDUX(__reduce_min_sync)
__RLAB_REDUX(__reduce_max_sync)
__RLAB_REDUX(__reduce_and_sync)
__RLAB_REDUX(__reduce_or_sync)
__RLAB_REDUX(__reduce_xor_sync)
#undef __RLAB_REDUX
__RLAB_UNSUPPORTED_CALL(__match_any_sync, "__match_any_sync is", "use __ballot_sync")
__RLAB_UNSUPPORTED_CALL(__match_all_sync, "__match_all_sync is", "use __ballot_sync")
// The warp intrinsics without _sync: gone from sm_70 on (nvcc rejects them for sm_80 too).
#define __RLAB_NOSYNC(NAME, SYNC)                             \
    __RLAB_UNSUPPORTED_CALL(NAME, #NAME " without a mask is", \
                            "write " #SYNC "(0xffffffff, ...): sm_70 and later have only the _sync form")
__RLAB_NOSYNC(__shfl, __shfl_sync)
__RLAB_NOSYNC(__shfl_up, __shfl_up_sync)
__RLAB_NOSYNC(__shfl_down, __shfl_down_sync)
__RLAB_NOSYNC(__shfl_xor, __shfl_xor_sync)
__RLAB_NOSYNC(__ballot, __ballot_sync)
__RLAB_NOSYNC(__any, __any_sync)
__RLAB_NOSYNC(__all, __all_sync)
#undef __RLAB_NOSYNC

// ---- declarations the lab cannot give a meaning: the name reports at its use ------------------------------------
#define __managed__ \
    _Pragma("GCC error \"__managed__ variables are not supported in the lab; use a __device__ variable (docs/student-kernels.md, Plain CUDA)\"")
// Inline PTX. Defined last, after the system headers (none of which spells asm bare); __asm__ stays clang's.
#define asm \
    _Pragma("GCC error \"inline PTX (asm) is not supported in the lab; write it in CUDA C++: __shfl_*_sync, atomics, __syncwarp ... (docs/student-kernels.md, Plain CUDA)\"") \
    __asm__
