// Every bit pattern of the narrow float formats (f8e4m3, f8e5m2, f16, bf16, and the 2^19
// values of tf32), checked against references built here independently of dtype.cpp:
// decoded values against MPFR numbers assembled from the fields, rounding against the sorted
// list of representable values (midpoints and their neighbours, ties to even) and against
// MPFR's own rounding with an emulated exponent range; f32 on a large random sample.
#include <catch2/catch.hpp>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/numerics/rounding.h"

using namespace kc::numerics;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// The formats as the test knows them, written out again rather than taken from dtype.cpp.
struct Layout {
  DType type;
  int exponentBits, fractionBits, bias;
  bool finiteOnly;       // e4m3fn: no Inf; S.1111.111 is the only NaN
  int storageShift;      // TF32: fraction sits 13 bits up inside f32 storage
  int width() const { return 1 + exponentBits + fractionBits; }
  int precision() const { return fractionBits + 1; }
  int emin() const { return 1 - bias; }
  int emax() const { return (1 << exponentBits) - (finiteOnly ? 1 : 2) - bias; }
  // The storage pattern of the field triple.
  std::uint64_t storage(std::uint64_t sign, std::uint64_t exponent, std::uint64_t fraction) const {
    int fb = fractionBits + storageShift;
    return sign << (exponentBits + fb) | exponent << fb | fraction << storageShift;
  }
};

const Layout kNarrow[] = {
    {DType::F8E4M3, 4, 3, 7, true, 0},   {DType::F8E5M2, 5, 2, 15, false, 0},
    {DType::F16, 5, 10, 15, false, 0},   {DType::BF16, 8, 7, 127, false, 0},
    {DType::TF32, 8, 10, 127, false, 13},
};

enum class Kind { Finite, Inf, NaN };

Kind kindOf(const Layout& L, std::uint64_t exponent, std::uint64_t fraction) {
  std::uint64_t allOnes = (1u << L.exponentBits) - 1;
  if (exponent != allOnes) return Kind::Finite;
  if (L.finiteOnly) return fraction == (1u << L.fractionBits) - 1 ? Kind::NaN : Kind::Finite;
  return fraction == 0 ? Kind::Inf : Kind::NaN;
}

// MPFR state: a variable and the exponent range, restored on exit.
class Mpfr {
 public:
  explicit Mpfr(int precision) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_init2(v_, precision);
  }
  ~Mpfr() {
    mpfr_clear(v_);
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  mpfr_ptr get() { return v_; }

 private:
  mpfr_t v_;
  mpfr_exp_t emin_, emax_;
};

// The exact value of a finite field triple, built in MPFR from integers.
bool fieldsEqual(const Layout& L, std::uint64_t sign, std::uint64_t exponent,
                 std::uint64_t fraction, double decoded, mpfr_ptr v) {
  std::uint64_t significand = exponent == 0 ? fraction : (1ull << L.fractionBits) | fraction;
  long scale = (exponent == 0 ? 1 : static_cast<long>(exponent)) - L.bias - L.fractionBits;
  mpfr_set_ui(v, significand, MPFR_RNDN);
  mpfr_mul_2si(v, v, scale, MPFR_RNDN);
  if (sign) mpfr_neg(v, v, MPFR_RNDN);
  return mpfr_cmp_d(v, decoded) == 0 && std::signbit(decoded) == (sign != 0);
}

// MPFR's round-to-nearest-even of x into L, subnormals emulated: precision p, exponents in
// MPFR's convention (x = 0.1b... * 2^E) from emin - p + 2 (so the least positive value is
// 2^(emin - p + 1)) to emax + 1 (+2 for e4m3fn, whose overflow test then follows).
double mpfrRound(const Layout& L, double x, mpfr_ptr v) {
  mpfr_set_emin(L.emin() - L.precision() + 2);
  mpfr_set_emax(L.emax() + (L.finiteOnly ? 2 : 1));
  int t = mpfr_set_d(v, x, MPFR_RNDN);
  t = mpfr_subnormalize(v, t, MPFR_RNDN);
  double r = mpfr_get_d(v, MPFR_RNDN);
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  if (L.finiteOnly && std::fabs(r) > 448.0) return std::numeric_limits<double>::quiet_NaN();
  return r;
}

bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// SplitMix64: a fixed-seed generator written here, so the samples are the same everywhere.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

