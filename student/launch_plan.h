// student/launch_plan.h — the launches of a student's kernel on either backend (interface-16.md section 4):
// the first launch, the operator the kernel combines with, the lab's second launch over block partials, the
// and the records made ready for core's trace_from_student_records.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "core/student_record.h"
#include "core/student_trace.h"
#include "core/trace.h"
#include "student/kernel_backend.h"

namespace rl::student {

// The packed identity of a student run's operator (sum, max, min, prod) for its element type: out's starting
// value and what rl::identity<T>() records.
uint64_t identity_bits(DType type, Op op);

// The operator of an rl_combine_op code (simt numbers its combines so too).
Op op_of(int combine);

// Why a run of operator `run_op` cannot take a kernel that combined with the operators `used` (CombineBits), in one
// line naming both, or empty. op_given: --op named it (else it was the kernel's first).
std::string operator_mismatch(Op run_op, bool op_given, uint32_t used);

// Drops the loads flagged RL_RETRACTED_RECORD (the left side of s[i] = v / out[b] = v) from the records
// [first, end), renumbers what follows (seq, a thread's k-th Load and PartialLoad) and every dep, and returns
// the new index of each old record (kNoEvent for a dropped one), or nothing when no record was dropped (every index
// stays: the map of millions of records is not made for nothing).
std::vector<uint32_t> compact_records(std::vector<StudentRecord>& records, size_t first);

struct PlanOutcome {
    bool ok = false;
    Trace trace;          // when ok
    std::string error;    // a kernel error, one line
    bool assembly_failed = false;  // the records broke what a recorder guarantees (error says how)
};

// Runs the kernel's launches on `backend`. schedule: n, block, grid (0: ceil(n / block)), input, seed, and op
// when op_given (else the operator of the kernel's first combine or atomic). Throws rl::Error for a bad schedule, or
// for a kernel that combines with an operator other than the run's (one line naming both).
// launches_done runs after the last launch, before the assembly (the runner stops its time limit there: a large
// trace's assembly is no fault of the kernel).
PlanOutcome run_launches(KernelBackend& backend, Schedule schedule, bool op_given, Backend which,
                         const std::string& kernel_file, const std::function<void()>& launches_done = {});

}  // namespace rl::student
