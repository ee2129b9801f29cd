// Error bounds: gamma_n and the rounding depths at hand-computed points, and the bounds
// holding for dot products carried out with every operation rounded to the format.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"
#include "stdlib/values/fill.h"

using namespace kc::numerics;

namespace {

// fl_t of the dot product in the given order, each product and addition rounded to t.
double emulatedDot(const std::vector<double>& a, const std::vector<double>& b, SumOrder order,
                   DType t, std::size_t block) {
  std::vector<double> terms(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) terms[i] = roundTo(t, a[i] * b[i]);
  auto recursive = [&](std::size_t lo, std::size_t hi) {
    double s = terms[lo];
    for (std::size_t i = lo + 1; i < hi; ++i) s = roundTo(t, s + terms[i]);
    return s;
  };
  if (order == SumOrder::Recursive) return recursive(0, terms.size());
  if (order == SumOrder::Blocked) {
    double s = recursive(0, std::min(block, terms.size()));
    for (std::size_t lo = block; lo < terms.size(); lo += block)
      s = roundTo(t, s + recursive(lo, std::min(lo + block, terms.size())));
    return s;
  }
  while (terms.size() > 1) {  // pairwise: halve the list level by level
    std::vector<double> next;
    for (std::size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(roundTo(t, terms[i] + terms[i + 1]));
    if (terms.size() % 2) next.push_back(terms.back());
    terms = next;
  }
  return terms[0];
}

}  // namespace

TEST_CASE("gamma_n = n u / (1 - n u)", "[error_bounds]") {
  CHECK(gamma(0, DType::F32) == 0.0);
  CHECK(gamma(1, DType::F32) == 1.0 / 16777215.0);   // u = 2^-24: 1 / (2^24 - 1)
  CHECK(gamma(3, DType::BF16) == 3.0 / 253.0);       // u = 2^-8: n / (256 - n)
  CHECK(gamma(255, DType::BF16) == 255.0);
  CHECK(gamma(256, DType::BF16) == HUGE_VAL);         // n u = 1
  CHECK(gamma(8, DType::F8E4M3) == 1.0);              // u = 2^-4
  CHECK(gamma(17, DType::F8E4M3) == HUGE_VAL);
  CHECK(gamma(2, DType::F64) == 2.0 / (9007199254740992.0 - 2.0));
  CHECK_THROWS_AS(gamma(1, DType::I32), std::invalid_argument);
}

TEST_CASE("rounding depth of each summation order", "[error_bounds]") {
  CHECK(roundingDepth(SumOrder::Recursive, 1000, 1, false) == 999);
  CHECK(roundingDepth(SumOrder::Recursive, 1000, 1, true) == 1000);
  CHECK(roundingDepth(SumOrder::Pairwise, 1024, 1, false) == 10);
  CHECK(roundingDepth(SumOrder::Pairwise, 1025, 1, false) == 11);
  CHECK(roundingDepth(SumOrder::Pairwise, 1024, 1, true) == 11);
  CHECK(roundingDepth(SumOrder::Blocked, 1000, 32, false) == 31 + 31);  // 32 blocks
  CHECK(roundingDepth(SumOrder::Blocked, 1000, 32, true) == 63);
  CHECK(roundingDepth(SumOrder::Blocked, 1000, 5000, false) == 999);    // one block
  CHECK(roundingDepth(SumOrder::Blocked, 1000, 1, false) == 999);
  CHECK(roundingDepth(SumOrder::Pairwise, 1, 1, false) == 0);
  CHECK(roundingDepth(SumOrder::Pairwise, 1, 1, true) == 1);
  CHECK(roundingDepth(SumOrder::Recursive, 0, 1, true) == 0);
  CHECK_THROWS_AS(roundingDepth(SumOrder::Blocked, 10, 0, false), std::invalid_argument);

  CHECK(sumGamma(SumOrder::Pairwise, 1024, DType::F32) == 10.0 / (16777216.0 - 10.0));
  CHECK(dotGamma(SumOrder::Recursive, 4, DType::BF16) == 4.0 / 252.0);
  CHECK(dotGamma(SumOrder::Blocked, 1000, DType::F16, 32) == 63.0 / (2048.0 - 63.0));
}

TEST_CASE("dot bound and one-rounding budget at hand-computed points", "[error_bounds]") {
  const std::vector<double> a = {1, 2, -3}, b = {4, -5, 6};
  // sum |a_k b_k| = 4 + 10 + 18 = 32; gamma_3(bf16) = 3/253.
  double bound = dotErrorBound(a, b, SumOrder::Recursive, DType::BF16);
  CHECK(bound >= 96.0 / 253.0);
  CHECK(bound <= 96.0 / 253.0 * (1 + 1e-14));
  CHECK(dotErrorBound(std::vector<double>{0, 0}, std::vector<double>{1, 1}, SumOrder::Recursive,
                      DType::F8E4M3) == 0.0);
  CHECK_THROWS_AS(dotErrorBound(a, std::vector<double>{1}, SumOrder::Recursive, DType::F32),
                  std::invalid_argument);
  CHECK(oneRounding(DType::F16, -3.0) == 3.0 * std::ldexp(1.0, -11));
  CHECK(oneRounding(DType::F32, 1.0) == std::ldexp(1.0, -24));
}

TEST_CASE("the dot bounds hold for emulated low-precision dot products", "[error_bounds]") {
  using kc::values::fill;
  // Lengths with gamma_k near 0.1, where the bound says something (gamma_k >= 1 is vacuous).
  const std::size_t block = 16;
  const std::pair<DType, std::size_t> cases[] = {{DType::F16, 200}, {DType::TF32, 200}, {DType::BF16, 24}};
  for (auto [t, k] : cases) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      std::vector<double> a(k), b(k);
      // Positive data, where rounding errors cannot cancel each other.
      fill({kc::values::Uniform{0.5, 1.5}}, t, seed, 1, a);
      fill({kc::values::Uniform{0.5, 1.5}}, t, seed, 2, b);
      // Products of two significands of <= 11 bits, in [1/4, 9/4): the sum is exact in double.
      double exact = 0;
      for (std::size_t i = 0; i < k; ++i) exact += a[i] * b[i];
      for (SumOrder order : {SumOrder::Recursive, SumOrder::Pairwise, SumOrder::Blocked}) {
        double err = std::fabs(emulatedDot(a, b, order, t, block) - exact);
        INFO(dtypeName(t) << " seed " << seed << " order " << static_cast<int>(order));
        CHECK(err <= dotErrorBound(a, b, order, t, block));
      }
    }
  }
}
