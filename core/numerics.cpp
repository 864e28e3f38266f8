// core/numerics.cpp — the numerics comparison: serial orders, schedule variants, atomic orders, bounds.
//
// Sections: 1. the exact sum and errors   2. serial rows   3. schedule rows (emulated, flops from the
//           trace)   4. legal atomic completion orders   5. the table
#include "core/numerics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/analysis.h"
#include "core/emulator.h"
#include "core/error_bounds.h"
#include "core/exact_sum.h"

namespace rl {
namespace {

// ---- 1. the exact sum and errors ------------------------------------------------------------------
struct Context {
    const InputData& in;
    bool f64;         // accumulator is double (else float)
    double u;
    ExactSum exact;   // the exact sum of the inputs
};

std::string hex_of(uint64_t bits, bool f64) {
    char buf[24];
    if (f64)
        snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(bits));
    else
        snprintf(buf, sizeof buf, "0x%08x", unsigned(bits & 0xffffffffu));
    return buf;
}

double value_of(uint64_t bits, bool f64) {
    return f64 ? unpack_value<double>(bits) : double(unpack_value<float>(uint32_t(bits)));
}

// |value - exact sum|, computed exactly and rounded once: the error itself is not at the mercy of rounding.
double exact_error(const Context& c, double value) {
    if (!std::isfinite(value)) return INFINITY;
    ExactSum e = c.exact;
    e.add(-value);
    return std::fabs(e.rounded());
}

double ulp_at(double x, bool f64) {
    x = std::fabs(x);
    if (f64) return std::nextafter(x, INFINITY) - x;
    float f = float(x);
    return double(std::nextafter(f, INFINITY)) - double(f);
}

void set_result(NumericsRow& r, const Context& c, const NumericsReport& rep, uint64_t bits) {
    r.bits = bits;
    r.bits_hex = hex_of(bits, c.f64);
    r.value = value_of(bits, c.f64);
    r.abs_error = exact_error(c, r.value);
    r.rel_error = rep.exact != 0.0 ? r.abs_error / std::fabs(rep.exact) : r.abs_error;
    double ulp = ulp_at(value_of(rep.reference_bits, c.f64), c.f64);
    r.ulps = ulp > 0 ? r.abs_error / ulp : 0.0;
    r.worst_abs_error = r.abs_error;
    r.within_bound = r.abs_error <= r.bound;
}

// ---- 2. serial rows ----------------------------------------------------------------------------------
template <class A> A item(const InputData& in, size_t i) { return A(in.value(i)); }  // exact: inputs fit A

template <class A> std::vector<NumericsRow> serial_rows(const Context& c, const NumericsReport& rep) {
    const size_t n = c.in.size();
    std::vector<NumericsRow> rows;
    auto add = [&](std::string label, A v, ErrorBound b, uint32_t span, uint64_t flops, std::string how) {
        NumericsRow r;
        r.group = RowGroup::Serial;
        r.label = std::move(label);
        r.bound = b.bound;
        r.bound_formula = std::move(b.formula);
        r.span = span;
        r.flops = flops;
        r.flops_formula = std::move(how);
        set_result(r, c, rep, pack_value(v));
        rows.push_back(std::move(r));
    };
    const std::string acc = c.f64 ? "f64" : "f32";
    {
        A s = item<A>(c.in, 0);
        for (size_t i = 1; i < n; ++i) s = add_acc(s, item<A>(c.in, i));
        add("serial left-to-right (" + acc + ")", s, serial_bound(n, c.u, rep.abs_sum), uint32_t(n - 1), n - 1,
            "n-1 adds");
    }
    {
        KahanState<A> k = kahan_start(item<A>(c.in, 0));
        for (size_t i = 1; i < n; ++i) kahan_add(k, item<A>(c.in, i));
        add("serial Kahan (" + acc + ")", k.sum, kahan_bound(n, c.u, rep.abs_sum), uint32_t(n - 1),
            thread_stage_flops(Accum::Kahan, n), "4 per item after the first: y = x - c, t = s + y, c = (t - s) - y");
    }
    if (!c.f64) {
        double w = wide_start(item<A>(c.in, 0));
        for (size_t i = 1; i < n; ++i) w = wide_add(w, item<A>(c.in, i));
        add("serial f64, rounded once", wide_round<A>(w), wide_bound(n, c.u, rep.abs_sum), uint32_t(n - 1),
            thread_stage_flops(Accum::F64, n), "n conversions to f64, n-1 f64 adds, 1 conversion back");
    }
    {
        std::vector<A> stack(kPairwiseStack + 40);
        uint32_t depth = 0;
        auto plus = [](A a, A b) { return add_acc(a, b); };
        for (size_t i = 0; i < n; ++i) pairwise_push(stack.data(), depth, uint64_t(i + 1), item<A>(c.in, i), plus);
        A s = pairwise_finish(stack.data(), depth, plus);
        uint32_t d = ceil_log2(n);
        add("pairwise, whole array (" + acc + ")", s, tree_bound(d, c.u, rep.abs_sum), d, n - 1, "n-1 adds");
    }
    return rows;
}

// ---- 3. schedule rows --------------------------------------------------------------------------------
// Floating-point instructions the schedule executes: the thread stage by its accumulation choice
// (core/accum.h, per thread from its loads), and one add per combine or atomic above it.
uint64_t schedule_flops(const Trace& t, std::string& how) {
    const Schedule& s = t.schedule;
    std::vector<uint32_t> loads(size_t(t.grid) * s.block, 0);
    uint64_t above = 0;
    for (const Event& e : t.events) {
        if (e.kind == EventKind::Load) ++loads[size_t(e.block) * s.block + e.thread];
        if ((e.kind == EventKind::Combine && scope_of(t, e) != Scope::Thread) || e.kind == EventKind::Atomic) ++above;
    }
    if (s.effective_grid_stage() == GridStage::AtomicElement) {  // no thread adds anything locally
        how = std::to_string(above) + " atomic adds, one per element";
        return above;
    }
    uint64_t thread = 0;
    for (uint32_t k : loads) thread += thread_stage_flops(s.accum, k);
    const char* per = s.accum == Accum::Kahan ? "4 per item after a thread's first (Kahan)"
                      : s.accum == Accum::F64 ? "per thread: k conversions, k-1 f64 adds, 1 conversion back"
                                              : "1 per item after a thread's first";
    how = std::to_string(thread) + " in the thread stage (" + per + ") + " + std::to_string(above) +
          " combines above it (1 add each, identity lanes included)";
    return thread + above;
}

NumericsRow schedule_row(const Context& c, const NumericsReport& rep, const Schedule& s, RowGroup g, std::string label,
                         const EmulatorOptions& opt = {}) {
    Trace t = emulate(s, c.in, opt);
    Analysis a = analyze(t);
    NumericsRow r;
    r.group = g;
    r.label = std::move(label);
    r.schedule = describe(s);
    r.variant = s;
    r.span = a.span;
    ErrorBound b = schedule_bound(s.accum, s.chunk(), a.span_above_thread, a.span, c.u, rep.abs_sum);
    r.bound = b.bound;
    r.bound_formula = b.formula;
    r.flops = schedule_flops(t, r.flops_formula);
    set_result(r, c, rep, t.result_value);
    return r;
}

// ---- 4. legal atomic completion orders ------------------------------------------------------------------
// splitmix64: the same permutations on every machine and standard library.
uint64_t next_random(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Positions for the atomics of `t` (listed in emission order): any interleaving that keeps each
// thread's own atomics in program order, which is all the hardware guarantees for one address.
std::vector<uint32_t> legal_order(const Trace& t, uint64_t& rng) {
    std::vector<std::pair<uint32_t, uint64_t>> atomics;  // (emission position, issuing thread)
    for (const Event& e : t.events)
        if (e.kind == EventKind::Atomic) atomics.push_back({e.aux, uint64_t(e.block) * t.schedule.block + e.thread});
    std::sort(atomics.begin(), atomics.end());  // the emulator's own order is the emission order
    std::vector<uint64_t> owners(atomics.size());
    for (size_t i = 0; i < atomics.size(); ++i) owners[i] = atomics[i].second;
    for (size_t i = owners.size(); i > 1; --i) std::swap(owners[i - 1], owners[next_random(rng) % i]);
    // The j-th time a thread appears in the shuffled list, its j-th atomic takes that position.
    std::map<uint64_t, std::vector<uint32_t>> by_thread;
    for (size_t i = 0; i < atomics.size(); ++i) by_thread[atomics[i].second].push_back(uint32_t(i));
    std::map<uint64_t, size_t> next;
    std::vector<uint32_t> positions(atomics.size());
    for (uint32_t pos = 0; pos < owners.size(); ++pos) positions[by_thread[owners[pos]][next[owners[pos]]++]] = pos;
    return positions;
}

NumericsRow atomic_row(const Context& c, const NumericsReport& rep, const Schedule& s, RowGroup g, std::string label,
                       const NumericsOptions& o) {
    NumericsRow r = schedule_row(c, rep, s, g, std::move(label));
    r.deterministic = false;
    Trace first = emulate(s, c.in);
    std::vector<uint64_t> bits{first.result_value};
    uint64_t rng = o.order_seed;
    for (uint32_t k = 1; k < o.atomic_orders; ++k) {
        EmulatorOptions opt;
        opt.atomic_positions = legal_order(first, rng);
        bits.push_back(emulate(s, c.in, opt).result_value);
    }
    set_runs(r, rep, bits, "emulator: " + std::to_string(o.atomic_orders) + " seeded legal orders (seed " +
                               std::to_string(o.order_seed) + ")");
    return r;
}

bool is_atomic(GridStage g) { return g == GridStage::AtomicBlock || g == GridStage::AtomicElement; }

}  // namespace

std::string_view to_string(RowGroup g) {
    switch (g) {
        case RowGroup::Serial: return "serial";
        case RowGroup::Chosen: return "chosen";
        case RowGroup::WarpTree: return "warp tree";
        case RowGroup::Accumulation: return "accumulation";
        case RowGroup::GridStage: return "grid stage";
    }
    return "?";
}

std::vector<Accum> all_accums() { return {Accum::Plain, Accum::F64, Accum::Kahan, Accum::Pairwise}; }

std::string numerics_supported(const Schedule& s) {
    if (std::string err = validate(s); !err.empty()) return err;
    if (s.op != Op::Sum) return "--op " + std::string(to_string(s.op)) + ": the numerics lab compares sums; use --op sum";
    if (!is_float_type(s.type)) return "--type i32: integer sums are exact (they wrap); use --type f32, f64, bf16 or f16";
    if (s.bugs) return "--bug " + std::string(to_string(bug_list(s.bugs)[0])) + ": the numerics lab compares correct schedules; leave out --bug";
    return {};
}

void set_runs(NumericsRow& row, const NumericsReport& rep, const std::vector<uint64_t>& result_bits, std::string source) {
    const bool f64 = rep.accumulator == "f64";
    row.runs = uint32_t(result_bits.size());
    row.runs_source = std::move(source);
    row.patterns.clear();
    row.worst_abs_error = 0.0;
    row.within_bound = true;
    std::map<uint64_t, uint32_t> counts;
    for (uint64_t b : result_bits) ++counts[f64 ? b : (b & 0xffffffffull)];
    for (auto [bits, count] : counts) {
        double v = value_of(bits, f64);
        row.patterns.push_back({bits, v, count});
        // The error against the exact sum, computed like every other row's (exactly, rounded once).
        ExactSum e;
        for (double p : rep.exact_partials) e.add(p);
        e.add(-v);
        double err = std::isfinite(v) ? std::fabs(e.rounded()) : INFINITY;
        row.worst_abs_error = std::max(row.worst_abs_error, err);
        if (!(err <= row.bound)) row.within_bound = false;
    }
    std::stable_sort(row.patterns.begin(), row.patterns.end(),
                     [](const BitPattern& a, const BitPattern& b) { return a.count > b.count; });
}

NumericsReport compare_numerics(const Schedule& s, const NumericsOptions& o) { return compare_numerics(s, make_input(s), o); }

NumericsReport compare_numerics(const Schedule& s, const InputData& in, const NumericsOptions& o) {
    if (std::string err = numerics_supported(s); !err.empty()) throw Error(err);
    if (in.size() != s.n || in.type != s.type) throw Error("the input does not match the schedule's --n and --type");
    if (o.atomic_orders < 1) throw Error("--runs 0: expected at least 1 order");
    NumericsReport rep;
    rep.schedule = s;
    const bool f64 = s.type == DType::F64;
    rep.accumulator = f64 ? "f64" : "f32";
    rep.unit_roundoff = unit_roundoff(f64);
    Context c{in, f64, rep.unit_roundoff, {}};
    ExactSum abs;
    for (size_t i = 0; i < in.size(); ++i) {
        c.exact.add(in.value(i));
        abs.add(std::fabs(in.value(i)));
    }
    rep.exact_partials = c.exact.partials();
    rep.exact = c.exact.rounded();
    rep.reference_bits = f64 ? pack_value(c.exact.rounded()) : pack_value(c.exact.rounded_float());
    rep.reference_hex = hex_of(rep.reference_bits, f64);
    rep.abs_sum = std::nextafter(abs.rounded(), INFINITY);  // rounded up: the bounds stay bounds

    rep.rows = f64 ? serial_rows<double>(c, rep) : serial_rows<float>(c, rep);

    auto run = [&](const Schedule& v, RowGroup g, std::string label, bool chosen) {
        NumericsRow r = is_atomic(v.effective_grid_stage()) ? atomic_row(c, rep, v, g, std::move(label), o)
                                                            : schedule_row(c, rep, v, g, std::move(label));
        r.chosen = chosen;
        return r;
    };
    rep.rows.push_back(run(s, RowGroup::Chosen, "chosen schedule", true));
    for (int w = 0; w < 6; ++w) {
        Schedule v = s;
        v.warp = WarpStage(w);
        if (v.warp == s.warp || !validate(v).empty()) continue;
        rep.rows.push_back(run(v, RowGroup::WarpTree, std::string(to_string(v.warp)), false));
    }
    if (s.effective_grid_stage() != GridStage::AtomicElement) {
        for (Accum a : all_accums()) {
            Schedule v = s;
            v.accum = a;
            if (a == s.accum || !validate(v).empty()) continue;
            rep.rows.push_back(run(v, RowGroup::Accumulation, std::string(to_string(a)), false));
        }
    }
    for (int g = 0; g < 5; ++g) {
        Schedule v = s;
        v.grid_stage = GridStage(g);
        if (v.grid_stage == s.grid_stage) continue;
        std::string note;
        if (v.grid_stage == GridStage::AtomicElement && v.accum != Accum::Plain) {
            v.accum = Accum::Plain;
            note = "no thread stage: runs with --accum plain";
        }
        if (!validate(v).empty()) continue;
        NumericsRow r = run(v, RowGroup::GridStage, std::string(to_string(v.grid_stage)), false);
        r.note = note;
        rep.rows.push_back(std::move(r));
    }
    return rep;
}

}  // namespace rl
