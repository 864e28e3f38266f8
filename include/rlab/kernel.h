// include/rlab/kernel.h — what a student's kernel includes: the lab types and CUDA's names, recorded on the
// emulator (detail/host.h, a host compiler) or on the GPU (detail/device.h, NVRTC).
#pragma once
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#include "detail/device.h"
#else
#include "detail/host.h"
#endif
