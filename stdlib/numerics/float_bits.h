#pragma once
#include <cstdint>

#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/rounding.h"

namespace kc::numerics {

// Bit patterns of the float formats F8E4M3, F8E5M2, F16, BF16, F32, F64 (sign, biased
// exponent, fraction; in the low storageBits() bits) and TF32, stored as an f32 pattern with
// the low 13 fraction bits zero. Other dtypes throw std::invalid_argument.

// roundTo(t, x, mode), then its pattern. NaN keeps the sign of x and becomes the canonical
// quiet NaN: fraction MSB set (e4m3fn: S.1111.111, its only NaN).
std::uint64_t encode(DType t, double x, Overflow mode = Overflow::Ieee);

// The exact value of a pattern. Throws std::invalid_argument when bits above the storage
// width are set. TF32 decodes any f32 pattern (as f32).
double decode(DType t, std::uint64_t bits);

// What ulpDistance answers when exactly one operand is NaN.
inline constexpr std::uint64_t kUlpDistanceNaN = UINT64_MAX;

// The number of steps between a and b along the ordered values of T, after rounding both to T
// (Overflow::Ieee): 0 for equal values and for -0 vs +0, 1 between neighbours, 1 between max
// finite and Inf; 0 when both are NaN, kUlpDistanceNaN when only one is.
std::uint64_t ulpDistance(DType t, double a, double b);

}  // namespace kc::numerics
