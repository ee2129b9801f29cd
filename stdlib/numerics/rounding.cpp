#include "stdlib/numerics/rounding.h"

#include <algorithm>
#include <cmath>

#include "stdlib/numerics/double_bits.h"
#include "stdlib/numerics/reference.h"

namespace kc::numerics {
namespace {

// reference::roundTo's float rounding by integer arithmetic on the bits of a normal double
// x: the same quantum, the same scaled significand |x| / quantum (here an integer shifted
// right by s bits), rounded half to even, times the same quantum.
double roundToFloat(DType t, double x, Overflow mode) {
  const std::uint64_t b = bits::of(x);
  const int field = bits::field(b);
  if (field == 0 || field == bits::kMaxField) return reference::roundTo(t, x, mode);  // ±0, subnormal, Inf, NaN
  const FloatFormat& f = floatFormat(t);
  const int e = field - 1023;                                 // ilogb(|x|)
  const int eq = std::max(e, f.emin) - f.precision + 1;       // the quantum is 2^eq
  const int s = eq - (e - 52);                                // >= 0: p <= 53
  const std::uint64_t m = bits::significand(b);               // |x| = m 2^(e-52)
  std::uint64_t k = 0;                                        // round(|x| / 2^eq); 0 when s >= 64
  if (s == 0) {
    k = m;
  } else if (s < 64) {
    k = m >> s;
    const std::uint64_t rest = m & ((1ULL << s) - 1), half = 1ULL << (s - 1);
    if (rest > half || (rest == half && (k & 1))) ++k;
  }
  const double r = static_cast<double>(k) * bits::pow2(eq);
  if (r > maxFinite(t)) return reference::roundTo(t, x, mode);  // overflow: the mode decides
  return std::copysign(r, x);
}

}  // namespace

double roundTo(DType t, double x, Overflow mode) {
  if (!isFloat(t)) return reference::roundTo(t, x, mode);
  return roundToFloat(t, x, mode);
}

}  // namespace kc::numerics
