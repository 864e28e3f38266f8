// include/rlab/cuda/cuda.h — for files that include the driver API header only for CUDA_VERSION and the runtime's
// names (the driver API itself is outside the lab's subset): rlab_prelude.h, already force-included.
#pragma once

#include "rlab_prelude.h"
