// include/rlab/cuda/device_functions.h — the device intrinsics (barriers, shuffles, votes, atomics, math): declared
// in the force-included rlab_prelude.h; this lets `#include <device_functions.h>` compile.
#pragma once

#include "rlab_prelude.h"
