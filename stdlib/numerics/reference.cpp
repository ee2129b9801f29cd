#include "stdlib/numerics/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "stdlib/numerics/float_bits.h"

namespace kc::numerics::reference {
namespace {

// TF32 lives in f32 storage: its 10 fraction bits are the top 10 of f32's 23.
constexpr int kTf32Shift = 23 - 10;

std::uint64_t ones(int n) { return n == 64 ? ~0ULL : (1ULL << n) - 1; }

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

std::uint64_t tf32ToF32Bits(std::uint64_t packed) {
  const std::uint64_t sign = packed >> 18, exponent = (packed >> 10) & 0xFF;
  return sign << 31 | exponent << 23 | (packed & 0x3FF) << kTf32Shift;
}

}  // namespace

double roundTo(DType t, double x, Overflow mode) {
  if (t == DType::Bool) return x == 0.0 ? 0.0 : 1.0;
  if (isInteger(t)) return roundToInteger(t, x);
  return roundToFloat(t, x, mode);
}

std::uint64_t pack(const FloatFormat& f, double v) {
  const int fb = f.fractionBits();
  const std::uint64_t sign = std::signbit(v) ? 1 : 0;
  std::uint64_t exponent = 0, fraction = 0;
  if (std::isnan(v)) {
    exponent = ones(f.exponentBits);
    fraction = f.finiteOnly ? ones(fb) : 1ULL << (fb - 1);
  } else if (std::isinf(v)) {
    exponent = ones(f.exponentBits);
  } else if (v != 0.0) {
    double a = std::fabs(v);
    int e = std::ilogb(a);
    if (e < f.emin) {
      // Subnormal: the integer count of min-subnormal steps (the quotient is exact).
      fraction = static_cast<std::uint64_t>(a / std::ldexp(1.0, f.emin - fb));
    } else {
      exponent = static_cast<std::uint64_t>(e + f.bias);
      fraction = static_cast<std::uint64_t>(a / std::ldexp(1.0, e - fb)) - (1ULL << fb);
    }
  }
  return sign << (f.exponentBits + fb) | exponent << fb | fraction;
}

double unpack(const FloatFormat& f, std::uint64_t bits) {
  const int fb = f.fractionBits();
  const bool negative = (bits >> (f.exponentBits + fb)) & 1;
  const std::uint64_t exponent = (bits >> fb) & ones(f.exponentBits);
  const std::uint64_t fraction = bits & ones(fb);
  double a;
  if (exponent == ones(f.exponentBits) && !f.finiteOnly) {
    a = fraction == 0 ? HUGE_VAL : std::numeric_limits<double>::quiet_NaN();
  } else if (exponent == ones(f.exponentBits) && fraction == ones(fb)) {
    a = std::numeric_limits<double>::quiet_NaN();
  } else if (exponent == 0) {
    a = std::ldexp(static_cast<double>(fraction), f.emin - fb);
  } else {
    double significand = static_cast<double>((1ULL << fb) | fraction);
    a = std::ldexp(significand, static_cast<int>(exponent) - f.bias - fb);
  }
  return negative ? -a : a;
}

std::uint64_t encode(DType t, double x, Overflow mode) {
  std::uint64_t packed = pack(floatFormat(t), reference::roundTo(t, x, mode));
  return t == DType::TF32 ? tf32ToF32Bits(packed) : packed;
}

double decode(DType t, std::uint64_t bits) {
  const FloatFormat& f = floatFormat(t == DType::TF32 ? DType::F32 : t);
  if ((bits & ~ones(f.storageBits())) != 0)
    throw std::invalid_argument("bit pattern wider than " + std::string(dtypeName(t)));
  return unpack(f, bits);
}

std::uint64_t ulpDistance(DType t, double a, double b) {
  const FloatFormat& f = floatFormat(t);
  double ra = reference::roundTo(t, a), rb = reference::roundTo(t, b);
  if (std::isnan(ra) || std::isnan(rb)) return std::isnan(ra) && std::isnan(rb) ? 0 : kUlpDistanceNaN;
  // Patterns of one sign are ordered like their magnitudes; the format's own layout (not the
  // f32 storage of TF32) so each step is one value of T.
  const std::uint64_t magnitude = ones(f.storageBits() - 1);
  std::uint64_t pa = pack(f, ra), pb = pack(f, rb);
  std::uint64_t ma = pa & magnitude, mb = pb & magnitude;
  bool sameSide = std::signbit(ra) == std::signbit(rb);
  if (sameSide) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;  // both below 2^63: no wrap
}

double ulp(DType t, double x) {
  const FloatFormat& f = floatFormat(t);
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double a = std::fabs(x);
  if (a < minNormal(t)) return minSubnormal(t);
  int e = std::min(std::ilogb(a), f.emax);
  return std::ldexp(1.0, e - f.precision + 1);
}

}  // namespace kc::numerics::reference
