#pragma once
// The plain definitions of rounding, the bit patterns and the spacing of the float formats,
// written as the formats are specified (ilogb, ldexp, double arithmetic). The public
// functions (rounding.h, float_bits.h, dtype.h) take exact bit-level paths for the common
// inputs and these for the rest; tests/unit/test_numerics_fast.cpp holds them equal bit for bit.
#include <cstdint>

#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/rounding.h"

namespace kc::numerics::reference {

double roundTo(DType t, double x, Overflow mode = Overflow::Ieee);
std::uint64_t encode(DType t, double x, Overflow mode = Overflow::Ieee);
double decode(DType t, std::uint64_t bits);
std::uint64_t ulpDistance(DType t, double a, double b);
double ulp(DType t, double x);

// The pattern of v (already a value of the format) in the format's own layout, and back.
std::uint64_t pack(const FloatFormat& f, double v);
double unpack(const FloatFormat& f, std::uint64_t bits);

}  // namespace kc::numerics::reference
