#include "stdlib/values/det_math.h"

#include <cmath>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

namespace kc::values {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (its low bits are zero).
constexpr double kLn2Hi = 0x1.62e42fefa3800p-1;
constexpr double kLn2Lo = 0x1.ef35793c76730p-45;
constexpr double kHalfPi = 0x1.921fb54442d18p+0;

// cos x and sin x for 0 <= x <= pi/4 by their Taylor series in nested (Horner) form,
// cos x = 1 - x^2/(1*2) (1 - x^2/(3*4) (1 - ...)); the first omitted term is below 2^-70.
double cosSmall(double x) {
  double x2 = x * x, r = 1.0;
  for (int n = 22; n >= 2; n -= 2) r = 1.0 - x2 * r / static_cast<double>((n - 1) * n);
  return r;
}

double sinSmall(double x) {
  double x2 = x * x, r = 1.0;
  for (int n = 23; n >= 3; n -= 2) r = 1.0 - x2 * r / static_cast<double>((n - 1) * n);
  return x * r;
}

}  // namespace

double detLog(double x) {
  int k;
  double m = std::frexp(x, &k);  // x = m * 2^k, m in [0.5, 1)
  if (m < 0x1.6a09e667f3bcdp-1) {  // sqrt(1/2): keep m in [sqrt(1/2), sqrt(2))
    m *= 2.0;
    k -= 1;
  }
  // log m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m-1)/(m+1), |s| < 0.172; m - 1 is
  // exact (Sterbenz). Terms through s^25/25 leave a relative error below 2^-60.
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s, series = 0.0;
  for (int j = 25; j >= 3; j -= 2) series = (series + 1.0 / j) * s2;
  double logm = 2.0 * s + (2.0 * s) * series;
  double kd = static_cast<double>(k);
  return kd * kLn2Hi + (logm + kd * kLn2Lo);
}

double detCos2Pi(double t) {
  // 2*pi*t = (q + f) * pi/2 with q the quadrant; 4t, its floor and f are exact.
  double quarter = 4.0 * t;
  double qd = std::floor(quarter);
  double f = quarter - qd;
  int q = static_cast<int>(qd) & 3;
  // c = cos(f*pi/2), s = sin(f*pi/2), each through the series on [0, pi/4] (1 - f is exact).
  double c, s;
  if (f <= 0.5) {
    c = cosSmall(f * kHalfPi);
    s = sinSmall(f * kHalfPi);
  } else {
    c = sinSmall((1.0 - f) * kHalfPi);
    s = cosSmall((1.0 - f) * kHalfPi);
  }
  switch (q) {
    case 0: return c;
    case 1: return -s;
    case 2: return -c;
    default: return s;
  }
}

}  // namespace kc::values