// Random doubles around L's range: a random sign and 52-bit fraction with an exponent from a
// few binades below the least subnormal to a few above the largest binade; every third one is
// an exact midpoint between neighbours of L, every third one such a midpoint moved by one
// double ulp.
double sampleAround(const Layout& L, SplitMix& g) {
  std::uint64_t r = g.next();
  double sign = (r & 1) ? -1.0 : 1.0;
  int lo = L.emin() - L.precision() - 3, hi = L.emax() + 2;
  int e = lo + static_cast<int>((r >> 1) % static_cast<std::uint64_t>(hi - lo + 1));
  double x = std::ldexp(1.0 + std::ldexp(static_cast<double>(g.next() >> 12), -52), e);
  switch ((r >> 20) % 3) {
    case 0: return sign * x;
    case 1: {
      double v = roundTo(L.type, x, Overflow::Saturate);
      return sign * (v + ulp(L.type, v) / 2);
    }
    default: {
      double v = roundTo(L.type, x, Overflow::Saturate);
      double mid = v + ulp(L.type, v) / 2;
      return sign * std::nextafter(mid, (r >> 30) & 1 ? kInf : 0.0);
    }
  }
}

}  // namespace

TEST_CASE("every pattern decodes to the value of its fields", "[dtype][exhaustive]") {
  Mpfr m(64);
  for (const Layout& L : kNarrow) {
    INFO(dtypeName(L.type));
    std::uint64_t mismatches = 0;
    for (std::uint64_t packed = 0; packed < (1ull << L.width()); ++packed) {
      std::uint64_t sign = packed >> (L.width() - 1);
      std::uint64_t exponent = (packed >> L.fractionBits) & ((1u << L.exponentBits) - 1);
      std::uint64_t fraction = packed & ((1u << L.fractionBits) - 1);
      std::uint64_t bits = L.storage(sign, exponent, fraction);
      double d = decode(L.type, bits);
      bool ok;
      switch (kindOf(L, exponent, fraction)) {
        case Kind::NaN:
          // Any NaN pattern decodes to NaN; NaN encodes to a NaN pattern of the same sign.
          ok = std::isnan(d) && std::isnan(decode(L.type, encode(L.type, d))) &&
               (encode(L.type, d) >> (L.width() + L.storageShift - 1)) == sign;
          break;
        case Kind::Inf: ok = d == (sign ? -kInf : kInf) && encode(L.type, d) == bits; break;
        default:
          ok = fieldsEqual(L, sign, exponent, fraction, d, m.get()) && encode(L.type, d) == bits;
      }
      if (!ok && ++mismatches <= 5) FAIL_CHECK("pattern 0x" << std::hex << bits << " -> " << d);
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("rounding between every pair of neighbours", "[dtype][exhaustive]") {
  for (const Layout& L : kNarrow) {
    INFO(dtypeName(L.type));
    // The nonnegative finite values in pattern order, which must be increasing.
    std::vector<double> values;
    std::vector<std::uint64_t> patterns;
    for (std::uint64_t packed = 0; packed < (1ull << (L.width() - 1)); ++packed) {
      std::uint64_t exponent = packed >> L.fractionBits;
      std::uint64_t fraction = packed & ((1u << L.fractionBits) - 1);
      if (kindOf(L, exponent, fraction) != Kind::Finite) continue;
      patterns.push_back(L.storage(0, exponent, fraction));
      values.push_back(decode(L.type, patterns.back()));
    }
    const std::uint64_t signBit = 1ull << (L.width() + L.storageShift - 1);
    std::uint64_t failures = 0;
    auto expect = [&](double x, std::uint64_t pattern, double value) {
      if (encode(L.type, x) == pattern && sameValue(roundTo(L.type, x), value)) return;
      if (++failures <= 5) FAIL_CHECK("roundTo(" << x << ") should be " << value);
    };
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      double lo = values[i], hi = values[i + 1];
      REQUIRE(lo < hi);
      double mid = (lo + hi) / 2;  // exact: these formats are far narrower than double
      std::size_t even = (patterns[i] >> L.storageShift) % 2 == 0 ? i : i + 1;
      for (double s : {1.0, -1.0}) {
        std::uint64_t sb = s < 0 ? signBit : 0;
        expect(s * lo, patterns[i] | sb, s * lo);
        expect(s * std::nextafter(mid, 0.0), patterns[i] | sb, s * lo);
        expect(s * mid, patterns[even] | sb, s * values[even]);
        expect(s * std::nextafter(mid, kInf), patterns[i + 1] | sb, s * hi);
      }
      if (hi - lo != ulp(L.type, lo) && ++failures <= 5) FAIL_CHECK("ulp at " << lo);
      if (ulpDistance(L.type, lo, hi) != 1 && ++failures <= 5) FAIL_CHECK("distance at " << lo);
      if (ulpDistance(L.type, -lo, hi) != 2 * i + 1 && ++failures <= 5)
        FAIL_CHECK("distance across zero at " << lo);
    }
    CHECK(failures == 0);
    // The top value's ulp is the spacing below it; the least positive one is min subnormal.
    CHECK(values.back() == maxFinite(L.type));
    CHECK(ulp(L.type, values.back()) == values.back() - values[values.size() - 2]);
    CHECK(values[1] == minSubnormal(L.type));
  }
}

TEST_CASE("overflow thresholds, infinities and NaN", "[dtype][exhaustive]") {
  for (const Layout& L : kNarrow) {
    INFO(dtypeName(L.type));
    const double max = maxFinite(L.type);
    const double threshold = max + ulp(L.type, max) / 2;
    // IEEE: the tie at the threshold goes to the even 2^(emax+1), so it overflows; e4m3fn's
    // max 1.110b * 2^8 is the even side, so 464 rounds down to 448.
    const double over = L.finiteOnly ? std::numeric_limits<double>::quiet_NaN() : kInf;
    for (double s : {1.0, -1.0}) {
      CHECK(roundTo(L.type, s * std::nextafter(threshold, 0.0)) == s * max);
      CHECK(sameValue(roundTo(L.type, s * threshold), L.finiteOnly ? s * max : s * kInf));
      CHECK(sameValue(roundTo(L.type, s * std::nextafter(threshold, kInf)), s * over));
      CHECK(sameValue(roundTo(L.type, s * 1e300), s * over));
      CHECK(sameValue(roundTo(L.type, s * kInf), s * over));
      CHECK(roundTo(L.type, s * 1e300, Overflow::Saturate) == s * max);
      CHECK(roundTo(L.type, s * kInf, Overflow::Saturate) == s * max);
      // Below half the least subnormal: a zero of the input's sign.
      CHECK(sameValue(roundTo(L.type, s * minSubnormal(L.type) / 4), s * 0.0));
      CHECK(sameValue(roundTo(L.type, s * 0.0), s * 0.0));
    }
    CHECK(std::isnan(roundTo(L.type, std::nan(""))));
    CHECK(std::isnan(roundTo(L.type, std::nan(""), Overflow::Saturate)));
  }
}

TEST_CASE("narrow formats agree with MPFR on random doubles", "[dtype][exhaustive]") {
  Mpfr m(53);
  SplitMix g{42};
  for (const Layout& L : kNarrow) {
    INFO(dtypeName(L.type));
    mpfr_set_prec(m.get(), L.precision());
    std::uint64_t failures = 0;
    for (int i = 0; i < 200000; ++i) {
      double x = sampleAround(L, g);
      double want = mpfrRound(L, x, m.get());
      if (!sameValue(roundTo(L.type, x), want) && ++failures <= 5)
        FAIL_CHECK("roundTo(" << x << ") = " << roundTo(L.type, x) << ", MPFR " << want);
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("f32 agrees with MPFR and the hardware on 10^6 random doubles", "[dtype][exhaustive]") {
  const Layout f32 = {DType::F32, 8, 23, 127, false, 0};
  Mpfr m(24);
  SplitMix g{2024};
  std::uint64_t failures = 0;
  for (int i = 0; i < 1000000; ++i) {
    double x = sampleAround(f32, g);
    double got = roundTo(DType::F32, x);
    float hardware = static_cast<float>(x);
    std::uint32_t hardwareBits;
    std::memcpy(&hardwareBits, &hardware, sizeof hardwareBits);
    bool ok = sameValue(got, mpfrRound(f32, x, m.get())) &&
              sameValue(got, static_cast<double>(hardware)) &&
              encode(DType::F32, x) == hardwareBits;
    if (!ok && ++failures <= 5) FAIL_CHECK("roundTo(f32, " << x << ") = " << got);
  }
  CHECK(failures == 0);
}

TEST_CASE("f64 encodes as its own bits and rounds to itself", "[dtype][exhaustive]") {
  SplitMix g{7};
  std::uint64_t failures = 0;
  for (int i = 0; i < 100000; ++i) {
    std::uint64_t bits = g.next();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isnan(x)) continue;
    bool ok = encode(DType::F64, x) == bits && sameValue(decode(DType::F64, bits), x) &&
              sameValue(roundTo(DType::F64, x), x);
    if (!ok && ++failures <= 5) FAIL_CHECK("f64 pattern " << std::hex << bits);
  }
  CHECK(failures == 0);
}
