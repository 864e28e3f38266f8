// core/exact_sum.h — exact summation of doubles by error-free transformations (Shewchuk's expansions).
#pragma once
#include <span>
#include <vector>

namespace rl {

// Holds a sum exactly as a list of non-overlapping doubles; add() never rounds. Infinities and NaNs are
// counted apart (not added as partials), and values of 2^900 or more are summed scaled by 2^-64, so a sum
// that overflows stays exact and rounds the IEEE way: to +-inf past DBL_MAX, NaN for inf + -inf.
// Every add() costs at most the number of partials (about 40 for doubles), whatever the inputs.
class ExactSum {
public:
    void add(double x);
    double rounded() const;            // the exact sum correctly rounded to double (+-inf on overflow)
    float rounded_float() const;       // the exact sum correctly rounded to float (no double rounding)
    double residual() const;           // exact sum minus rounded(), rounded to double (0 when not finite)
    // The partials of the values below 2^900 (all of them, unless some input was that large).
    const std::vector<double>& partials() const { return partials_; }

private:
    std::vector<double> partials_;     // increasing magnitude, non-overlapping
    std::vector<double> big_;          // values of 2^900 or more, times 2^-64 (exact: no bits are lost)
    bool pos_inf_ = false, neg_inf_ = false, nan_ = false;
};

double exact_sum(std::span<const double> xs);

}  // namespace rl
