// tests/gpu/test_gpu_fast.cpp — the fast path and every bench variant against references on the GPU:
// odd sizes, misaligned inputs, every type/op/mode, determinism, and `rlab bench`'s own checks.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>
#include "core/error.h"
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

// The most roundings any element's value meets on its way to the fast path's result (the depth d of the bound
// |got - exact| <= gamma_d * sum|x|, gamma_d = d u / (1 - d u)), for the launch `enqueue` makes for n elements: its
// grid and block (grid_for, block_for) and the vectors each thread loads. A thread folds each 16-byte vector into
// one accumulator per vector lane, then at most one scalar of the misaligned head or the tail into one of them: at
// most V + 1 adds into an accumulator that starts at the identity (0 + x is exact), so V roundings, V the vectors
// per thread (reduce_body: per_block / threads as enqueue computes per_block; the one-block kernels load at most
// 4, which that also bounds). Then the lanes' accumulators (elements per vector - 1), the warp's shuffles (5),
// the block's warps (log2 warps). Across blocks, atomic mode: G partials added to one word that starts at the
// identity, in any order, G - 1 roundings; deterministic mode (the look-back finish): lane l of the last block's
// warp 0 folds the partials of blocks l, l + 32, ... from the identity (ceil((G - 1) / 32) - 1 roundings), its
// shuffles (5), then the last block's own partial (1). One block: no grid stage.
double fast_depth(DType type, Op op, FastMode mode, size_t n) {
    const FastReducer r(type, op, mode);
    const uint64_t epv = type == DType::F64 ? 2 : type == DType::BF16 ? 8 : 4;
    const uint64_t grid = r.grid_for(n), threads = r.block_for(n);
    const uint64_t vectors = n / epv + 1;  // enqueue's upper bound on the vectors
    const uint64_t per_thread = ((vectors + grid - 1) / grid + threads - 1) / threads;
    uint64_t warp_steps = 0;
    while ((uint64_t(32) << warp_steps) < threads) ++warp_steps;
    uint64_t d = per_thread + (epv - 1) + 5 + warp_steps;
    if (grid > 1) d += mode == FastMode::Atomic ? grid - 1 : (grid - 1 + 31) / 32 - 1 + 5 + 1;
    return double(d);
}

// Exact inputs (as `rlab bench` uses): element i is k(i) / 256 with k(i) in +-[1, 64] (i32: k(i) itself), so
// every partial sum in any order is a multiple of 2^-8 well inside each type's exact range, and no element
// is zero: a sum that drops or doubles one element or one block differs from the exact answer.
int exact_k(uint64_t i) {
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 12345;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const int k = int(z % 64) + 1;
    return (z >> 32) & 1 ? k : -k;
}

// Exact input k stored as `type` at dst: k / 256 (i32: k itself).
void store_exact(DType type, int k, unsigned char* dst) {
    const float x = float(k) / 256.0f;
    if (type == DType::F64) {
        const double d = x;
        std::memcpy(dst, &d, 8);
    } else if (type == DType::F32) {
        std::memcpy(dst, &x, 4);
    } else if (type == DType::I32) {
        const int32_t v = k;
        std::memcpy(dst, &v, 4);
    } else {
        const uint16_t h = float_to_bf16(x);  // exact: k/256 has at most 7 significant bits
        std::memcpy(dst, &h, 2);
    }
}

