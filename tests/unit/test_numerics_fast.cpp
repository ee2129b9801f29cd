// The bit-level paths of roundTo, encode, decode, ulp and ulpDistance (rounding.cpp,
// float_bits.cpp, dtype.cpp) against the plain definitions they replace
// (stdlib/numerics/reference.h), bit for bit: random doubles of every kind, the values of
// every format with their midpoints and neighbours, subnormals, ±0, Inf, NaN, the overflow
// boundaries, both Overflow modes; every pattern of the narrow formats.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/numerics/reference.h"
#include "stdlib/numerics/rounding.h"

using namespace kc::numerics;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

const DType kFloats[] = {DType::F8E4M3, DType::F8E5M2, DType::F16, DType::BF16, DType::TF32, DType::F32, DType::F64};
const Overflow kModes[] = {Overflow::Ieee, Overflow::Saturate};

std::uint64_t bitsOf(double x) { return std::bit_cast<std::uint64_t>(x); }

// Doubles of every kind: random patterns (NaNs, infinities and subnormals among them),
// random magnitudes around each format's range, and fixed special values.
std::vector<double> doubles(std::mt19937_64& rng) {
  std::vector<double> v = {0.0, -0.0, kInf, -kInf, std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::signaling_NaN(),
                           std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(), std::nextafter(std::numeric_limits<double>::min(), 0.0),
                           1.0, -1.0, 0.5, 1.5, 2.5, 3.5};
  for (int i = 0; i < 100000; ++i) v.push_back(std::bit_cast<double>(rng()));
  std::uniform_int_distribution<int> exponent(-1080, 1030);
  for (int i = 0; i < 100000; ++i) {
    double m = std::ldexp(static_cast<double>(rng() >> 11), -53) + 1.0;  // [1, 2)
    v.push_back((rng() & 1 ? -1 : 1) * std::ldexp(m, exponent(rng)));
  }
  return v;
}

// Values of format t and the doubles around them that rounding must tell apart: each value,
// the midpoints to its neighbours (ties), and the doubles next to those.
std::vector<double> around(DType t, std::mt19937_64& rng) {
  const FloatFormat& f = floatFormat(t == DType::TF32 ? DType::F32 : t);
  std::vector<double> anchors = {minSubnormal(t), 2 * minSubnormal(t), minNormal(t), maxFinite(t), 1.0, eps(t)};
  for (int i = 0; i < 20000; ++i) {
    double x = reference::decode(t, rng() & ((f.storageBits() == 64 ? ~0ULL : (1ULL << f.storageBits()) - 1)));
    if (std::isfinite(x)) anchors.push_back(reference::roundTo(t, x));
  }
  std::vector<double> v;
  for (double a : anchors) {
    double u = reference::ulp(t, a);
    for (double c : {a, a + u / 2, a - u / 2, a + u, a + 3 * u / 2, a / 2, a * 2}) {
      if (!std::isfinite(c)) continue;
      for (double d : {c, std::nextafter(c, kInf), std::nextafter(c, -kInf), std::nextafter(std::nextafter(c, kInf), kInf)}) {
        v.push_back(d);
        v.push_back(-d);
      }
    }
  }
  return v;
}

std::string describe(DType t, double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return std::string(dtypeName(t)) + " at " + text;
}

}  // namespace

TEST_CASE("roundTo and encode take the reference's values bit for bit", "[dtype][fast]") {
  std::mt19937_64 rng(20261130);
  const std::vector<double> common = doubles(rng);
  for (DType t : kFloats) {
    std::vector<double> xs = common;
    for (double x : around(t, rng)) xs.push_back(x);
    size_t bad = 0;
    for (Overflow mode : kModes)
      for (double x : xs) {
        bool same = bitsOf(roundTo(t, x, mode)) == bitsOf(reference::roundTo(t, x, mode)) &&
                    encode(t, x, mode) == reference::encode(t, x, mode);
        if (!same && ++bad <= 5) FAIL_CHECK(describe(t, x) << (mode == Overflow::Ieee ? " (ieee)" : " (saturate)"));
      }
    INFO(dtypeName(t) << ": " << xs.size() << " doubles");
    CHECK(bad == 0);
  }
}

TEST_CASE("roundTo of integers and bool stays the reference's", "[dtype][fast]") {
  std::mt19937_64 rng(7);
  const std::vector<double> xs = doubles(rng);
  for (DType t : {DType::Bool, DType::U8, DType::I8, DType::I16, DType::I32, DType::I64}) {
    size_t bad = 0;
    for (double x : xs) bad += bitsOf(roundTo(t, x)) != bitsOf(reference::roundTo(t, x));
    INFO(dtypeName(t));
    CHECK(bad == 0);
  }
}

TEST_CASE("ulp and ulpDistance take the reference's values bit for bit", "[dtype][fast]") {
  std::mt19937_64 rng(42);
  const std::vector<double> common = doubles(rng);
  for (DType t : kFloats) {
    std::vector<double> xs = common;
    for (double x : around(t, rng)) xs.push_back(x);
    size_t bad = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i], y = xs[(i * 7919 + 1) % xs.size()];
      bool same = bitsOf(ulp(t, x)) == bitsOf(reference::ulp(t, x)) &&
                  ulpDistance(t, x, y) == reference::ulpDistance(t, x, y) &&
                  ulpDistance(t, x, std::nextafter(x, kInf)) == reference::ulpDistance(t, x, std::nextafter(x, kInf)) &&
                  ulpDistance(t, x, -x) == reference::ulpDistance(t, x, -x);
      if (!same && ++bad <= 5) FAIL_CHECK(describe(t, x) << " against " << describe(t, y));
    }
    INFO(dtypeName(t) << ": " << xs.size() << " doubles");
    CHECK(bad == 0);
  }
}

TEST_CASE("decode takes the reference's values bit for bit", "[dtype][fast]") {
  std::mt19937_64 rng(99);
  for (DType t : kFloats) {
    const int width = floatFormat(t == DType::TF32 ? DType::F32 : t).storageBits();
    std::vector<std::uint64_t> patterns;
    if (width <= 16) {
      for (std::uint64_t b = 0; b < (1ULL << width); ++b) patterns.push_back(b);  // every one
    } else {
      const std::uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
      for (int i = 0; i < 300000; ++i) patterns.push_back(rng() & mask);
      const std::uint64_t sign = 1ULL << (width - 1);
      for (std::uint64_t b : {std::uint64_t{0}, std::uint64_t{1}, sign - 1, sign, sign + 1, mask, mask - 1})
        patterns.push_back(b);
    }
    size_t bad = 0;
    for (std::uint64_t b : patterns)
      if (bitsOf(decode(t, b)) != bitsOf(reference::decode(t, b)) && ++bad <= 5)
        FAIL_CHECK(dtypeName(t) << " pattern " << b);
    INFO(dtypeName(t) << ": " << patterns.size() << " patterns");
    CHECK(bad == 0);
    if (width < 64) {
      CHECK_THROWS_AS(decode(t, 1ULL << width), std::invalid_argument);
      CHECK_THROWS_AS(reference::decode(t, 1ULL << width), std::invalid_argument);
    }
  }
}
