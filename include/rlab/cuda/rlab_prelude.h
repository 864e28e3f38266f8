// include/rlab/cuda/rlab_prelude.h — force-included (-include) before a plain CUDA file, as nvcc force-includes
// cuda_runtime.h: everything of CUDA the lab's subset accepts, for clang's CUDA front end run with -nocudainc
// -nocudalib (no CUDA installation). Only the device side is compiled; host code must only parse.
#pragma once

#if !defined(__CUDA__) || !defined(__clang__)
#error "include/rlab/cuda is for clang's CUDA front end (clang -x cuda -nocudainc), as the lab runs it"
#endif

// The C and C++ headers nvcc's cuda_runtime.h brings in, so a file that leans on them compiles here as there.
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmath>
#include <cstdlib>
#include <new>

#include "rlab_keywords.h"
#include "rlab_types.h"
#include "rlab_runtime_api.h"
#include "rlab_device_functions.h"
#include "rlab_atomics.h"
#include "rlab_math.h"
#include "rlab_unsupported.h"
