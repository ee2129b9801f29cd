#pragma once
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "stdlib/numerics/dtype.h"
#include "stdlib/values/philox.h"

namespace kc::values {

// Tensor fills. Every cell is a pure function of (seed, tensor id, flat index): Philox4x32-10
// with key streamKey(seed, tensorId) and counter {index low word, index high word, lane, 0};
// lane 0 draws the cell's own value, lane 1 a row's parameter (at the row's first index),
// lane 2 the special-value decision. Values come out rounded to the target dtype
// (numerics::roundTo, Overflow::Ieee). Rows are runs of `cols` consecutive flat indices.

struct Normal {
  double mean = 0.0, stddev = 1.0;
};
// lo + (hi - lo) u, u uniform on [0, 1) with 53 bits; below hi before the dtype rounding
// (which may round up to hi).
struct Uniform {
  double lo = 0.0, hi = 1.0;
};
// An integer in [lo, hi], both within ±2^53.
struct IntUniform {
  std::int64_t lo = 0, hi = 1;
};
// (flat index mod prime) + offset: a wrong value names the element that was read.
struct IndexMod {
  std::uint64_t prime = 251;
  double offset = 0.0;
};
// 0 with probability zeroDensity, otherwise an integer uniform in [-magnitude, magnitude];
// choose magnitude with exactIntMagnitude (exact_inputs.h) so sums and dot products are exact.
struct ExactInt {
  std::int64_t magnitude = 1;
  double zeroDensity = 0.0;
};
// Every cell of a row holds the same value, normal(mean, stddev) drawn per row.
struct ConstantRows {
  std::uint64_t cols = 1;
  double mean = 0.0, stddev = 1.0;
};
// Row r holds mu_r + stddev * z: mu_r uniform in [meanLo, meanHi) per row, z normal per cell.
// See largeMeanRows and smallVarianceRows for the two intended uses.
struct ShiftedRows {
  std::uint64_t cols = 1;
  double meanLo = 0.0, meanHi = 0.0, stddev = 1.0;
};

// Catastrophic cancellation: in each row of `cols` cells the first half holds integers drawn
// uniformly in [lo, hi], the second half the same integers negated in the same order, and the
// middle cell of an odd row 0. Every row sums to exactly 0 while its running sum climbs to
// half the row times the magnitude: an accumulator that rounds on the way up (an f32 sum of
// int8 products past 2^24) leaves its rounding behind in a result that should be 0.
struct CancelRows {
  std::uint64_t cols = 2;
  std::int64_t lo = 1, hi = 100;
};

// Means 1e4..1e6 with unit spread: E[x^2] - E[x]^2 cancels catastrophically.
ShiftedRows largeMeanRows(std::uint64_t cols);
// Means in [-1, 1) with spread 1e-3: a variance near a normalisation's epsilon.
ShiftedRows smallVarianceRows(std::uint64_t cols);

using Distribution =
    std::variant<Normal, Uniform, IntUniform, IndexMod, ExactInt, ConstantRows, ShiftedRows, CancelRows>;

struct FillSpec {
  Distribution dist;
  // Probability that a cell is replaced by one of specialValues(dtype), chosen uniformly.
  double specialRate = 0.0;
};

// Float dtypes: NaN, +Inf, -Inf (where the format has them), +0, -0, min subnormal,
// max finite. Bool and integers: 0, min, max (I64: max is 2^63 - 1024, the largest double
// in range), without repeats.
std::vector<double> specialValues(numerics::DType t);

// The Philox key of one tensor: the first two words of philox4x32_10({tensorId low, tensorId
// high, 0, 0}, {seed low, seed high}), so different tensors of one seed get unrelated keys.
PhiloxKey streamKey(std::uint64_t seed, std::uint64_t tensorId);

// Throws std::invalid_argument for parameters out of range (hi < lo, prime < 2, cols == 0, a
// negative stddev, a rate or density outside [0, 1], ...).
void validate(const FillSpec& spec, numerics::DType t);

// The value of one cell. Validates spec.
double cellValue(const FillSpec& spec, numerics::DType t, const PhiloxKey& key,
                 std::uint64_t index);

// out[i] = cellValue(spec, t, streamKey(seed, tensorId), firstIndex + i), on `threads` threads
// (0: hardware concurrency), each on its own contiguous range: the bytes do not depend on the
// thread count.
void fill(const FillSpec& spec, numerics::DType t, std::uint64_t seed, std::uint64_t tensorId,
          std::span<double> out, unsigned threads = 1, std::uint64_t firstIndex = 0);

}  // namespace kc::values
