// tests/test_numerics.cpp — the numerics lab: exact reference against 128-bit integers, errors inside their bounds,
// accumulation choices as theory says, deterministic bits, atomic orders that differ.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <map>
#include <set>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/input.h"
#include "core/numerics.h"

using namespace rl;

namespace {

__extension__ typedef __int128 i128;  // GCC/Clang 128-bit integers (exact reference)
__extension__ typedef unsigned __int128 u128;
constexpr int kScale = 40;  // every test value is a multiple of 2^-40, so value * 2^40 is an integer

i128 to_fixed(double x) {
    double scaled = std::ldexp(x, kScale);
    REQUIRE(scaled == std::trunc(scaled));
    REQUIRE(std::fabs(scaled) < 0x1.0p120);
    // Split into two exact halves: a double holds up to 2^120 here, more than int64.
    double hi = std::trunc(std::ldexp(scaled, -60));
    double lo = scaled - std::ldexp(hi, 60);  // exact: |lo| < 2^60 and a multiple of scaled's ulp
    return (i128(int64_t(hi)) << 60) + i128(int64_t(lo));
}

// Rounds a 128-bit integer times 2^-40 to the nearest `mant`-bit binary float, ties to even,
// by integer arithmetic only (the independent reference; no floating-point addition involved).
double round_fixed(i128 v, int mant) {
    if (v == 0) return 0.0;
    const bool neg = v < 0;
    u128 m = neg ? (u128)(-v) : (u128)v;
    int bits = 128 - (m >> 64 ? std::countl_zero(uint64_t(m >> 64)) : 64 + std::countl_zero(uint64_t(m)));
    int shift = bits - mant;
    if (shift > 0) {
        u128 half = (u128)1 << (shift - 1);
        u128 rem = m & ((((u128)1) << shift) - 1);
        m >>= shift;
        if (rem > half || (rem == half && (m & 1))) ++m;
    } else {
        shift = 0;
    }
    double r = std::ldexp(double(uint64_t(m)), shift - kScale);  // m < 2^54: exact
    return neg ? -r : r;
}

// gamma_k = k*u/(1-k*u) (Higham §3.1), in long double.
long double gamma(uint64_t k, long double u) { return k * u / (1 - k * u); }

// Depths read from a trace's dependencies here: the longest chain of roundings (combines and atomics) to the
// result, the longest counting only those above the thread stage, and the most items one thread loaded.
// A thread-stage combine is one of a thread's own loads and earlier thread-stage combines (not the finisher's).
struct Depths {
    uint32_t span = 0, above_thread = 0;
    uint64_t items = 0;
};
Depths depths(const Trace& t) {
    const auto& ev = t.events;
    std::vector<uint8_t> own(ev.size(), 0);  // a value of the thread stage: a load or a combine of such values
    std::vector<uint32_t> all(ev.size(), 0), up(ev.size(), 0);
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> loads;
    Depths d;
    bool operands_first = true;
    for (uint32_t i = 0; i < ev.size(); ++i) {  // operands come first in an emulator trace
        const Event& e = ev[i];
        const bool rounds = e.kind == EventKind::Combine || e.kind == EventKind::Atomic;
        bool thread_stage = rounds && e.kind == EventKind::Combine && !(e.flags & kFinisher);
        uint32_t a = 0, b = 0;
        for (uint32_t dep : e.dep) {
            if (dep == kNoEvent) continue;
            if (dep >= i) {
                operands_first = false;
                continue;
            }
            a = std::max(a, all[dep]);
            b = std::max(b, up[dep]);
            thread_stage = thread_stage && own[dep] && ev[dep].block == e.block && ev[dep].thread == e.thread;
        }
        if (e.kind == EventKind::Load) {
            own[i] = !(e.flags & kFinisher);
            d.items = std::max(d.items, ++loads[{e.block, e.thread}]);
        }
        if (thread_stage) own[i] = 1;
        all[i] = a + (rounds ? 1 : 0);
        up[i] = b + (rounds && !thread_stage ? 1 : 0);
    }
    REQUIRE(operands_first);
    REQUIRE(t.result_event < ev.size());
    d.span = all[t.result_event];
    d.above_thread = up[t.result_event];
    return d;
}

Schedule values_schedule(const std::vector<double>& xs, DType type) {
    Schedule s;
    s.type = type;
    s.n = xs.size();
    s.input.kind = InputKind::Values;
    s.input.values = xs;
    return s;
}

}  // namespace

