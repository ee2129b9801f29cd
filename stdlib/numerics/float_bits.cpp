#include "stdlib/numerics/float_bits.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "stdlib/numerics/double_bits.h"
#include "stdlib/numerics/reference.h"

namespace kc::numerics {
namespace {

// TF32 lives in f32 storage: its 10 fraction bits are the top 10 of f32's 23.
constexpr int kTf32Shift = 23 - 10;

std::uint64_t ones(int n) { return n == 64 ? ~0ULL : (1ULL << n) - 1; }

// reference::pack for a normal double v, from its fields: the quotients reference::pack
// truncates are the significand shifted right.
std::uint64_t pack(const FloatFormat& f, double v) {
  const std::uint64_t b = bits::of(v);
  const int field = bits::field(b);
  if (field == 0 || field == bits::kMaxField) return reference::pack(f, v);  // ±0, subnormal, Inf, NaN
  const int fb = f.fractionBits();
  const int e = field - 1023;  // ilogb(|v|)
  std::uint64_t exponent = 0, fraction = 0;
  if (e < f.emin) {
    const int shift = 52 - fb + (f.emin - e);  // |v| / 2^(emin-fb) = significand / 2^shift
    fraction = shift < 64 ? bits::significand(b) >> shift : 0;
  } else {
    exponent = static_cast<std::uint64_t>(e + f.bias);
    fraction = (b & bits::kFraction) >> (52 - fb);  // |v| / 2^(e-fb) less the implicit 2^fb
  }
  return (b >> 63) << (f.exponentBits + fb) | exponent << fb | fraction;
}

// reference::unpack with ldexp(m, k) as m 2^k (one exact product, as the value is a double).
double unpack(const FloatFormat& f, std::uint64_t b) {
  const int fb = f.fractionBits();
  const std::uint64_t exponent = (b >> fb) & ones(f.exponentBits);
  const std::uint64_t fraction = b & ones(fb);
  if (exponent == ones(f.exponentBits)) return reference::unpack(f, b);  // Inf, NaN, e4m3fn's top binade
  double a = exponent == 0 ? static_cast<double>(fraction) * bits::pow2(f.emin - fb)
                           : static_cast<double>((1ULL << fb) | fraction) *
                                 bits::pow2(static_cast<int>(exponent) - f.bias - fb);
  return (b >> (f.exponentBits + fb)) & 1 ? -a : a;
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
