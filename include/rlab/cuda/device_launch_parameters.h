// include/rlab/cuda/device_launch_parameters.h — threadIdx, blockIdx, blockDim, gridDim, warpSize: declared in
// rlab_types.h through the force-included rlab_prelude.h; this lets `#include <device_launch_parameters.h>` compile.
#pragma once

#include "rlab_prelude.h"
