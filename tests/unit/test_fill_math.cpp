// The deterministic elementary functions and the raw-word samplers behind the fills: accuracy
// against MPFR, and the edges of the word-to-number maps.
#include <catch2/catch.hpp>
#include <mpfr.h>

#include <cmath>
#include <cstdint>

#include "stdlib/values/det_math.h"
#include "stdlib/values/sampling.h"

using namespace kc::values;

namespace {

// |got - exact| in units of the double spacing at the exact value, exact from MPFR at 200 bits.
double ulpError(double got, mpfr_srcptr exact) {
  mpfr_t diff;
  mpfr_init2(diff, 200);
  mpfr_sub_d(diff, exact, got, MPFR_RNDN);
  double err = std::fabs(mpfr_get_d(diff, MPFR_RNDN));
  double e = mpfr_get_d(exact, MPFR_RNDN);
  mpfr_clear(diff);
  return err / std::ldexp(1.0, std::ilogb(e) - 52);
}

}  // namespace

TEST_CASE("detLog is within 2 ulps of the exact logarithm", "[fill][math]") {
  mpfr_t x, y;
  mpfr_inits2(200, x, y, static_cast<mpfr_ptr>(nullptr));
  double worst = 0;
  // Values across (0, 1] as the Box-Muller step uses them, and some above 1.
  for (int i = 1; i <= 20000; ++i) {
    for (double v : {i / 20000.0, std::ldexp(i / 20000.0, -40), 1.0 + i / 7.0}) {
      if (v == 1.0) continue;  // log 1 = 0 exactly, tested below
      mpfr_set_d(x, v, MPFR_RNDN);
      mpfr_log(y, x, MPFR_RNDN);
      worst = std::max(worst, ulpError(detLog(v), y));
    }
  }
  mpfr_clears(x, y, static_cast<mpfr_ptr>(nullptr));
  CHECK(worst <= 2.0);
  CHECK(detLog(1.0) == 0.0);
}

TEST_CASE("detCos2Pi is accurate and exact at the quadrant points", "[fill][math]") {
  mpfr_t t, y;
  mpfr_inits2(200, t, y, static_cast<mpfr_ptr>(nullptr));
  double worstAbs = 0;
  for (int i = 0; i < 65536; ++i) {
    double v = (i + 0.37) / 65536.0;
    mpfr_const_pi(y, MPFR_RNDN);
    mpfr_mul_d(t, y, 2 * v, MPFR_RNDN);
    mpfr_cos(y, t, MPFR_RNDN);
    worstAbs = std::max(worstAbs, std::fabs(detCos2Pi(v) - mpfr_get_d(y, MPFR_RNDN)));
  }
  mpfr_clears(t, y, static_cast<mpfr_ptr>(nullptr));
  CHECK(worstAbs <= 4e-16);
  CHECK(detCos2Pi(0.0) == 1.0);
  CHECK(detCos2Pi(0.5) == -1.0);
  CHECK(std::fabs(detCos2Pi(0.25)) < 1e-300);
}

TEST_CASE("word samplers cover their ranges", "[fill][math]") {
  CHECK(uniform01(0) == 0.0);
  CHECK(uniform01(~0ULL) == 1.0 - std::ldexp(1.0, -53));
  CHECK(uniformOpenAtZero(0) == std::ldexp(1.0, -53));
  CHECK(uniformOpenAtZero(~0ULL) == 1.0);
  CHECK(joinWords(0x01234567, 0x89ABCDEF) == 0x0123456789ABCDEFULL);
  CHECK(scaleToRange(0, 10) == 0);
  CHECK(scaleToRange(~0ULL, 10) == 9);
  CHECK(scaleToRange(1ULL << 63, 10) == 5);
  CHECK(scaleToRange(~0ULL, ~0ULL) == ~0ULL - 1);
  // High words of 128-bit products, computed by hand / with arbitrary-precision integers.
  CHECK(scaleToRange(0x8000000080000000ULL, 0x100000003ULL) == 0x80000002ULL);
  CHECK(scaleToRange(0xF123456789ABCDEFULL, 0xFEDCBA9876543210ULL) == 0xF010E8EF9C66C631ULL);
}
