#include "stdlib/values/exact_inputs.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kc::values {
namespace {

using numerics::DType;

// The largest n such that t holds every integer of magnitude <= n exactly.
std::uint64_t exactIntegerLimit(DType t) {
  if (numerics::isFloat(t)) return std::uint64_t{1} << numerics::floatFormat(t).precision;
  return static_cast<std::uint64_t>(numerics::intMax(t));
}

std::uint64_t isqrt(std::uint64_t n) {
  std::uint64_t r = 0;
  for (int bit = 31; bit >= 0; --bit) {
    std::uint64_t c = r | (std::uint64_t{1} << bit);
    if (c * c <= n) r = c;
  }
  return r;
}

bool isPrime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

}  // namespace

std::int64_t exactIntMagnitude(std::uint64_t k, DType input, DType accumulator) {
  if (k == 0 || !numerics::isSigned(input) || accumulator == DType::Bool)
    throw std::invalid_argument("exactIntMagnitude: needs k > 0, a signed input dtype and a "
                                "numeric accumulator");
  std::uint64_t byAccumulator = isqrt(exactIntegerLimit(accumulator) / k);  // k*m^2 <= limit
  return static_cast<std::int64_t>(std::min(byAccumulator, exactIntegerLimit(input)));
}

std::uint64_t indexPrime(DType t) {
  if (t == DType::Bool) throw std::invalid_argument("indexPrime: Bool holds no index");
  std::uint64_t p = std::min<std::uint64_t>(exactIntegerLimit(t) + 1, 0x7FFFFFFF);
  while (!isPrime(p)) --p;
  return p;
}

}  // namespace kc::values
