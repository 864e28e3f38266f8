// include/rlab/cuda/cuda_runtime_api.h — the runtime API (cudaMalloc, cudaMemcpy, events, errors): declared in
// rlab_runtime_api.h through the force-included rlab_prelude.h; this lets `#include <cuda_runtime_api.h>` compile.
#pragma once

#include "rlab_prelude.h"
