// core/exact_sum.h — exact summation of doubles by error-free transformations (Shewchuk's expansions).
#pragma once
#include <span>
#include <vector>

namespace rl {

// Holds a sum exactly as a list of non-overlapping doubles; add() never rounds.
class ExactSum {
public:
    void add(double x);
    double rounded() const;            // the exact sum correctly rounded to double
    float rounded_float() const;       // the exact sum correctly rounded to float (no double rounding)
    double residual() const;           // exact sum minus rounded(), rounded to double
    const std::vector<double>& partials() const { return partials_; }

private:
    std::vector<double> partials_;     // increasing magnitude, non-overlapping
};

double exact_sum(std::span<const double> xs);

}  // namespace rl
