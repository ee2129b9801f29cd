#pragma once
#include "stdlib/numerics/dtype.h"

namespace kc::numerics {

// What a conversion does with a value too large for the format.
enum class Overflow {
  // IEEE 754: ±Inf. A format without infinities (e4m3fn) gives NaN, the OCP non-saturating
  // mode. ±Inf inputs stay ±Inf (NaN for e4m3fn).
  Ieee,
  // ±max finite, for finite overflow and for ±Inf inputs alike (the OCP saturating mode,
  // CUDA's satfinite). NaN stays NaN.
  Saturate,
};

// x rounded to the nearest value of T, ties to even, exactly (no dependence on the FP
// environment). Floats: subnormals and signed zeros kept; a value overflows when the rounding
// with an unbounded exponent lands above max finite, so for IEEE formats |x| >= max + ulp/2
// overflows, and for e4m3fn 464 rounds (tie, even) to 448 while anything above 464 overflows.
// Bool: 0 for ±0, 1 otherwise (NaN included). Integers: nearest integer, ties to even,
// saturated to the type's range, NaN -> 0 (PTX cvt.rni.sat). F64 is the identity.
double roundTo(DType t, double x, Overflow mode = Overflow::Ieee);

}  // namespace kc::numerics
