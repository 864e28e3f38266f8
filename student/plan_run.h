// student/plan_run.h — a plain CUDA file's launches on the emulator as the user wrote them: a --launch plan bound
// to the launch contract (in, out, tmp, n), or the one launch K<<<grid, block, block * sizeof(T)>>>(in, out, n).
// Every launch that runs is one the user wrote or asked for (docs/plain-cuda.md, the launch contract).
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "core/schedule.h"
#include "simt/program.h"
#include "student/launch_plan.h"
#include "student/launch_syntax.h"

namespace rl::student {

// The launches to run: `plan` as parsed; each launch's kernel resolved in the module and its arguments checked
// against the kernel's parameters. Throws rl::Error with one line naming the launch, the argument and what is
// allowed (a kernel the file lacks, a pointer given n, an integer given tmp, a literal that does not fit).
struct BoundLaunch {
    const simt::Kernel* kernel = nullptr;
    PlannedLaunch planned;
};
std::vector<BoundLaunch> bind_plan(const simt::Module& module, const std::vector<PlannedLaunch>& plan);

// The plan without --launch: `kernel` once as K<<<grid, block, block * sizeof(T)>>>(in, out, n) (grid 0: ceil(n /
// block)). Throws rl::Error when the kernel does not take (T* in, T* out, an integer n).
std::vector<BoundLaunch> contract_launch(const simt::Kernel& kernel, const Schedule& schedule, const std::string& file);

// Runs the launches in order over in (--n elements of the kernels' T, --input), out and tmp (each as many elements
// as the largest grid, at least one, starting at the operator's identity), n = --n, and assembles one trace.
// schedule: n, input, seed, op when op_given (else the operator of the kernels' first combine); its block and grid
// are taken from the first launch. Throws rl::Error for bad input (the schedule, an operator the kernels do not
// combine with); a kernel error of any launch is the outcome's error (one line naming the launch when there are several).
PlanOutcome run_plan(const simt::Module& module, const std::vector<BoundLaunch>& launches, Schedule schedule, bool op_given, const std::string& file,
                     const std::function<void()>& launches_done = {});

}  // namespace rl::student
