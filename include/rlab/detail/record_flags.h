// include/rlab/detail/record_flags.h — what both branches of rlab/kernel.h and the runner share: the raw-record
// flag and the limit on rl::Shared declarations (plain preprocessor: NVRTC, the host compiler and the runtime all
// include it).
#pragma once

// A load that turned out to be the left side of an assignment (s[i] = v, out[b] = v, &out[b]): the runner
// drops it before assembly (student/launch_plan.h compact_records).
#define RL_RETRACTED_RECORD 0x80u

// The rl::Shared declarations one thread may construct. A declaration is one array, as a __shared__ one is, so
// one inside a loop counts once (each thread keeps a small table of its declarations: the GPU's is per thread
// in global memory).
#define RL_SHARED_SITES 8u