TEST_CASE("the exact reference is exact: 128-bit fixed-point sums of random doubles and floats") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        const bool f64 = trial % 2 == 0;
        const size_t n = 1 + rng() % 64;
        std::vector<double> xs;
        i128 total = 0;
        for (size_t i = 0; i < n; ++i) {
            // m * 2^e with m of 53 (or 24) bits and e in [-40, 10]: varied magnitudes, heavy cancellation
            int64_t m = int64_t(rng() >> (f64 ? 11 : 40));
            if (rng() & 1) m = -m;
            int e = -40 + int(rng() % 51);
            if (trial % 5 == 0 && i % 2 == 1) {  // exact cancellation pairs
                xs.push_back(-xs.back());
            } else {
                xs.push_back(std::ldexp(double(m), e));
            }
            total += to_fixed(xs.back());
        }
        Schedule s = values_schedule(xs, f64 ? DType::F64 : DType::F32);
        s.block = 32;
        NumericsOptions o;
        o.atomic_orders = 2;
        NumericsReport rep = compare_numerics(s, o);
        CAPTURE(trial);
        CHECK(rep.exact == round_fixed(total, 53));
        // The partials are the sum itself, not an approximation of it.
        i128 partial_total = 0;
        for (double p : rep.exact_partials) partial_total += to_fixed(p);
        CHECK(partial_total == total);
        const double ref = round_fixed(total, f64 ? 53 : 24);
        CHECK((f64 ? unpack_value<double>(rep.reference_bits) : double(unpack_value<float>(uint32_t(rep.reference_bits)))) ==
              ref);
        // Every row's error is |value - exact| exactly, rounded once.
        for (const NumericsRow& r : rep.rows) {
            CAPTURE(r.label);
            i128 diff = to_fixed(r.value) - total;
            CHECK(r.abs_error == round_fixed(diff < 0 ? -diff : diff, 53));
        }
    }
}

