#include "stdlib/values/sampling.h"

#include <cmath>

#include "stdlib/values/det_math.h"

namespace kc::values {

std::uint64_t joinWords(std::uint32_t hi, std::uint32_t lo) {
  return static_cast<std::uint64_t>(hi) << 32 | lo;
}

double uniform01(std::uint64_t r) { return std::ldexp(static_cast<double>(r >> 11), -53); }

double uniformOpenAtZero(std::uint64_t r) {
  return std::ldexp(static_cast<double>((r >> 11) + 1), -53);
}

std::uint64_t scaleToRange(std::uint64_t r, std::uint64_t n) {
  // High word of the 128-bit product, from 32-bit halves (portable, no __int128).
  const std::uint64_t mask = 0xFFFFFFFFULL;
  std::uint64_t rl = r & mask, rh = r >> 32, nl = n & mask, nh = n >> 32;
  std::uint64_t ll = rl * nl, lh = rl * nh, hl = rh * nl, hh = rh * nh;
  std::uint64_t middle = (ll >> 32) + (lh & mask) + (hl & mask);
  return hh + (lh >> 32) + (hl >> 32) + (middle >> 32);
}

double standardNormal(const PhiloxCounter& w) {
  double u1 = uniformOpenAtZero(joinWords(w[0], w[1]));
  double u2 = uniform01(joinWords(w[2], w[3]));
  return std::sqrt(-2.0 * detLog(u1)) * detCos2Pi(u2);
}

}  // namespace kc::values
