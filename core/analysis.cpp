// core/analysis.cpp — work and span from the trace's dependencies; error against the reference.
#include "core/analysis.h"

#include "core/error_bounds.h"
#include "core/operand_order.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

namespace rl {
namespace {

bool is_combine(EventKind k) { return k == EventKind::Combine || k == EventKind::Atomic; }

}  // namespace

std::vector<uint32_t> topological_order(const Trace& t, uint32_t* cycle_at) {
    if (cycle_at) *cycle_at = kNoEvent;
    const auto& ev = t.events;
    bool forward = true;
    for (uint32_t i = 0; i < ev.size() && forward; ++i)
        for (uint32_t d : ev[i].dep)
            if (d != kNoEvent && d >= i) forward = false;
    std::vector<uint32_t> order(ev.size());
    std::iota(order.begin(), order.end(), 0u);
    if (forward) return order;
    order.clear();
    std::vector<uint8_t> state(ev.size(), 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::pair<uint32_t, int>> stack;
    for (uint32_t root = 0; root < ev.size(); ++root) {
        if (state[root]) continue;
        stack.push_back({root, 0});
        state[root] = 1;
        while (!stack.empty()) {
            auto& [i, k] = stack.back();
            if (k < 2) {
                uint32_t d = ev[i].dep[k++];
                if (d != kNoEvent && d < ev.size() && state[d] == 1 && cycle_at && *cycle_at == kNoEvent) *cycle_at = i;
                if (d != kNoEvent && d < ev.size() && state[d] == 0) {
                    state[d] = 1;
                    stack.push_back({d, 0});
                }
                continue;
            }
            state[i] = 2;
            order.push_back(i);
            stack.pop_back();
        }
    }
    return order;
}

namespace {

double ulp_of(double x, bool f64) {
    x = std::fabs(x);
    if (f64) return std::nextafter(x, INFINITY) - x;
    float f = float(x);
    return double(std::nextafter(f, INFINITY)) - double(f);
}

}  // namespace

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::Exact: return "exact";
        case Verdict::WithinBound: return "within the rounding bound";
        case Verdict::Wrong: return "wrong";
        case Verdict::Undefined: return "undefined";
        case Verdict::OrderViolated: return "order violated";
    }
    return "?";
}

uint32_t ceil_log2(uint64_t n) { return n <= 1 ? 0 : uint32_t(std::bit_width(n - 1)); }

namespace {

// Depth of the longest chain of combines into each event, in a counter of type D: 8 bits when every operand has a
// smaller step than its user, no atomic links a chain and there are fewer than 255 steps (no chain is longer), else
// 16 bits while no depth passes 65535, else 32: the parent of a large run holds the trace and these at once. False
// (nothing set) when a depth does not fit D. `each` visits the events in an order where operands come first.
template <class D, class Each>
bool spans(const Trace& t, Analysis& a, Each each) {
    const auto& ev = t.events;
    // depth_up counts only combines above the thread stage: what a thread partial passes through,
    // for bounds where the thread stage is not a chain of plain adds (core/error_bounds.h).
    std::vector<D> depth(ev.size(), 0), depth_up(ev.size(), 0);
    bool fits = true;
    each([&](uint32_t i) {
        const Event& e = ev[i];
        D best = 0, best_up = 0;
        for (uint32_t d : e.dep)
            if (d != kNoEvent && d < ev.size()) {
                best = std::max(best, depth[d]);
                best_up = std::max(best_up, depth_up[d]);
            }
        const uint64_t d = uint64_t(best) + (is_combine(e.kind) ? 1 : 0);
        fits = fits && d <= std::numeric_limits<D>::max();
        depth[i] = D(d);
        depth_up[i] = D(best_up + (is_combine(e.kind) && scope_of(t, e) != Scope::Thread ? 1 : 0));
    });
    if (!fits) return false;
    if (t.result_event == kNoEvent || t.result_event >= ev.size()) return true;
    a.span = depth[t.result_event];
    a.span_above_thread = depth_up[t.result_event];
    // Back along the chain: at each event the first operand of the greatest depth (bounded: a cycle, which no reader
    // lets in, still ends).
    uint64_t left = ev.size();
    for (uint32_t i = t.result_event; i != kNoEvent && left-- > 0;) {
        if (is_combine(ev[i].kind)) ++a.span_by_scope[size_t(scope_of(t, ev[i]))];
        uint32_t from = kNoEvent;
        for (uint32_t d : ev[i].dep)
            if (d != kNoEvent && d < ev.size() && (from == kNoEvent || depth[d] > depth[from])) from = d;
        i = from;
    }
    return true;
}

}  // namespace

