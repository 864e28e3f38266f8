// core/exact_sum.cpp — Shewchuk's grow-expansion with TwoSum, and correct rounding at the end.
#include "core/exact_sum.h"

#include <cmath>

namespace rl {

namespace {

constexpr double kBig = 0x1.0p900;     // a sum of 2^32 values below this cannot overflow
constexpr double kDown = 0x1.0p-64, kUp = 0x1.0p64;

// Shewchuk's grow-expansion: adds x to the non-overlapping partials exactly.
void grow(std::vector<double>& partials_, double x) {
    size_t kept = 0;
    for (double y : partials_) {
        if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
        double hi = x + y;
        double lo = y - (hi - x);  // Fast2Sum: exact because |x| >= |y|
        if (lo != 0.0) partials_[kept++] = lo;
        x = hi;
    }
    partials_.resize(kept);
    partials_.push_back(x);
}

double round_partials(const std::vector<double>& partials_);

}  // namespace

void ExactSum::add(double x) {
    if (std::isnan(x)) nan_ = true;
    else if (std::isinf(x)) (x > 0 ? pos_inf_ : neg_inf_) = true;
    else if (std::fabs(x) >= kBig) grow(big_, x * kDown);
    else grow(partials_, x);
}

double ExactSum::rounded() const {
    if (nan_ || (pos_inf_ && neg_inf_)) return std::nan("");
    if (pos_inf_) return INFINITY;
    if (neg_inf_) return -INFINITY;
    if (big_.empty()) return round_partials(partials_);
    // Round in the scaled domain, where nothing overflows: the small partials scaled by 2^-64 lose only
    // bits below 2^-1010, far under the rounding of a sum holding a value of 2^900 or more.
    std::vector<double> all = big_;
    for (double p : partials_) grow(all, p * kDown);
    const double r = round_partials(all);
    if (r == 0.0) return round_partials(partials_);  // the large values cancelled exactly
    return r * kUp;  // exact, or +-inf exactly when the correctly rounded sum passes DBL_MAX
}

namespace {

double round_partials(const std::vector<double>& partials_) {
    // Sum from the top down; stop when the remaining partials cannot change the rounding,
    // then correct a tie exactly half an ulp away (the approach of Python's math.fsum).
    if (partials_.empty()) return 0.0;
    size_t i = partials_.size();
    double hi = partials_[--i];
    double lo = 0.0;
    while (i > 0) {
        double x = hi, y = partials_[--i];
        hi = x + y;
        double yr = hi - x;
        lo = y - yr;
        if (lo != 0.0) break;
    }
    if (i > 0 && ((lo < 0.0 && partials_[i - 1] < 0.0) || (lo > 0.0 && partials_[i - 1] > 0.0))) {
        double y = lo * 2.0;
        double x = hi + y;
        double yr = x - hi;
        if (y == yr) hi = x;
    }
    return hi;
}

}  // namespace

double ExactSum::residual() const {
    if (!std::isfinite(rounded())) return 0.0;
    ExactSum r = *this;
    r.add(-rounded());
    return r.rounded();
}

float ExactSum::rounded_float() const {
    double hi = rounded();
    float f = float(hi);
    if (double(f) == hi || !std::isfinite(f)) return f;
    // hi is not a float; the rounding to float is only at risk when hi sits exactly on a midpoint.
    float other = double(f) < hi ? std::nextafter(f, INFINITY) : std::nextafter(f, -INFINITY);
    double mid = (double(f) + double(other)) * 0.5;  // exact: floats have 24 bits, doubles 53
    if (hi != mid) return f;
    double r = residual();
    if (r == 0.0) return f;  // a true tie: float() already rounded it to even
    return (r > 0.0) == (double(other) > double(f)) ? other : f;
}

double exact_sum(std::span<const double> xs) {
    ExactSum s;
    for (double x : xs) s.add(x);
    return s.rounded();
}

}  // namespace rl
