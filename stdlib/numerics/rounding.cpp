#include "stdlib/numerics/rounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kc::numerics {
namespace {

// Nearest integer to m, ties to even. Exact: floor and the subtraction are exact in double.
double roundHalfEven(double m) {
  double f = std::floor(m);
  double rest = m - f;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(f, 2.0) != 0.0)) f += 1.0;
  return f;
}

double overflowed(const FloatFormat& f, DType t, Overflow mode) {
  if (mode == Overflow::Saturate) return maxFinite(t);
  return f.finiteOnly ? std::numeric_limits<double>::quiet_NaN()
                      : std::numeric_limits<double>::infinity();
}

double roundToFloat(DType t, double x, Overflow mode) {
  const FloatFormat& f = floatFormat(t);
  if (std::isnan(x) || x == 0.0) return x;
  if (std::isinf(x)) {
    if (mode == Overflow::Ieee && !f.finiteOnly) return x;
    return std::copysign(overflowed(f, t, mode), x);
  }
  double a = std::fabs(x);
  // The quantum of the binade of a (the subnormal quantum below 2^emin). Division by a power
  // of two is exact, so a / quantum is the exact scaled significand (< 2^p), and the product
  // back is exact too.
  int e = std::max(std::ilogb(a), f.emin);
  double quantum = std::ldexp(1.0, e - f.precision + 1);
  double r = roundHalfEven(a / quantum) * quantum;
  if (r > maxFinite(t)) r = overflowed(f, t, mode);
  return std::copysign(r, x);
}

double roundToInteger(DType t, double x) {
  if (std::isnan(x)) return 0.0;
  double lo = static_cast<double>(intMin(t));
  double hi = static_cast<double>(intMax(t));  // I64: 2^63 after rounding, clamped below
  if (x <= lo) return lo;
  if (x >= hi) return t == DType::I64 ? std::nextafter(hi, 0.0) : hi;
  return roundHalfEven(x) + 0.0;  // + 0.0 turns -0 into +0: integers have no signed zero
}

}  // namespace

double roundTo(DType t, double x, Overflow mode) {
  if (t == DType::Bool) return x == 0.0 ? 0.0 : 1.0;
  if (isInteger(t)) return roundToInteger(t, x);
  return roundToFloat(t, x, mode);
}

}  // namespace kc::numerics
