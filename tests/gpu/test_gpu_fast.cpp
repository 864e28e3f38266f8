// tests/gpu/test_gpu_fast.cpp — the fast path and every bench variant against references on the GPU:
// odd sizes, misaligned inputs, every type/op/mode, determinism, and `rlab bench`'s own checks.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>
#include "core/exact_sum.h"
#include "core/schedule.h"
#include "cuda/bench_api.h"
#include "cuda/fast_reduce.h"

using namespace rl;
using namespace rl::cuda;

namespace {

struct Buffer {
    void* p = nullptr;
    explicit Buffer(size_t bytes) { REQUIRE(cudaMalloc(&p, bytes) == cudaSuccess); }
    ~Buffer() { cudaFree(p); }
};

// Random values over many magnitudes and both signs: a sum that rounds, unlike the bench's exact inputs.
std::vector<double> random_values(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> mant(-1.0, 1.0);
    std::uniform_int_distribution<int> expo(-8, 8);
    std::vector<double> v(n);
    for (double& x : v) x = std::ldexp(mant(rng), expo(rng));
    return v;
}

// Runs the fast path over the values stored as `type`, starting `offset` elements into the buffer.
double run_fast(DType type, Op op, FastMode mode, const std::vector<double>& values, size_t offset,
                std::vector<double>* stored) {
    const size_t n = values.size(), esize = type == DType::F64 ? 8 : type == DType::BF16 ? 2 : 4;
    std::vector<unsigned char> bytes((n + offset) * esize, 0);
    stored->resize(n);
    for (size_t i = 0; i < n; ++i) {
        unsigned char* dst = bytes.data() + (i + offset) * esize;
        if (type == DType::F64) {
            std::memcpy(dst, &values[i], 8);
            (*stored)[i] = values[i];
        } else if (type == DType::F32) {
            const float f = float(values[i]);
            std::memcpy(dst, &f, 4);
            (*stored)[i] = f;
        } else {
            const uint16_t h = float_to_bf16(float(values[i]));
            std::memcpy(dst, &h, 2);
            (*stored)[i] = bf16_to_float(h);
        }
    }
    Buffer in(bytes.size()), out(8);
    REQUIRE(cudaMemcpy(in.p, bytes.data(), bytes.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(out.p, 0xff, 8) == cudaSuccess);
    FastReducer r(type, op, mode);
    r.enqueue(static_cast<unsigned char*>(in.p) + offset * esize, n, out.p, nullptr);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    if (type == DType::F64) {
        double d;
        REQUIRE(cudaMemcpy(&d, out.p, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
        return d;
    }
    float f;
    REQUIRE(cudaMemcpy(&f, out.p, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    return f;
}

}  // namespace

TEST_CASE("fast path: every type, op and mode at odd sizes and misaligned starts matches the reference") {
    const DType types[] = {DType::F32, DType::BF16, DType::F64};
    const Op ops[] = {Op::Sum, Op::Max, Op::Min};
    const size_t sizes[] = {1, 3, 31, 1000, 4097, 65537, 1000003, 16777259};
    int cases = 0;
    for (DType type : types)
        for (Op op : ops)
            for (FastMode mode : {FastMode::Atomic, FastMode::Deterministic})
                for (size_t n : sizes)
                    for (size_t offset : {size_t(0), size_t(1), size_t(3)}) {
                        if (n > 1000003 && offset != 1) continue;  // the large size once, misaligned
                        const std::vector<double> values = random_values(n, n * 7 + offset);
                        std::vector<double> stored;
                        const double got = run_fast(type, op, mode, values, offset, &stored);
                        CAPTURE(to_string(type));
                        CAPTURE(to_string(op));
                        CAPTURE(int(mode));
                        CAPTURE(n);
                        CAPTURE(offset);
                        if (op == Op::Max) {
                            CHECK(got == *std::max_element(stored.begin(), stored.end()));
                        } else if (op == Op::Min) {
                            CHECK(got == *std::min_element(stored.begin(), stored.end()));
                        } else {
                            // Error bound of a tree of depth d over sum|x| in the accumulator's precision;
                            // d bounds the longest chain: per-thread items + lanes + warps + blocks + 64.
                            ExactSum exact;
                            double abs_sum = 0;
                            for (double x : stored) exact.add(x), abs_sum += std::fabs(x);
                            const double u = type == DType::F64 ? 0x1p-53 : 0x1p-24;
                            const double depth = double(n) / (132.0 * 256) + 64;
                            const double bound = depth * u / (1 - depth * u) * abs_sum;
                            CHECK(std::fabs(got - exact.rounded()) <= bound);
                        }
                        ++cases;
                    }
    MESSAGE(cases << " fast-path cases checked");
}

TEST_CASE("fast path: the deterministic mode gives identical bits on every run") {
    const std::vector<double> values = random_values(1 << 24, 99);
    std::vector<double> stored;
    const double first = run_fast(DType::F32, Op::Sum, FastMode::Deterministic, values, 0, &stored);
    for (int r = 0; r < 20; ++r) {
        const double again = run_fast(DType::F32, Op::Sum, FastMode::Deterministic, values, 0, &stored);
        CHECK(std::memcmp(&again, &first, sizeof(double)) == 0);
    }
}

TEST_CASE("rlab bench: every variant passes its exact check at every even size from 2^10 to 2^24") {
    BenchOptions o;
    o.log2_sizes = {10, 12, 14, 16, 18, 20, 22, 24};
    o.reps = 3;
    o.max_seconds_per_cell = 0.05;
    o.extra_types = true;
    BenchReport r = run_bench(o);
    for (const std::string& f : r.failures) MESSAGE(f);
    CHECK(r.failures.empty());
    for (std::string_view v : kBenchVariants)
        for (int k : o.log2_sizes) {
            CAPTURE(v);
            CAPTURE(k);
            CHECK(r.find(v, "f32", uint64_t(1) << k) != nullptr);
        }
    CHECK(r.find("fast", "bf16", 67108864) != nullptr);
    CHECK(r.find("cub", "f64", uint64_t(1) << 24) != nullptr);
    CHECK(r.find("fast", "f32", uint64_t(1) << 20, "warm", "max") != nullptr);
    for (const BenchResult& b : r.results) CHECK(b.abs_error == 0);
}
