#pragma once
// The fields of an IEEE binary64 and exact powers of two, for the bit-level paths of
// rounding.cpp, float_bits.cpp and dtype.cpp.
#include <bit>
#include <cstdint>

namespace kc::numerics::bits {

inline constexpr std::uint64_t kFraction = (1ULL << 52) - 1;
inline constexpr int kMaxField = 0x7FF;  // the exponent field of Inf and NaN

inline std::uint64_t of(double x) { return std::bit_cast<std::uint64_t>(x); }
// The biased exponent field: 0 for ±0 and subnormals, kMaxField for Inf and NaN; otherwise
// ilogb(x) + 1023.
inline int field(std::uint64_t b) { return static_cast<int>((b >> 52) & kMaxField); }
// The 53-bit significand of a normal double, the implicit bit included.
inline std::uint64_t significand(std::uint64_t b) { return (b & kFraction) | (1ULL << 52); }

// 2^k exactly, for -1074 <= k <= 1023 (the subnormal ones too): ldexp(1.0, k).
inline double pow2(int k) {
  if (k >= -1022) return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
  return std::bit_cast<double>(1ULL << (k + 1074));
}

}  // namespace kc::numerics::bits
