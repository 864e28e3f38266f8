// core/kernel_timing.h — `rlab run FILE.cu --backend cuda --time`: a plain CUDA kernel timed uninstrumented beside the
// fast path and CUB on the same input. The result's model, its check, its JSON and its rows; no CUDA here (the
// timing itself is cuda/plain_timer.cu's), so the front ends show a saved result on any machine.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "core/error.h"
#include "core/input.h"
#include "core/ops.h"
#include "core/schedule.h"

namespace rl {

// One launch of the plan as the timer runs it (the launch contract, docs/plain-cuda.md): an argument is a buffer of the
// contract or the element count, or an integer literal.
enum class TimedArg : uint8_t { In, Out, Tmp, N, Literal };
struct TimedLaunch {
    std::string kernel;  // as the plan names it: harris4, harris6<64>
    uint32_t grid = 1, block = 1, shared_bytes = 0;
    std::vector<TimedArg> args;
    std::vector<int64_t> literals;  // one per argument (used where the argument is a Literal)
};
// The plan written back: "harris4<<<128, 64, 256>>>(in, tmp, n); harris4<<<1, 64, 256>>>(tmp, out, 128)".
std::string timed_plan_text(const std::vector<TimedLaunch>& plan);

// A kernel parameter as its Itanium-mangled name says it: a pointer (and to what), a 32- or 64-bit integer.
enum class ParamKind : uint8_t { Pointer, Int32, Int64, Other };
struct KernelParam {
    ParamKind kind = ParamKind::Other;
    char pointee = 0;  // Pointer: the element's code (i int, j unsigned, f float, d double, ...; 0 unknown)
};
// The parameters of a __global__ function from its lowered name (_Z7harris4PiS_j, _Z7harris6ILj64EEvPiS0_j); throws
// rl::Error with one line when the name is not a mangled function name the parser reads (extern "C", a nested type).
std::vector<KernelParam> kernel_params_from_mangled(std::string_view mangled);
// The element type of a kernel whose pointer parameters are all `int`/`unsigned` (i32), `float` or `double`; throws
// rl::Error naming what was found otherwise (mixed types, as an argmax writing int indices, or no pointer).
DType element_type_of(const std::vector<KernelParam>& params, const std::string& kernel);

// What every timed repetition's out[0] is checked against: the exact reduction of the input, computed on the host.
// Integer sums wrap modulo 2^32 as the GPU's do (any order gives the same bits); max and min are exact in any order;
// a floating-point sum must equal the exact sum rounded to the type when every order computes it exactly (the inputs
// are multiples of a power of two whose sum of magnitudes fits the type's significand), else lie within
// gamma(n-1) * sum|x| of it (Higham 2002 §4.2: any order of n - 1 additions).
struct KernelCheck {
    DType type = DType::F32;
    Op op = Op::Sum;
    double reference = 0;  // the exact result (as a double: exact for every i32; rounded for f32/f64 sums)
    double tolerance = 0;  // 0: exact
    std::string text;      // "134225920 (exact)", "523776 (exact: every order sums these inputs exactly)", "... ± B"
    bool passes(double got) const;
};
// Throws rl::Error for an operator the timer does not check (argmax, ...).
KernelCheck kernel_check(const InputData& input, Op op);

// One row: the student's kernel, the fast path or CUB.
struct KernelTimingRow {
    std::string name;       // "your kernel", "fast path", "CUB"
    std::string what;       // the plan, the fast path's launch, cub::DeviceReduce::Sum
    bool timed = false;     // false: not measured, `why` says why (the fast path has no such type, the check failed)
    std::string why;
    int reps = 0;           // timed repetitions, each checked
    int wrong = 0;          // of those, how many left a result other than the reference in out[0]
    double median_us = 0, min_us = 0, max_us = 0;
    std::string result;     // out[0] after the last repetition, as text
};

struct KernelTiming {
    std::string device, driver, date;  // date: ISO 8601 UTC
    std::string file;
    std::string dtype = "f32", op = "sum", input;  // input: the --input kind (and seed), as the run named it
    uint64_t n = 0;
    double datasheet_gbps = 0;  // the vendor's memory bandwidth of the device, 0 when unknown
    KernelCheck check;
    std::string method;         // one line: how the numbers were taken
    std::vector<KernelTimingRow> rows;  // your kernel, fast path, CUB, in that order

    uint64_t bytes_read() const;  // n elements of dtype: what GB/s counts (the input read once)
};

// The vendor's memory bandwidth of a GPU named `device` (GB/s), 0 when the lab does not know the part.
double datasheet_bandwidth_gbps(std::string_view device);

// A row's figures as shown: GB/s = bytes read / median, % of the datasheet bandwidth (0 when unknown).
double row_gbps(const KernelTiming& t, const KernelTimingRow& r);
double row_percent_of_peak(const KernelTiming& t, const KernelTimingRow& r);

// The rows as cells, one vector per row: name, median µs, GB/s, % of peak, checked ("30/30 exact", "2 of 30 WRONG",
// or why it was not timed). What the terminal and both front ends show.
inline constexpr const char* kKernelTimingColumns[] = {"", "median µs", "GB/s", "% of peak", "checked"};
std::vector<std::vector<std::string>> kernel_timing_cells(const KernelTiming& t);
// The terminal form: a heading line, the three rows aligned, the check line and, for a row behind the best, how far.
std::string kernel_timing_text(const KernelTiming& t);
// True when every timed repetition of every timed row returned the reference and the student's kernel was timed.
bool kernel_timing_ok(const KernelTiming& t);

// What `rlab run FILE.cu --backend cuda --time` asks the GPU timer (cuda/plain_timer.h) to do.
struct KernelTimingRequest {
    std::string file;                // shown in messages and given to NVRTC as the program's name
    std::string source;              // the file's text, compiled as it is
    std::vector<TimedLaunch> plan;   // the launches in order
    bool single_launch = false;      // plan is the contract's one launch: its shared bytes become block * sizeof(T)
    uint64_t n = 0;
    InputSpec input;                 // the --input kind and seed (make_input over n elements of the kernel's type)
    Op op = Op::Sum;
    int reps = 30;                   // timed repetitions per row (fewer when one takes long)
    double time_limit_s = 10;        // the student's first run must end within this (else the process ends, exit 1)
    std::string cuda_include;        // the toolkit's include folder for NVRTC ("": the one the lab was built with)
};

// Why a timing did not happen: the request or the file (BadInput: exit 2), the compiler's errors (Compile: exit 2,
// `log` holds them), or the kernel failing as a program on the GPU (Program: exit 1). A hang does not come back: the
// GPU's context cannot be freed of it, so the process writes one line on stderr and ends with exit 1.
struct KernelTimingError : Error {
    enum Kind { BadInput, Compile, Program } kind;
    std::string log;
    KernelTimingError(Kind k, const std::string& what, std::string compiler_log = {})
        : Error(what), kind(k), log(std::move(compiler_log)) {}
};

// {"kernel_timing": {...}}: written by rlab run --time --format json, read by the front ends (--kernel-timing FILE).
// Reading throws rl::Error with one line naming the field.
std::string kernel_timing_to_json(const KernelTiming& t);
KernelTiming kernel_timing_from_json(std::string_view text);
KernelTiming load_kernel_timing_file(const std::string& path);

}  // namespace rl