TEST_CASE("adversarial inputs: every row's measured error stays inside its stated bound") {
    const std::vector<InputKind> inputs{InputKind::Cancellation, InputKind::LogUniform, InputKind::Sorted,
                                        InputKind::Reversed, InputKind::Normal, InputKind::Uniform};
    const std::vector<DType> types{DType::F32, DType::BF16, DType::F16, DType::F64};
    int rows = 0;
    for (InputKind in : inputs)
        for (DType t : types)
            for (Accum a : all_accums()) {
                Schedule s;
                s.n = 3001;
                s.block = 96;
                s.items = 7;
                s.type = t;
                s.accum = a;
                s.input.kind = in;
                s.input.seed = 3;
                s.grid_stage = (int(in) + int(t)) % 2 ? GridStage::AtomicBlock : GridStage::TwoPass;
                if (!validate(s).empty()) continue;
                NumericsOptions o;
                o.atomic_orders = 6;
                NumericsReport rep = compare_numerics(s, o);
                const InputData input = make_input(s);
                // sum|x| and the sum itself in long double (64-bit mantissa): each within n*2^-64*sum|x| of exact
                long double abs_sum = 0.0L, sum = 0.0L;
                for (size_t i = 0; i < input.size(); ++i) abs_sum += std::fabs((long double)input.value(i)), sum += input.value(i);
                const long double slack = 2.0L * s.n * 0x1.0p-64L * abs_sum;
                const long double u = t == DType::F64 ? 0x1.0p-53L : 0x1.0p-24L;
                for (const NumericsRow& r : rep.rows) {
                    CAPTURE(describe(s));
                    CAPTURE(r.label);
                    CAPTURE(r.bound_formula);
                    CHECK(std::isfinite(r.value));
                    CHECK(r.bound > 0.0);
                    CHECK(r.within_bound);
                    CHECK(r.worst_abs_error <= r.bound);
                    // The bound recomputed here from its formula (docs/numerics.md), with the depths read from the trace.
                    long double bound = 0.0L;
                    const uint64_t n = s.n;
                    if (r.group == RowGroup::Serial) {
                        if (r.label.starts_with("serial left-to-right")) bound = (n - 1) * u * abs_sum;
                        else if (r.label.starts_with("serial Kahan")) bound = (2 * u + (4.0L * n + 2) * u * u) * abs_sum;
                        else if (r.label.starts_with("serial f64")) bound = (gamma(n - 1, 0x1.0p-53L) + u * (1 + gamma(n - 1, 0x1.0p-53L))) * abs_sum;
                        else if (r.label.starts_with("pairwise, whole array")) {
                            uint32_t d = 0;
                            while ((uint64_t(1) << d) < n) ++d;  // ceil(log2 n)
                            bound = gamma(d, u) * abs_sum;
                            CHECK(r.span == d);
                        } else FAIL("a serial row this test does not know: " << r.label);
                        if (!r.label.starts_with("pairwise")) CHECK(r.span == n - 1);
                    } else {
                        const Depths d = depths(emulate(r.variant, input));
                        CHECK(r.span == d.span);
                        const Accum acc = r.variant.accum;
                        if (acc == Accum::Plain) {
                            bound = gamma(d.span, u) * abs_sum;
                        } else {
                            const uint64_t k = d.items;
                            long double e = 0.0L;  // one item: no add
                            if (k > 1) {
                                if (acc == Accum::Pairwise) {
                                    uint32_t levels = 0;
                                    while ((uint64_t(1) << levels) < k) ++levels;
                                    e = gamma(levels, u);
                                } else if (acc == Accum::Kahan) {
                                    e = 2 * u + (4.0L * k + 2) * u * u;
                                } else {
                                    e = gamma(k - 1, 0x1.0p-53L) + u * (1 + gamma(k - 1, 0x1.0p-53L));
                                }
                            }
                            bound = (e + (1 + e) * gamma(d.above_thread, u)) * abs_sum;
                        }
                    }
                    CHECK(std::fabs((long double)r.bound - bound) <= 1e-12L * bound);
                    // And every result this row saw lies within it of the exact sum (the long double sum, within slack).
                    CHECK(std::fabs((long double)r.value - sum) <= bound + slack);
                    for (const BitPattern& p : r.patterns) CHECK(std::fabs((long double)p.value - sum) <= bound + slack);
                    ++rows;
                }
            }
    MESSAGE(rows << " rows checked against their bounds");
}

namespace {
const NumericsRow& row_of(const NumericsReport& rep, std::string_view label) {
    for (const NumericsRow& r : rep.rows)
        if (r.label.starts_with(label)) return r;
    FAIL("no row " << label);
    return rep.rows[0];
}
Schedule one_thread(InputKind in) {
    Schedule s;
    s.n = 50000;
    s.block = 1;  // one thread: the whole sum is the thread stage
    s.items = 50000;
    s.grid = 1;
    s.input.kind = in;
    s.input.seed = 11;
    return s;
}
}  // namespace

