// core/error_bounds.cpp — the bound formulas of core/error_bounds.h, with their numbers in words.
#include "core/error_bounds.h"

#include <bit>
#include <cmath>
#include <cstdio>

#include "core/schedule.h"

namespace rl {
namespace {

std::string num(double v) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}
std::string u_name(double u) { return u == 0x1.0p-53 ? "2^-53" : u == 0x1.0p-24 ? "2^-24" : num(u); }

}  // namespace

double unit_roundoff(bool f64) { return f64 ? 0x1.0p-53 : 0x1.0p-24; }

double gamma_k(double k, double u) {
    double ku = k * u;
    return ku >= 1.0 ? INFINITY : ku / (1.0 - ku);
}

ErrorBound serial_bound(uint64_t n, double u, double abs_sum) {
    double k = double(n - 1);
    return {k * u * abs_sum, "(n-1)*u*sum|x| with n-1 = " + std::to_string(n - 1) + ", u = " + u_name(u)};
}

ErrorBound kahan_bound(uint64_t n, double u, double abs_sum) {
    double nn = double(n);
    return {(2.0 * u + (4.0 * nn + 2.0) * u * u) * abs_sum,
            "(2u + (4n+2)u^2)*sum|x| with n = " + std::to_string(n) + ", u = " + u_name(u)};
}

ErrorBound wide_bound(uint64_t n, double u, double abs_sum) {
    double g = gamma_k(double(n - 1), 0x1.0p-53);
    return {(g + u * (1.0 + g)) * abs_sum,
            "(gamma64_(n-1) + u*(1+gamma64_(n-1)))*sum|x| with n-1 = " + std::to_string(n - 1) + ", u = " + u_name(u)};
}

ErrorBound tree_bound(uint32_t depth, double u, double abs_sum) {
    return {gamma_k(depth, u) * abs_sum, "gamma_" + std::to_string(depth) + "*sum|x|, gamma_d = d*u/(1-d*u), u = " + u_name(u)};
}

double thread_stage_relative(Accum a, uint64_t k, double u) {
    if (k <= 1) return 0.0;  // one item: no add, and widening then narrowing a float is exact
    switch (a) {
        case Accum::Plain: return gamma_k(double(k - 1), u);
        case Accum::Pairwise: return gamma_k(double(std::bit_width(k - 1)), u);  // ceil(log2 k) levels
        case Accum::Kahan: return 2.0 * u + (4.0 * double(k) + 2.0) * u * u;
        case Accum::F64: {
            double g = gamma_k(double(k - 1), 0x1.0p-53);
            return g + u * (1.0 + g);
        }
    }
    return INFINITY;
}

ErrorBound schedule_bound(Accum a, uint64_t k, uint32_t depth_above, uint32_t span, double u, double abs_sum) {
    if (a == Accum::Plain) return tree_bound(span, u, abs_sum);
    double e = thread_stage_relative(a, k, u);
    double g = gamma_k(depth_above, u);
    return {(e + (1.0 + e) * g) * abs_sum,
            "(e + (1+e)*gamma_" + std::to_string(depth_above) + ")*sum|x|, e = " + std::string(to_string(a)) +
                " bound over " + std::to_string(k) + " items per thread = " + num(e) + ", u = " + u_name(u)};
}

}  // namespace rl