Analysis analyze(const Trace& t) {
    Analysis a;
    const auto& ev = t.events;
    const Schedule& s = t.schedule;
    a.events = ev.size();
    a.serial_depth = s.n - 1;
    a.tree_depth = ceil_log2(s.n);

    {
        const std::vector<uint8_t> in_cone = dependency_mask(t, t.result_event);
        for (uint32_t i = 0; i < ev.size(); ++i) {
            const Event& e = ev[i];
            if (!is_combine(e.kind)) continue;
            if (!in_cone[i]) {
                ++a.redundant_combines;
            } else if (e.flags & kIdentityCombine) {
                ++a.identity_combines;
            } else {
                ++a.work;
                ++a.work_by_scope[size_t(scope_of(t, e))];
            }
        }
        // A run summarised by level of detail: its summarised blocks' combines are work too (their cone is not in the
        // trace; their partials reach the result through their kept stores). The scopes' rows count the kept events.
        for (const SummarisedBlocks& sb : t.detail.summarised) a.work += sb.kinds[size_t(EventKind::Combine)];
        if (t.detail.active()) a.events = t.detail.events_total;
    }

    // Span: the longest chain of combines through the dependencies. Index order is topological when every operand
    // points earlier (as rlab writes traces); a trace whose replayed atomics point forward is sorted first.
    bool forward = true, short_chains = true;
    uint32_t max_step = 0;
    for (uint32_t i = 0; i < ev.size(); ++i) {
        const Event& e = ev[i];
        max_step = std::max<uint32_t>(max_step, e.step);
        short_chains = short_chains && e.kind != EventKind::Atomic;
        for (uint32_t d : e.dep)
            if (d != kNoEvent && d < ev.size()) {
                forward = forward && d < i;
                short_chains = short_chains && ev[d].step < e.step;
            }
    }
    std::vector<uint32_t> order;
    if (!forward) order = topological_order(t);
    auto each = [&](auto&& f) {
        if (forward)
            for (uint32_t i = 0; i < ev.size(); ++i) f(i);
        else
            for (uint32_t i : order) f(i);
    };
    // (With operands at smaller steps, a chain has at most max_step + 1 combines; depth_up never passes depth.)
    if (short_chains && max_step < 255) spans<uint8_t>(t, a, each);
    else if (!spans<uint16_t>(t, a, each)) spans<uint32_t>(t, a, each);

    // Result against reference.
    a.has_result = t.result_event != kNoEvent;
    if (!a.has_result) return a;
    a.result = numeric_value(s.op, s.type, t.result_value);
    a.reference = t.reference_exact;
    const bool f64 = s.type == DType::F64;
    const bool rounding_op = is_float_type(s.type) && (s.op == Op::Sum || s.op == Op::SumCount || s.op == Op::Prod);
    // Equal infinities (an overflow the tree reaches as the exact sum does) are no error, not inf - inf = NaN.
    a.abs_error = a.result == a.reference ? 0.0 : std::fabs(a.result - a.reference);
    a.rel_error = a.reference != 0.0 ? a.abs_error / std::fabs(a.reference) : a.abs_error;
    if (is_float_type(s.type)) {
        double u = ulp_of(a.reference, f64);
        a.ulps = u > 0 ? a.abs_error / u : 0.0;
    }
    if (rounding_op) {
        // Higham: a summation tree of depth d has |error| <= gamma_d * sum|x|, gamma_d = d*u/(1-d*u);
        // a product of n factors in any order has relative error <= gamma_(n-1).
        const double unit = f64 ? 0x1.0p-53 : 0x1.0p-24;
        if (s.op == Op::Prod) {
            double d = double(s.n - 1);
            a.error_bound = d * unit / (1.0 - d * unit) * std::fabs(a.reference);
            a.bound_formula = "gamma_(n-1) * |product|, gamma_k = k*u/(1-k*u)";
        } else if (s.accum == Accum::Plain || s.op != Op::Sum) {
            double d = double(a.span);
            a.error_bound = d * unit / (1.0 - d * unit) * t.abs_sum;
            a.bound_formula = "gamma_span * sum|x|, gamma_k = k*u/(1-k*u)";
        } else {
            ErrorBound b = schedule_bound(s.accum, s.chunk(), a.span_above_thread, a.span, unit, t.abs_sum);
            a.error_bound = b.bound;
            a.bound_formula = b.formula;
        }
    }
    const uint64_t mask = (s.op == Op::SumCount || s.op == Op::ArgMax || s.op == Op::Witness || f64) ? ~0ull : 0xffffffffull;
    const bool same_bits = (t.result_value & mask) == (t.reference_value & mask);
    bool count_ok = true;
    if (s.op == Op::SumCount) count_ok = uint32_t(t.result_value >> 32) == uint32_t(s.n);
    if (t.result_flags & kUndefined) {
        a.verdict = Verdict::Undefined;
    } else if (s.op == Op::Witness) {
        a.verdict = same_bits ? Verdict::Exact : (WitnessOp::violated(unpack_value<WitnessValue>(t.result_value))
                                                      ? Verdict::OrderViolated : Verdict::Wrong);
    } else if (same_bits) {
        a.verdict = Verdict::Exact;
    } else if (s.op == Op::Max || s.op == Op::Min) {
        a.verdict = a.result == a.reference ? Verdict::Exact : Verdict::Wrong;  // +0 and -0 compare equal
    } else if (rounding_op && count_ok && std::isfinite(a.result) && a.abs_error <= a.error_bound) {
        a.verdict = Verdict::WithinBound;
    } else {
        a.verdict = Verdict::Wrong;
    }
    return a;
}

