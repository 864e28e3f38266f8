// core/error_bounds.h — guaranteed rounding-error bounds for the summation orders the lab runs.
//
// Sources: Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed. (2002), §4.2 (a sum
// evaluated by any tree: each term passes through at most d roundings, |error| <= gamma_d * sum|x|,
// gamma_d = d*u/(1-d*u)) and §4.3 (compensated summation, eq. 4.8: (2u + O(n*u^2)) * sum|x|, the
// second-order term (4n+2)*u^2 taken from Goldberg, "What every computer scientist should know about
// floating-point arithmetic", 1991, proof of Theorem 8); Rump, "Error estimation of floating-point
// summation and dot product", BIT 52 (2012): recursive summation satisfies (n-1)*u*sum|x| exactly.
#pragma once
#include <cstdint>
#include <string>
#include "core/accum.h"

namespace rl {

struct ErrorBound {
    double bound = 0.0;   // on |computed - exact|
    std::string formula;  // how it was derived, with the numbers used
};

double unit_roundoff(bool f64);        // 2^-53 or 2^-24
double gamma_k(double k, double u);    // k*u / (1 - k*u); infinity once k*u >= 1

// Left to right over n terms: (n-1)*u*sum|x| (Rump 2012).
ErrorBound serial_bound(uint64_t n, double u, double abs_sum);
// Kahan over n terms: (2u + (4n+2)u^2) * sum|x|.
ErrorBound kahan_bound(uint64_t n, double u, double abs_sum);
// n terms added in double, rounded once to the accumulator (unit u): (gamma64_(n-1) + u*(1+gamma64_(n-1))) * sum|x|.
ErrorBound wide_bound(uint64_t n, double u, double abs_sum);
// Any tree whose longest leaf-to-root path has `depth` roundings: gamma_depth * sum|x|.
ErrorBound tree_bound(uint32_t depth, double u, double abs_sum);

// Relative bound e(k) of one thread's partial over its k items: |partial - exact| <= e(k) * sum|x| of those items.
double thread_stage_relative(Accum a, uint64_t k, double u);

// A hierarchical schedule: threads accumulate up to k items with `a`, then the partials meet in a
// tree whose longest path from a thread partial has `depth_above` roundings. With partial p_t = S_t + E_t,
// |E_t| <= e*sum_t|x|, the tree gives sum_t p_t*(1+theta_t), |theta_t| <= gamma_above, so
// |result - S| <= sum|E_t| + gamma_above*sum|p_t| <= (e + (1+e)*gamma_above) * sum|x|.
// For plain accumulation `span` (the trace's longest chain) gives the classic gamma_span, used instead.
ErrorBound schedule_bound(Accum a, uint64_t k, uint32_t depth_above, uint32_t span, double u, double abs_sum);

}  // namespace rl
