#pragma once
#include <cstdint>

#include "stdlib/numerics/dtype.h"

namespace kc::values {

// Choosing parameters of the exact-by-construction and index-encoded fills.

// The largest m such that a dot product of length k of two vectors with integer entries in
// [-m, m], stored in `input` and accumulated in `accumulator` in any order, is exact:
// every partial sum is an integer of magnitude <= k*m^2, and a float format of precision p
// holds every integer of magnitude <= 2^p, so the rule is
//     k * m^2 <= 2^p(accumulator)   (integer accumulator: k * m^2 <= its max),
//     m <= 2^p(input)               (integer input: m <= its max).
// A sum of k such entries is then exact too (k*m <= k*m^2). Returns 0 when even m = 1 fails.
// Throws std::invalid_argument for an unsigned or Bool input, a Bool accumulator, or k == 0.
std::int64_t exactIntMagnitude(std::uint64_t k, numerics::DType input,
                               numerics::DType accumulator);

// The largest prime P <= 2^31 - 1 such that every index-fill value 0 .. P-1 (offset 0) is
// exactly representable in t. For example f8e4m3 (p = 4): 17; bf16 (p = 8): 257.
std::uint64_t indexPrime(numerics::DType t);

}  // namespace kc::values