std::vector<uint8_t> dependency_mask(const Trace& t, uint32_t event) {
    const auto& ev = t.events;
    std::vector<uint8_t> seen(ev.size(), 0);
    if (event >= ev.size()) return seen;
    // Every operand points earlier (as rlab writes traces): one sweep down from the event marks its cone.
    seen[event] = 1;
    bool forward = true;
    for (uint32_t i = event + 1; i-- > 0 && forward;) {
        if (!seen[i]) continue;
        for (uint32_t d : ev[i].dep) {
            if (d == kNoEvent || d >= ev.size()) continue;
            if (d >= i) forward = false;
            seen[d] = 1;
        }
    }
    if (forward) return seen;
    // An operand pointing forward (atomics replayed out of order): a search.
    std::fill(seen.begin(), seen.end(), 0);
    std::vector<uint32_t> stack{event};
    while (!stack.empty()) {
        uint32_t i = stack.back();
        stack.pop_back();
        if (i == kNoEvent || i >= ev.size() || seen[i]) continue;
        seen[i] = 1;
        for (uint32_t d : ev[i].dep) stack.push_back(d);
    }
    return seen;
}

std::vector<uint32_t> dependency_cone(const Trace& t, uint32_t event) {
    const std::vector<uint8_t> seen = dependency_mask(t, event);
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < seen.size(); ++i)
        if (seen[i]) out.push_back(i);
    return out;
}

std::vector<Event> canonical_events(const Trace& t) {
    const auto& ev = t.events;
    std::vector<uint32_t> order(ev.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        const Event &a = ev[x], &b = ev[y];
        if (a.block != b.block) return a.block < b.block;
        if (a.step != b.step) return a.step < b.step;
        return a.thread < b.thread;
    });
    std::vector<uint32_t> rank(ev.size());
    for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    std::vector<Event> out(ev.size());
    for (uint32_t i = 0; i < order.size(); ++i) {
        out[i] = ev[order[i]];
        for (uint32_t& d : out[i].dep)
            if (d != kNoEvent) d = rank[d];
    }
    return out;
}

}  // namespace rl
