// include/rlab/detail/record_flags.h — the one raw-record flag both branches of rlab/kernel.h and the runner
// share (plain preprocessor: NVRTC, the host compiler and the runtime all include it).
#pragma once

// A load that turned out to be the left side of an assignment (s[i] = v, out[b] = v, &out[b]): the runner
// drops it before assembly (student/launch_plan.h compact_records).
#define RL_RETRACTED_RECORD 0x80u
