// tests/simt/simt_test.h — what the simt tests share: a plain CUDA source compiled by clang-14 for the device with
// the tests' own prelude (kernels/prelude.h) and decoded; one launch over the default input 1..n; a file run the
// way `rlab run` runs it (student::run_kernel: the runner process, the lab's CUDA headers, the assembled trace).
#pragma once
#include <string>
#include <vector>
#include "core/student_record.h"
#include "simt/interpreter.h"
#include "simt/program.h"
#include "student/kernel_run.h"

namespace rl::simt_test {

// True when clang-14 can be run (the tests that compile CUDA say "SKIPPED: ..." without it).
bool have_clang();

std::string kernel_path(const std::string& name);  // tests/simt/kernels/NAME

// Compiles `source` (named `file` in line tables and messages) and decodes it. Throws rl::Error with clang's
// messages when it does not compile, or the decoder's one line.
simt::Module compile(const std::string& source, const std::string& file = "kernel.cu");
simt::Module compile_file(const std::string& name);  // a file of tests/simt/kernels
// The same with the lab's own front end and CUDA headers (student::compile_cuda_device, include/rlab/cuda).
simt::Module compile_with_lab_headers(const std::string& source, const std::string& file = "kernel.cu");

// Launch 0 of `k` as the lab launches it: (in, out, n), grid ceil(n / block), block * sizeof(T) dynamic shared
// bytes, in = 1..n (buffer 0, the input), out (buffer 1, one element per block) starting at the operator's identity;
// `out` is what out holds after the launch.
struct Launched : simt::LaunchResult {
    std::vector<simt::Slot> out;
};
// record_base: the records of earlier launches the run is taken to hold (the trace limit counts them).
Launched launch(const simt::Kernel& k, int n, uint32_t block, Op op = Op::Sum, uint32_t record_base = 0);

// A thread's records in program order (seq), with their indices in the launch's record array.
std::vector<uint32_t> thread_records(const std::vector<StudentRecord>& records, uint32_t block, uint32_t thread);

// tests/simt/kernels/NAME through the runner, as `rlab run NAME --n N --block B [--grid G] [--launch PLAN] --backend cpu`.
student::KernelOutcome run_file(const std::string& name, uint64_t n, uint32_t block, uint32_t grid = 0, const std::string& launch = {});
// `source` written to a file of its own (named `file`) and run so.
student::KernelOutcome run_source(const std::string& source, uint64_t n, uint32_t block, const std::string& file = "kernel.cu",
                                  const std::string& launch = {});
// A CUDA engineer's two launches of a kernel that stores one partial per block: K over the input into tmp (grid
// ceil(n / block)), then one block of K over the partials into out; `shared` dynamic shared bytes each. One launch,
// K<<<1, block, shared>>>(in, out, n), when a block covers n.
std::string two_pass_plan(const std::string& kernel, uint64_t n, uint32_t block, uint32_t shared);

// The result a trace shows, as a number (its packed value in the trace's element type).
double result_of(const Trace& t);

}  // namespace rl::simt_test
