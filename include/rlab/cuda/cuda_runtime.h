// include/rlab/cuda/cuda_runtime.h — the lab's stand-in for CUDA's runtime header. Everything is in rlab_prelude.h,
// which the lab force-includes as nvcc force-includes cuda_runtime.h; this lets `#include <cuda_runtime.h>` compile.
#pragma once

#include "rlab_prelude.h"