TEST_CASE("accumulation choices behave as theory says: sorted values and large cancellation") {
    // Ascending values: plain summation's error grows with n; Kahan's and f64's stay near one rounding.
    NumericsReport sorted = compare_numerics(one_thread(InputKind::Sorted));
    const NumericsRow& plain = row_of(sorted, "serial left-to-right");
    const NumericsRow& kahan = row_of(sorted, "serial Kahan");
    const NumericsRow& wide = row_of(sorted, "serial f64");
    const NumericsRow& pair = row_of(sorted, "pairwise, whole array");
    CHECK(kahan.bound < plain.bound / 1000.0);  // 2u + O(n u^2) against (n-1) u
    CHECK(pair.bound < plain.bound / 1000.0);   // ceil(log2 n) u against (n-1) u
    CHECK(plain.ulps > 100.0);
    CHECK(kahan.abs_error < plain.abs_error / 100.0);
    CHECK(wide.abs_error < plain.abs_error / 100.0);
    CHECK(pair.abs_error < plain.abs_error / 10.0);
    for (const NumericsRow& r : sorted.rows) CHECK(r.within_bound);

    // +B, small, -B: Kahan's correction is smaller than B's ulp when -B arrives, so it is lost and
    // Kahan gives the plain result; only the wider accumulator keeps the small values (its bound
    // says why: gamma64 is tiny, Kahan's 2u*sum|x| is not, since sum|x| is dominated by the B's).
    NumericsReport canc = compare_numerics(one_thread(InputKind::Cancellation));
    CHECK(row_of(canc, "serial Kahan").bits == row_of(canc, "serial left-to-right").bits);
    CHECK(row_of(canc, "serial f64").abs_error < row_of(canc, "serial left-to-right").abs_error / 4.0);
    CHECK(row_of(canc, "serial f64").ulps < 1.0);
    for (const NumericsRow& r : canc.rows) CHECK(r.within_bound);

    // One thread holding every item: the schedule's thread stage is the serial algorithm, bit for bit.
    const Schedule s = one_thread(InputKind::Sorted);
    auto accum_row = [&](Accum a) -> const NumericsRow& {
        for (const NumericsRow& r : sorted.rows)
            if ((r.chosen && a == Accum::Plain) || (r.group == RowGroup::Accumulation && r.label == to_string(a))) return r;
        FAIL("no accumulation row");
        return sorted.rows[0];
    };
    CHECK(accum_row(Accum::Plain).bits == plain.bits);
    CHECK(accum_row(Accum::Kahan).bits == kahan.bits);
    CHECK(accum_row(Accum::F64).bits == wide.bits);
    CHECK(accum_row(Accum::Pairwise).bits == pair.bits);
    // Their cost: Kahan 4 flops per item after the first, f64 two per item (conversion, add) and one back.
    CHECK(accum_row(Accum::Plain).flops == s.n - 1);
    CHECK(accum_row(Accum::Kahan).flops == 4 * (s.n - 1));
    CHECK(accum_row(Accum::F64).flops == 2 * s.n);
    CHECK(accum_row(Accum::Pairwise).flops == s.n - 1);
}

TEST_CASE("pairwise accumulation: the thread-scope span is ceil(log2 items), the others keep items-1") {
    for (uint32_t k : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 16u, 17u, 31u, 33u, 100u, 1000u}) {
        for (Accum a : all_accums()) {
            Schedule s;
            s.block = 32;
            s.items = k;
            s.n = uint64_t(32) * k;
            s.accum = a;
            s.input.kind = InputKind::Uniform;
            Trace t = emulate(s);
            Analysis an = analyze(t);
            CAPTURE(k);
            CAPTURE(to_string(a));
            CHECK(an.span_by_scope[0] == (a == Accum::Pairwise ? ceil_log2(k) : k - 1));
            CHECK(an.span_above_thread == 5);  // shfl-down over 32 lanes
            CHECK(an.work == s.n - 1);         // every choice still adds each item exactly once
            CHECK(an.verdict != Verdict::Wrong);
        }
    }
}