// The fast path over elements [0, n) of the exact inputs stored as `type` from `offset` elements into the
// buffer, with elements [zero_from, zero_to) replaced by 0 (a control); the result's bits, widened to 8 bytes.
uint64_t run_exact(DType type, Op op, FastMode mode, size_t n, size_t offset, size_t zero_from = 0, size_t zero_to = 0,
                   FastConfig config = {}, FastReducer* reuse = nullptr) {
    const size_t esize = type == DType::F64 ? 8 : type == DType::BF16 ? 2 : 4;
    std::vector<unsigned char> bytes((n + offset) * esize, 0);
    for (size_t i = 0; i < n; ++i)
        store_exact(type, i >= zero_from && i < zero_to ? 0 : exact_k(i), bytes.data() + (i + offset) * esize);
    Buffer in(bytes.size() + 16), out(8);
    REQUIRE(cudaMemcpy(in.p, bytes.data(), bytes.size(), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(out.p, 0, 8) == cudaSuccess);
    std::unique_ptr<FastReducer> own;
    if (!reuse) own = std::make_unique<FastReducer>(type, op, mode, config);
    (reuse ? *reuse : *own).enqueue(static_cast<unsigned char*>(in.p) + offset * esize, n, out.p, nullptr);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    uint64_t bits = 0;
    REQUIRE(cudaMemcpy(&bits, out.p, type == DType::F64 ? 8 : 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    return bits;
}

// The exact answer's bits for the same elements (computed in integers, converted once).
uint64_t exact_bits(DType type, Op op, size_t n, size_t zero_from = 0, size_t zero_to = 0) {
    int64_t sum = 0;
    int mx = -1000, mn = 1000;
    for (size_t i = 0; i < n; ++i) {
        const int k = i >= zero_from && i < zero_to ? 0 : exact_k(i);
        sum += k, mx = std::max(mx, k), mn = std::min(mn, k);
    }
    const int64_t k = op == Op::Max ? mx : op == Op::Min ? mn : sum;
    uint64_t bits = 0;
    if (type == DType::I32) {
        const int32_t v = int32_t(k);
        std::memcpy(&bits, &v, 4);
    } else if (type == DType::F64) {
        const double v = double(k) / 256.0;
        std::memcpy(&bits, &v, 8);
    } else {
        const float v = float(double(k) / 256.0);
        std::memcpy(&bits, &v, 4);
    }
    return bits;
}

}  // namespace

TEST_CASE("fast path: exact inputs give the exact answer's bits for every type, op, mode, odd size and start") {
    struct Kind { DType type; Op op; };
    const Kind kinds[] = {{DType::F32, Op::Sum}, {DType::F64, Op::Sum}, {DType::I32, Op::Sum}, {DType::BF16, Op::Sum},
                          {DType::F32, Op::Max}, {DType::F32, Op::Min}, {DType::F64, Op::Max}, {DType::BF16, Op::Min}};
    const size_t sizes[] = {1, 2, 3, 7, 31, 32, 33, 1000, 4095, 4097, 65537, 1000003, 3000017};
    int cases = 0;
    for (const Kind& k : kinds)
        for (FastMode mode : {FastMode::Atomic, FastMode::Deterministic})
            for (size_t n : sizes)
                for (size_t offset : {size_t(0), size_t(1), size_t(3), size_t(5), size_t(7)}) {
                    if (n > 65537 && offset != 0 && offset != 5) continue;  // large sizes: aligned and one misaligned start
                    CAPTURE(to_string(k.type));
                    CAPTURE(to_string(k.op));
                    CAPTURE(int(mode));
                    CAPTURE(n);
                    CAPTURE(offset);
                    CHECK(run_exact(k.type, k.op, mode, n, offset) == exact_bits(k.type, k.op, n));
                    ++cases;
                }
    MESSAGE(cases << " exact fast-path cases checked bit for bit");
    CHECK(cases > 800);
}

TEST_CASE("fast path: every launch shape, in waves too, gives the exact answer's bits at a size that fills its grid") {
    // The shapes `rlab bench --tune` compares (threads, loads, blocks per SM, waves, launch bounds, finish). Each runs
    // at a size that gives its grid of waves two rounds of loads per block, so the waves and, in the deterministic
    // mode, a finish over more partials than one trip loads (both finishes' loops: 40 waves poll 21 rounds of 256
    // partials on the H200) are what is checked. Then the ticket finish of 2026-12-02 and the default.
    const FastConfig shapes[] = {{512, 8, 1, 8, 1},  {512, 8, 4, 8, 0},  {512, 8, 3, 4, 3},
                                 {256, 4, 8, 2, 8},  {512, 8, 1, 40, 1}, {512, 8, 1, 8, 1, FastFinish::Ticket},
                                 {512, 8, 1, 1, 1, FastFinish::Ticket},  {512, 8, 1, 1, 1}};
    int cases = 0;
    for (const FastConfig& c : shapes)
        for (DType type : {DType::F32, DType::F64, DType::BF16, DType::I32})
            for (FastMode mode : {FastMode::Atomic, FastMode::Deterministic}) {
                CAPTURE(c.threads);
                CAPTURE(c.unroll);
                CAPTURE(c.waves);
                CAPTURE(c.min_blocks);
                CAPTURE(int(c.finish));
                CAPTURE(to_string(type));
                CAPTURE(int(mode));
                FastReducer probe(type, Op::Sum, mode, c);
                // The grid of waves (what a huge input gets), then a size that gives each of its blocks two rounds of
                // loads and a ragged tail.
                const uint32_t grid = probe.grid_for(uint64_t(1) << 40);
                const size_t per_vector = type == DType::F64 ? 2 : type == DType::BF16 ? 8 : 4;
                const size_t n = size_t(grid) * size_t(c.threads * c.unroll) * 2 * per_vector + 7;
                REQUIRE(probe.grid_for(n) == grid);
                if (c.waves > 1) CHECK(grid > 256);  // more partials than the finish's warp loads in one trip
                CHECK(run_exact(type, Op::Sum, mode, n, 1, 0, 0, c) == exact_bits(type, Op::Sum, n));
                ++cases;
            }
    MESSAGE(cases << " launch shapes checked bit for bit");
}

TEST_CASE("fast path: launches back to back on one reducer each finish over their own partials (the flags' reset)") {
    // Two inputs whose sums differ, alternated on one reducer with no synchronisation in between: a flag the last
    // launch left set would let the finish read that launch's partial instead of waiting for this one's, and a word or
    // ticket the atomic finish left unreset would add the last launch's sum or pick the wrong last block.
    for (FastMode mode : {FastMode::Deterministic, FastMode::Atomic}) {
        for (DType type : {DType::F32, DType::F64, DType::I32}) {
            CAPTURE(int(mode));
            CAPTURE(to_string(type));
            const size_t n = 3000017, esize = type == DType::F64 ? 8 : 4;
            const uint64_t want[2] = {exact_bits(type, Op::Sum, n), exact_bits(type, Op::Sum, n, 0, 4096)};
            REQUIRE(want[0] != want[1]);
            std::vector<unsigned char> bytes[2];
            for (int v = 0; v < 2; ++v) {
                bytes[v].resize(n * esize);
                for (size_t i = 0; i < n; ++i) store_exact(type, v == 1 && i < 4096 ? 0 : exact_k(i), bytes[v].data() + i * esize);
            }
            Buffer in0(n * esize), in1(n * esize);
            const int launches = 200;
            Buffer out(size_t(launches) * esize);
            REQUIRE(cudaMemcpy(in0.p, bytes[0].data(), n * esize, cudaMemcpyHostToDevice) == cudaSuccess);
            REQUIRE(cudaMemcpy(in1.p, bytes[1].data(), n * esize, cudaMemcpyHostToDevice) == cudaSuccess);
            FastReducer r(type, Op::Sum, mode);
            REQUIRE(r.grid_for(n) > 1);
            for (int l = 0; l < launches; ++l)
                r.enqueue(l % 2 ? in1.p : in0.p, n, static_cast<unsigned char*>(out.p) + size_t(l) * esize, nullptr);
            REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            std::vector<unsigned char> got(size_t(launches) * esize);
            REQUIRE(cudaMemcpy(got.data(), out.p, got.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
            int wrong = 0;
            for (int l = 0; l < launches; ++l) {
                uint64_t bits = 0;
                std::memcpy(&bits, got.data() + size_t(l) * esize, esize);
                wrong += bits != want[l % 2];
            }
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("fast path: one-block inputs on smaller blocks give the exact answer's bits at every step between them") {
    // An input one block covers runs on 128, 256 or 512 threads (the default), or from 256 up (`rlab bench --tune`'s
    // 1-block column), on the one-block kernels (the default) or the shape's: every size around each block's limit of
    // 4 loads per thread, and the first past one block.
    int cases = 0;
    const FastConfig configs[] = {{512, 8, 1, 1, 1, FastFinish::LookBack, 128, true},
                                  {512, 8, 1, 1, 1, FastFinish::LookBack, 256, true},
                                  {512, 8, 1, 1, 1, FastFinish::LookBack, 128, false},
                                  {512, 8, 1, 1, 1, FastFinish::LookBack, 256, false}};
    for (const FastConfig& c : configs) {
        const int smallest = c.one_block_threads;
        const bool lean = c.lean_one_block;
        for (DType type : {DType::F32, DType::F64, DType::BF16, DType::I32})
            for (FastMode mode : {FastMode::Atomic, FastMode::Deterministic}) {
                const size_t per_vector = type == DType::F64 ? 2 : type == DType::BF16 ? 8 : 4;
                for (size_t vectors : {size_t(1), size_t(127), size_t(512), size_t(513), size_t(1024), size_t(1025),
                                       size_t(2048), size_t(4095), size_t(4096), size_t(4097)})
                    for (size_t extra : {size_t(0), size_t(1)}) {
                        const size_t n = vectors * per_vector - extra;
                        CAPTURE(lean);
                        CAPTURE(smallest);
                        CAPTURE(to_string(type));
                        CAPTURE(int(mode));
                        CAPTURE(n);
                        // The block the launch takes: the smallest from `smallest` up with at most 4 loads per thread
                        // (the kernel loads n / per_vector vectors at most), the full block past one block's input.
                        const FastReducer r(type, Op::Sum, mode, c);
                        const size_t loaded = n / per_vector;
                        const uint32_t want = r.grid_for(n) > 1 ? 512
                                              : loaded <= size_t(smallest) * 4 ? uint32_t(smallest)
                                              : loaded <= 1024 && smallest < 256 ? 256 : 512;
                        CHECK(r.block_for(n) == want);
                        CHECK(run_exact(type, Op::Sum, mode, n, 1, 0, 0, c) == exact_bits(type, Op::Sum, n));
                        ++cases;
                    }
            }
    }
    for (Op op : {Op::Max, Op::Min})  // the default's small blocks for the other operators
        for (size_t n : {size_t(5), size_t(2047), size_t(4096), size_t(16383)}) {
            CAPTURE(to_string(op));
            CAPTURE(n);
            CHECK(run_exact(DType::F32, op, FastMode::Deterministic, n, 3) == exact_bits(DType::F32, op, n));
            ++cases;
        }
    MESSAGE(cases << " one-block cases checked bit for bit");
    // What a block smaller than a warp or larger than the shape's would be is refused in one line.
    for (int threads : {-128, 1024})
        CHECK_THROWS_WITH_AS(
            FastReducer(DType::F32, Op::Sum, FastMode::Atomic, FastConfig{512, 8, 1, 1, 1, FastFinish::LookBack, threads}),
            doctest::Contains("one-block threads must be from 32"), Error);
    // The one-block kernels are built for 128, 256 and 512 threads; a block between them is refused the same way.
    CHECK_THROWS_WITH_AS(
        FastReducer(DType::F32, Op::Sum, FastMode::Atomic, FastConfig{512, 8, 1, 1, 1, FastFinish::LookBack, 64}),
        doctest::Contains("no one-block kernel of 64 threads"), Error);
}

TEST_CASE("fast path: a reducer that ran a larger grid ignores the partials it left (the finish's mask)") {
    // The finish reads the partials of the launch's grid alone; a launch on the full grid leaves 132 partials behind
    // (on the H200), so a smaller grid after it on the same reducer shows any stale one it counts. (A grid of more
    // than one block starts past one block's 8 loads per thread: 9 blocks.)
    for (DType type : {DType::F32, DType::F64, DType::BF16, DType::I32}) {
        FastReducer r(type, Op::Sum, FastMode::Deterministic);
        const size_t per_vector = type == DType::F64 ? 2 : type == DType::BF16 ? 8 : 4;
        const size_t full = size_t(1) << 22;
        for (size_t blocks : {size_t(9), size_t(10), size_t(11), size_t(17), size_t(33), size_t(66), size_t(129)}) {
            if (blocks >= r.grid_for(full)) continue;  // a GPU with fewer SMs
            CAPTURE(to_string(type));
            CAPTURE(blocks);
            CHECK(run_exact(type, Op::Sum, FastMode::Deterministic, full, 0, 0, 0, {}, &r) ==
                  exact_bits(type, Op::Sum, full));
            const size_t n = (blocks - 1) * 512 * per_vector + 5;  // (blocks - 1) block widths and a ragged rest
            REQUIRE(r.grid_for(n) == uint32_t(blocks));
            CHECK(run_exact(type, Op::Sum, FastMode::Deterministic, n, 1, 0, 0, {}, &r) == exact_bits(type, Op::Sum, n));
        }
    }
}

TEST_CASE("fast path: the exact check catches a dropped element and a dropped block (controls)") {
    for (DType type : {DType::F32, DType::F64, DType::I32, DType::BF16})
        for (size_t n : {size_t(4097), size_t(1000003)}) {
            CAPTURE(to_string(type));
            CAPTURE(n);
            const uint64_t whole = exact_bits(type, Op::Sum, n);
            // One element fewer: the sum must differ (no element is zero), and the fast path over n - 1 shows it.
            REQUIRE(exact_bits(type, Op::Sum, n - 1) != whole);
            CHECK(run_exact(type, Op::Sum, FastMode::Atomic, n - 1, 1) != whole);
            // One block's worth of elements (512 threads x one 16-byte vector each) zeroed at the start of the
            // input: where that range does not sum to zero, the result must differ.
            const size_t block = 512 * (type == DType::F64 ? 2 : type == DType::BF16 ? 8 : 4);
            size_t from = 0;
            while (exact_bits(type, Op::Sum, n, from, from + block) == whole) from += block;
            REQUIRE(from + block <= n);
            CHECK(run_exact(type, Op::Sum, FastMode::Atomic, n, 3, from, from + block) != whole);
            CHECK(run_exact(type, Op::Sum, FastMode::Deterministic, n, 0, from, from + block) ==
                  exact_bits(type, Op::Sum, n, from, from + block));
        }
}

TEST_CASE("fast path: every type, op and mode at odd sizes and misaligned starts matches the reference") {
    const DType types[] = {DType::F32, DType::BF16, DType::F64};
    const Op ops[] = {Op::Sum, Op::Max, Op::Min};
    const size_t sizes[] = {1, 3, 31, 1000, 4097, 65537, 1000003, 16777259};
    int cases = 0, controls = 0;
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
                            // Error bound of a tree of depth d over sum|x| in the accumulator's precision, d the
                            // launch's own (fast_depth). A result that lost one element x is off by at least
                            // |x| - bound, so it fails wherever |x| > 2 bound. The elements are m 2^e, m uniform in
                            // (-1, 1), e uniform in [-8, 8]: mean |x| = (2^9 - 2^-8) / 34 = 15.06, sum|x| = 15.06 n,
                            // so one element of mean magnitude is caught where 2 d u n < 1. f64 (u = 2^-53): at every
                            // size here (d <= 266, n < 2^24 + 44: 2 d u n < 1e-6). f32 and bf16 (u = 2^-24, the float
                            // accumulator): at 65537 and below (f32 atomic: G = 33 blocks of 512 threads, one vector
                            // each, d = 1 + 3 + 5 + 4 + 32 = 45, 2 d u n = 0.35; bf16: 17 blocks, d = 1 + 7 + 5 + 4 +
                            // 16 = 33, 0.26), but not at 1000003 (f32 deterministic: 132 blocks, 4 vectors a thread,
                            // d = 4 + 3 + 5 + 4 + 10 = 26, 2 d u n = 3.1) or 2^24 + 43 (d = 85, 2 d u n = 170): no
                            // bound that holds for every rounding is below a typical element there. A dropped element
                            // at those sizes fails the exact k/256 controls ("the exact check catches a dropped
                            // element"); here, the largest element dropped (set to 0) must fail the bound wherever
                            // it exceeds twice the bound (the old depth, n / (132 * 256) + 64 = 560 at 2^24 + 43,
                            // let about 560 elements of mean magnitude go; in atomic mode at 1000003, where the 131
                            // atomics give d = 147-149, it was below the launch's depth, no bound at all).
                            ExactSum exact;
                            double abs_sum = 0;
                            size_t largest = 0;
                            for (size_t i = 0; i < stored.size(); ++i) {
                                exact.add(stored[i]), abs_sum += std::fabs(stored[i]);
                                if (std::fabs(stored[i]) > std::fabs(stored[largest])) largest = i;
                            }
                            const double u = type == DType::F64 ? 0x1p-53 : 0x1p-24;
                            const double depth = fast_depth(type, op, mode, n);
                            CAPTURE(depth);
                            const double bound = depth * u / (1 - depth * u) * abs_sum;
                            CHECK(std::fabs(got - exact.rounded()) <= bound);
                            if (std::fabs(stored[largest]) > 2 * bound) {  // the control: the bound sees a lost element
                                std::vector<double> dropped = values, stored_dropped;
                                dropped[largest] = 0;
                                const double lost = run_fast(type, op, mode, dropped, offset, &stored_dropped);
                                CHECK(std::fabs(lost - exact.rounded()) > bound);
                                ++controls;
                            }
                        }
                        ++cases;
                    }
    MESSAGE(cases << " fast-path cases checked; " << controls << " with the largest element dropped failed the bound");
    CHECK(controls >= 116);  // every f64 sum (44), and the f32 and bf16 sums up to 65537 elements (72) at least
}

TEST_CASE("fast path: max and min of one sign, with NaNs, zeros and infinities, in both modes") {
    // The atomic mode combines max and min as integer atomics on the floats' bits, one comparison for each sign:
    // inputs of one sign take one branch throughout (each operator and sign once), and NaNs (never the result, as
    // OpT::combine never lets one in), signed zeros that are not the result and an infinity must not change it.
    const size_t n = 1000003;
    for (DType type : {DType::F32, DType::F64})
        for (Op op : {Op::Max, Op::Min})
            for (int sign : {-1, 1})
                for (FastMode mode : {FastMode::Atomic, FastMode::Deterministic}) {
                    std::vector<double> values = random_values(n, 17 + size_t(sign + 1));
                    for (double& x : values) x = sign * (std::fabs(x) + 1.0);
                    for (size_t i = 0; i < n; i += 4099) values[i] = std::nan("");
                    if ((op == Op::Max) == (sign > 0)) values[7] = 0.0, values[n - 2] = -0.0;  // below (above) the result
                    values[11] = op == Op::Max ? -INFINITY : INFINITY;  // the identity's own value
                    std::vector<double> stored;
                    const double got = run_fast(type, op, mode, values, 1, &stored);
                    double want = op == Op::Max ? -INFINITY : INFINITY;
                    for (double x : stored)
                        if (!std::isnan(x)) want = op == Op::Max ? std::max(want, x) : std::min(want, x);
                    CAPTURE(to_string(type));
                    CAPTURE(to_string(op));
                    CAPTURE(sign);
                    CAPTURE(int(mode));
                    CHECK(got == want);
                }
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

TEST_CASE("rlab bench --fast-matrix: every cell of every type at powers and misaligned odd sizes, one row each, per-round medians") {
    BenchOptions o;
    o.fast_matrix = true;
    o.log2_sizes = {10, 13};
    o.odd_sizes = {1001, 1000003};
    o.caches = {"warm", "cold"};
    o.rounds = 2;
    o.reps = 3;
    o.max_seconds_per_cell = 0.02;
    BenchReport r = run_bench(o);
    for (const std::string& f : r.failures) MESSAGE(f);
    CHECK(r.failures.empty());
    CHECK(r.results.size() == 2 * 4 * 6 * 3);  // caches x sizes x type/op kinds x variants
    for (const BenchResult& b : r.results) {
        CAPTURE(b.variant);
        CAPTURE(b.dtype);
        CAPTURE(b.n);
        CHECK(b.round_medians_us.size() == 2);
        CHECK(b.offset == ((b.n & (b.n - 1)) == 0 ? 0u : 1u));
        CHECK(b.abs_error == 0);
        CHECK(b.min_us <= b.median_us);
    }
    // One row per cell: the JSON reader refuses a repeated cell, so the report must read back whole.
    CHECK(bench_from_json(bench_to_json(r)).results.size() == r.results.size());
    CHECK(r.find("fast", "i32", 1000003, "cold", "sum", 1) != nullptr);
}
