#include "stdlib/numerics/error_bounds.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace kc::numerics {

double gamma(std::uint64_t n, DType t) {
  double nu = static_cast<double>(n) * unitRoundoff(t);  // exact for n < 2^53: u is 2^-p
  if (nu >= 1.0) return HUGE_VAL;
  return nu / (1.0 - nu);
}

std::uint64_t roundingDepth(SumOrder order, std::uint64_t n, std::uint64_t block,
                            bool productsRounded) {
  const std::uint64_t own = productsRounded && n > 0 ? 1 : 0;
  if (n <= 1) return own;
  switch (order) {
    case SumOrder::Recursive: return own + n - 1;
    case SumOrder::Pairwise: return own + static_cast<std::uint64_t>(std::bit_width(n - 1));
    case SumOrder::Blocked: {
      if (block == 0) throw std::invalid_argument("roundingDepth: block size 0");
      std::uint64_t b = std::min(block, n);
      std::uint64_t blocks = (n + b - 1) / b;
      return own + (b - 1) + (blocks - 1);
    }
  }
  throw std::invalid_argument("roundingDepth: unknown order");
}

double sumGamma(SumOrder order, std::uint64_t n, DType t, std::uint64_t block) {
  return gamma(roundingDepth(order, n, block, false), t);
}

double dotGamma(SumOrder order, std::uint64_t k, DType t, std::uint64_t block) {
  return gamma(roundingDepth(order, k, block, true), t);
}

double dotErrorBound(std::span<const double> a, std::span<const double> b, SumOrder order,
                     DType accumulator, std::uint64_t block) {
  if (a.size() != b.size()) throw std::invalid_argument("dotErrorBound: lengths differ");
  double magnitude = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) magnitude += std::fabs(a[i] * b[i]);
  if (magnitude == 0.0) return 0.0;  // every product is zero, so is the computed sum
  // The double evaluation of sum |a_k b_k| is itself off by at most gamma_k(f64) (all terms
  // nonnegative), and the products below add three roundings: 1 + 2 gamma_{k+3}(f64) covers
  // 1 / (1 - gamma_k) (1 + u)^3.
  double safety = 1.0 + 2.0 * gamma(a.size() + 3, DType::F64);
  return dotGamma(order, a.size(), accumulator, block) * magnitude * safety;
}

double oneRounding(DType t, double y) { return unitRoundoff(t) * std::fabs(y); }

}  // namespace kc::numerics
