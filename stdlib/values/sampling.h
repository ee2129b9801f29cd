#pragma once
#include <cstdint>

#include "stdlib/values/philox.h"

namespace kc::values {

// Distributions from raw Philox words, written out so that the same words give the same
// value everywhere (std::*_distribution differs between standard libraries).

// The 64-bit word hi:lo.
std::uint64_t joinWords(std::uint32_t hi, std::uint32_t lo);

// Uniform on [0, 1): the top 53 bits of r times 2^-53.
double uniform01(std::uint64_t r);

// Uniform on (0, 1]: (top 53 bits of r, plus one) times 2^-53. Never 0, for logarithms.
double uniformOpenAtZero(std::uint64_t r);

// floor(r * n / 2^64): an integer in [0, n), off uniform by at most n / 2^64 per value (no
// rejection loop, so each cell consumes a fixed number of words).
std::uint64_t scaleToRange(std::uint64_t r, std::uint64_t n);

// A standard normal deviate from one Philox block, by Box-Muller:
// sqrt(-2 ln u1) cos(2 pi u2), u1 in (0, 1] from words 0-1, u2 in [0, 1) from words 2-3.
double standardNormal(const PhiloxCounter& words);

}  // namespace kc::values
