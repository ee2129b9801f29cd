#include "stdlib/numerics/float_bits.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace kc::numerics {
namespace {

// TF32 lives in f32 storage: its 10 fraction bits are the top 10 of f32's 23.
constexpr int kTf32Shift = 23 - 10;

std::uint64_t ones(int n) { return n == 64 ? ~0ULL : (1ULL << n) - 1; }

// The pattern of v (already a value of the format) in the format's own
// 1 + exponentBits + fractionBits layout.
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

std::uint64_t tf32ToF32Bits(std::uint64_t packed) {
  const std::uint64_t sign = packed >> 18, exponent = (packed >> 10) & 0xFF;
  return sign << 31 | exponent << 23 | (packed & 0x3FF) << kTf32Shift;
}

}  // namespace

std::uint64_t encode(DType t, double x, Overflow mode) {
  std::uint64_t packed = pack(floatFormat(t), roundTo(t, x, mode));
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
  double ra = roundTo(t, a), rb = roundTo(t, b);
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

}  // namespace kc::numerics