namespace {
// ---- independent replays in plain float arithmetic (what the generated CUDA source does) ----
float kahan_sum(const std::vector<float>& x) {
    float sum = x[0], c = 0.0f;
    for (size_t i = 1; i < x.size(); ++i) {
        const float y = x[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}
float wide_sum_once(const std::vector<float>& x) {
    double w = 0.0;
    for (float v : x) w += double(v);
    return float(w);
}
// Pairwise over [lo, lo+count): the binary chunks of count, largest first, each a perfect tree, then combined
// from the right (the binary counter's finish merges the two newest partials first).
float perfect_tree(const std::vector<float>& x, size_t lo, size_t count) {
    if (count == 1) return x[lo];
    return perfect_tree(x, lo, count / 2) + perfect_tree(x, lo + count / 2, count / 2);
}
float pairwise_sum(const std::vector<float>& x, size_t lo, size_t count) {
    size_t top = 1;
    while (top * 2 <= count) top *= 2;
    if (top == count) return perfect_tree(x, lo, count);
    return perfect_tree(x, lo, top) + pairwise_sum(x, lo + top, count - top);
}
// One thread's items [lo, hi) by the accumulation choice.
float thread_value(Accum a, const std::vector<float>& x, size_t lo, size_t hi) {
    if (lo >= hi) return 0.0f;  // no element: the identity
    const std::vector<float> mine(x.begin() + long(lo), x.begin() + long(hi));
    switch (a) {
        case Accum::Plain: {
            float v = mine[0];
            for (size_t i = 1; i < mine.size(); ++i) v = v + mine[i];
            return v;
        }
        case Accum::Kahan: return kahan_sum(mine);
        case Accum::F64: return wide_sum_once(mine);
        case Accum::Pairwise: return pairwise_sum(mine, 0, mine.size());
    }
    return NAN;
}
unsigned top_offset(unsigned count) {
    unsigned offset = 1;
    while (2 * offset < count) offset *= 2;
    return count > 1 ? offset : 0;
}
// Lanes [0, active) into lane 0: from the widest offset down (shfl-down, shfl-xor, smem-sequential: lane l
// takes l + offset) or from offset 1 up (shfl-down-asc, smem-divergent, smem-strided: lane l, a multiple of
// 2*offset, takes l + offset).
float warp_tree(WarpStage w, std::vector<float> v) {
    const unsigned active = unsigned(v.size());
    const bool up = w == WarpStage::ShflDownAsc || w == WarpStage::SmemDivergent || w == WarpStage::SmemStrided;
    if (up) {
        for (unsigned off = 1; off < active; off *= 2)
            for (unsigned l = 0; l + off < active; l += 2 * off) v[l] = v[l] + v[l + off];
    } else {
        for (unsigned off = top_offset(active); off > 0; off /= 2)
            for (unsigned l = 0; l < off && l + off < active; ++l) v[l] = v[l] + v[l + off];
    }
    return v[0];
}
// The values of one block's threads: each warp's tree, then warp 0's tree over the warp partials.
float block_tree(WarpStage w, const std::vector<float>& v) {
    std::vector<float> partials;
    for (size_t first = 0; first < v.size(); first += 32)
        partials.push_back(warp_tree(w, std::vector<float>(v.begin() + long(first), v.begin() + long(std::min(v.size(), first + 32)))));
    return partials.size() == 1 ? partials[0] : warp_tree(w, partials);
}
// A schedule with contiguous items and warp partials, replayed from its stages as the generated source runs them.
float replay_schedule(const Schedule& s, const std::vector<float>& x) {
    REQUIRE(s.assign == Assign::Contiguous);
    REQUIRE(s.block_stage == BlockStage::WarpPartials);
    const uint64_t n = x.size(), B = s.block;
    const uint64_t G = (n + B * s.items - 1) / (B * s.items), chunk = (n + G * B - 1) / (G * B);
    if (s.grid_stage == GridStage::AtomicElement) {  // emission order: block by block, item by item, thread by thread
        float mem = 0.0f;
        for (uint64_t b = 0; b < G; ++b)
            for (uint64_t k = 0; k < chunk; ++k)
                for (uint64_t t = 0; t < B; ++t)
                    if (const uint64_t i = (b * B + t) * chunk + k; i < std::min(n, (b * B + t + 1) * chunk)) mem = mem + x[i];
        return mem;
    }
    std::vector<float> partials(G);
    for (uint64_t b = 0; b < G; ++b) {
        std::vector<float> v(B);
        for (uint64_t t = 0; t < B; ++t) {
            const uint64_t g = b * B + t;
            v[t] = thread_value(s.accum, x, std::min(n, g * chunk), std::min(n, (g + 1) * chunk));
        }
        partials[b] = block_tree(s.warp, v);
    }
    if (G == 1) return partials[0];
    if (s.grid_stage == GridStage::AtomicBlock) {  // one atomic per block, in block order, from the identity
        float mem = 0.0f;
        for (float p : partials) mem = mem + p;
        return mem;
    }
    // two-pass, last-block, cooperative: min(block, grid) threads take consecutive partials, then one block's tree
    const uint64_t P = std::min(B, G), per = (G + P - 1) / P;
    std::vector<float> v(P, 0.0f);
    for (uint64_t t = 0; t < P; ++t)
        for (uint64_t k = 0; k < per && t * per + k < G; ++k) v[t] = k == 0 ? partials[t * per + k] : v[t] + partials[t * per + k];
    return block_tree(s.warp, v);
}
}  // namespace

TEST_CASE("deterministic schedules give identical bits on every run, each accumulation its own") {
    for (Accum a : all_accums())
        for (GridStage g : {GridStage::TwoPass, GridStage::LastBlock, GridStage::Cooperative}) {
            Schedule s;
            s.n = 50000;
            s.block = 128;
            s.items = 9;
            s.accum = a;
            s.grid_stage = g;
            s.type = DType::BF16;
            s.input.kind = InputKind::LogUniform;
            Trace t1 = emulate(s), t2 = emulate(s);
            CHECK(t1.result_value == t2.result_value);
            CHECK(canonical_events(t1).size() == canonical_events(t2).size());
        }
    Schedule s;
    s.n = 20000;
    s.block = 64;
    s.items = 16;
    s.input.kind = InputKind::Cancellation;
    NumericsReport a = compare_numerics(s), b = compare_numerics(s);
    REQUIRE(a.rows.size() == b.rows.size());
    for (size_t i = 0; i < a.rows.size(); ++i) CHECK(a.rows[i].bits == b.rows[i].bits);
    // Equal twice could be equally wrong: check against results computed here, independently of core/numerics.
    const InputData in = make_input(s);
    float left_to_right = 0.0f;
    long double wide = 0.0L;
    for (size_t i = 0; i < in.size(); ++i) left_to_right += float(in.value(i)), wide += in.value(i);
    size_t checked = 0;
    for (const NumericsRow& r : a.rows) {
        if (r.label == "serial left-to-right (f32)") {
            CHECK(float(r.value) == left_to_right);
            ++checked;
        }
        if (r.group != RowGroup::Serial && r.deterministic && r.chosen) {
            CHECK(r.bits == (emulate(r.variant).result_value & 0xffffffffu));  // the row is the schedule's own trace
            ++checked;
        }
    }
    CHECK(checked == 2);
    // The exact sum against a 64-bit-mantissa sum: that sum is within (n-1)*2^-64*sum|x| of exact, and a.exact
    // within half an ulp of double (2^-53*|exact| <= 2^-53*sum|x|).
    long double abs_sum = 0.0L;
    for (size_t i = 0; i < in.size(); ++i) abs_sum += std::fabs((long double)in.value(i));
    const long double tolerance = ((s.n - 1) * 0x1.0p-64L + 0x1.0p-53L) * abs_sum * (1 + 0x1.0p-50L);
    CHECK(std::fabs((long double)a.exact - wide) <= tolerance);
    CHECK(tolerance < 2e-15L * abs_sum);  // what the math allows, not 1e-6

    // Every row against its order replayed here in plain float arithmetic (atomic rows: the emulator's own order,
    // blocks or threads in emission order, which is the row's first run).
    std::vector<float> x(in.size());
    for (size_t i = 0; i < in.size(); ++i) x[i] = float(in.value(i));
    size_t replayed = 0;
    for (const NumericsRow& r : a.rows) {
        CAPTURE(r.label);
        float expect = 0.0f;
        if (r.group == RowGroup::Serial) {
            if (r.label.starts_with("serial left-to-right")) expect = left_to_right;
            else if (r.label.starts_with("serial Kahan")) expect = kahan_sum(x);
            else if (r.label.starts_with("serial f64")) expect = wide_sum_once(x);
            else if (r.label.starts_with("pairwise, whole array")) expect = pairwise_sum(x, 0, x.size());
            else FAIL("a serial row this test does not know: " << r.label);
        } else {
            expect = replay_schedule(r.variant, x);
        }
        CHECK(uint32_t(r.bits) == std::bit_cast<uint32_t>(expect));
        ++replayed;
    }
    CHECK(replayed == a.rows.size());
    CHECK(replayed == 4 + 1 + 5 + 3 + 4);  // serial, chosen, the other warp trees, accumulations, grid stages
}

TEST_CASE("emulated atomic completion orders give more than one bit pattern on an input built for it") {
    // Block partials 1e8, 1, -1e8, 1, ...: in f32 an order that meets 1e8 before the ones loses them.
    const uint32_t G = 16;
    std::vector<double> xs(size_t(32) * G, 0.0);
    for (uint32_t b = 0; b < G; ++b) xs[size_t(32) * b] = b % 2 ? 1.0 : (b % 4 == 0 ? 1e8 : -1e8);
    Schedule s = values_schedule(xs, DType::F32);
    s.block = 32;
    s.grid_stage = GridStage::AtomicBlock;
    NumericsOptions o;
    o.atomic_orders = 64;
    NumericsReport rep = compare_numerics(s, o);
    const NumericsRow& chosen = rep.rows[4];
    REQUIRE(chosen.chosen);
    CHECK_FALSE(chosen.deterministic);
    CHECK(chosen.runs == 64);
    CHECK(chosen.patterns.size() > 1);
    uint32_t total = 0;
    for (const BitPattern& p : chosen.patterns) total += p.count;
    CHECK(total == 64);
    CHECK(chosen.within_bound);
    MESSAGE(chosen.patterns.size() << " distinct results over 64 emulated orders");
    // Block b's partial is xs[32 b] (the rest of its block adds zeros, exactly). Every order of the sixteen
    // partials, replayed here from +0 by plain f32 additions: each pattern the row reports must be one of them.
    std::vector<float> partials(G);
    for (uint32_t b = 0; b < G; ++b) partials[b] = float(xs[size_t(32) * b]);
    std::set<uint32_t> reachable;
    {
        std::vector<float> order = partials;
        std::sort(order.begin(), order.end());
        do {  // the 16!/(4! 4! 8!) = 900900 distinct orders of the multiset
            float mem = 0.0f;
            for (float p : order) mem = mem + p;
            reachable.insert(std::bit_cast<uint32_t>(mem));
        } while (std::next_permutation(order.begin(), order.end()));
    }
    CHECK(reachable.size() > 1);
    for (const BitPattern& p : chosen.patterns) {
        CAPTURE(p.value);
        CHECK(reachable.count(uint32_t(p.bits)) == 1);
    }
    // Orders drawn here, run by the emulator, and each replayed in an independent loop: the same bits.
    std::mt19937_64 rng(266);
    std::set<uint32_t> seen;
    for (int k = 0; k < 64; ++k) {
        std::vector<uint32_t> block_at(G);  // block_at[position] = the block whose atomic lands there
        for (uint32_t b = 0; b < G; ++b) block_at[b] = b;
        std::shuffle(block_at.begin(), block_at.end(), rng);
        EmulatorOptions opt;
        opt.atomic_positions.assign(G, 0);  // atomics are emitted block by block
        for (uint32_t pos = 0; pos < G; ++pos) opt.atomic_positions[block_at[pos]] = pos;
        float mem = 0.0f;
        for (uint32_t pos = 0; pos < G; ++pos) mem = mem + partials[block_at[pos]];
        const Trace t = emulate(s, make_input(s), opt);
        CAPTURE(k);
        CHECK(uint32_t(t.result_value) == std::bit_cast<uint32_t>(mem));
        seen.insert(std::bit_cast<uint32_t>(mem));
    }
    CHECK(seen.size() > 1);
    // Two-pass over the same input: one fixed order, one pattern, the same bits every time.
    for (const NumericsRow& r : rep.rows)
        if (r.label == "two-pass") {
            CHECK(r.deterministic);
            CHECK(r.runs == 0);
        }
    // Per-element atomics: orders keep each thread's program order; the emulator accepts every one.
    s.grid_stage = GridStage::AtomicElement;
    s.n = 96;
    s.input.values.resize(96);
    s.items = 3;
    s.block = 8;
    NumericsReport el = compare_numerics(s, o);
    CHECK(el.rows[4].runs == 64);
    CHECK(el.rows[4].within_bound);
    // 4 blocks of 8 threads, 3 consecutive elements each; the non-zero elements 0 (1e8), 32 (1) and 64 (-1e8)
    // belong to threads 0, 10 and 21, so any order of those three is legal: 1e8 + 1 loses the 1 in f32.
    std::set<uint32_t> reachable_el;
    {
        std::vector<float> three{1e8f, 1.0f, -1e8f};
        std::sort(three.begin(), three.end());
        do {
            float mem = 0.0f;
            for (float v : three) mem = mem + v;
            reachable_el.insert(std::bit_cast<uint32_t>(mem));
        } while (std::next_permutation(three.begin(), three.end()));
    }
    CHECK(reachable_el == std::set<uint32_t>{std::bit_cast<uint32_t>(0.0f), std::bit_cast<uint32_t>(1.0f)});
    for (const BitPattern& p : el.rows[4].patterns) CHECK(reachable_el.count(uint32_t(p.bits)) == 1);
    // Legal orders drawn here (each thread's three atomics keep their order), replayed element by element.
    const InputData in_el = make_input(s);
    std::vector<uint32_t> emitted;  // element of each atomic in emission order: block, item, thread
    for (uint32_t b = 0; b < 4; ++b)
        for (uint32_t k = 0; k < 3; ++k)
            for (uint32_t t = 0; t < 8; ++t) emitted.push_back((b * 8 + t) * 3 + k);
    for (int k = 0; k < 64; ++k) {
        std::vector<uint32_t> owners;  // each thread three times, shuffled: its j-th turn runs its j-th element
        for (uint32_t g = 0; g < 32; ++g) owners.insert(owners.end(), 3, g);
        std::shuffle(owners.begin(), owners.end(), rng);
        std::vector<uint32_t> turn(32, 0), element_at(96);
        for (uint32_t pos = 0; pos < 96; ++pos) element_at[pos] = owners[pos] * 3 + turn[owners[pos]]++;
        EmulatorOptions opt;
        opt.atomic_positions.assign(96, 0);
        for (uint32_t pos = 0; pos < 96; ++pos)
            opt.atomic_positions[size_t(std::find(emitted.begin(), emitted.end(), element_at[pos]) - emitted.begin())] = pos;
        float mem = 0.0f;
        for (uint32_t pos = 0; pos < 96; ++pos) mem = mem + float(in_el.value(element_at[pos]));
        const Trace t = emulate(s, in_el, opt);
        CAPTURE(k);
        CHECK(uint32_t(t.result_value) == std::bit_cast<uint32_t>(mem));
    }
}

TEST_CASE("numerics and --accum refuse what they cannot do, in one line") {
    Schedule s;
    s.op = Op::Max;
    CHECK(numerics_supported(s).find("--op max") != std::string::npos);
    s.op = Op::Sum;
    s.type = DType::I32;
    CHECK(numerics_supported(s).find("--type i32") != std::string::npos);
    s.type = DType::F64;
    CHECK(set_field(s, "accum", "f64").empty());
    CHECK(validate(s).find("already f64") != std::string::npos);
    CHECK(set_field(s, "accum", "double").find("plain|f64|kahan|pairwise") != std::string::npos);
    s.type = DType::F32;
    s.accum = Accum::Kahan;
    s.op = Op::Prod;
    CHECK(validate(s).find("--op sum") != std::string::npos);
    s.op = Op::Sum;
    s.grid_stage = GridStage::AtomicElement;
    CHECK(validate(s).find("atomic") != std::string::npos);
    for (const std::string& e : {numerics_supported(s), validate(s)}) CHECK(e.find('\n') == std::string::npos);
}
