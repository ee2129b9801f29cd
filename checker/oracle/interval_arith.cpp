// Interval arithmetic on enclosures: the operations of interval_arith.h.
#include "checker/oracle/interval_arith.h"

namespace kc::oracle::interval {

// f(x) rounded in direction r to 53 bits, then to a double in the same direction: the
// second step gives double's subnormals and overflow (MPFR's exponent range is wider),
// still outward. Doubles are exact at 53 bits.
double un(Un f, double x, mpfr_rnd_t r) {
  thread_local Mp a, out;
  mpfr_set_d(a.v, x, r);
  f(out.v, a.v, r);
  return mpfr_get_d(out.v, r);
}
double bin(Bin f, double x, double y, mpfr_rnd_t r) {
  thread_local Mp a, b, out;
  mpfr_set_d(a.v, x, r);
  mpfr_set_d(b.v, y, r);
  f(out.v, a.v, b.v, r);
  return mpfr_get_d(out.v, r);
}

namespace {

// An endpoint of a libm result moved outward by (ulps + 1) (2^-52 |e| + 2^-1074): more than
// `ulps` ulps of the correctly rounded value plus the half ulp to the exact one, in any
// binade (see EnclosureOptions). The move grows with |e|, so it covers every value inside.
double widen(double e, unsigned ulps, mpfr_rnd_t r) {
  if (!std::isfinite(e)) return e;
  double w = bin(mpfr_mul, std::fabs(e), 0x1p-52, RU);
  w = bin(mpfr_mul, bin(mpfr_add, w, kTiny, RU), ulps + 1.0, RU);
  return r == RD ? bin(mpfr_sub, e, w, RD) : bin(mpfr_add, e, w, RU);
}

}  // namespace

Iv libm(Iv v, unsigned ulps) {
  if (v.real) v = {widen(v.lo, ulps, RD), widen(v.hi, ulps, RU), true, v.nan};
  return v;
}

Iv add(const Iv& x, const Iv& y) {
  if (!x.real || !y.real) return onlyNaN();
  Iv r{bin(mpfr_add, x.lo, y.lo, RD), bin(mpfr_add, x.hi, y.hi, RU), true, x.nan || y.nan};
  return std::isnan(r.lo) || std::isnan(r.hi) ? whole(true) : r;  // inf - inf
}

namespace {

// x op y over the rectangle's corners: * and / (divisor without 0) are monotone in each
// operand there. A NaN corner (0 * inf, inf / inf) gives the whole line and NaN.
Iv corners(Bin f, const Iv& x, const Iv& y) {
  if (!x.real || !y.real) return onlyNaN();
  Iv r{kInf, -kInf, true, x.nan || y.nan};
  for (double a : {x.lo, x.hi})
    for (double b : {y.lo, y.hi}) {
      double lo = bin(f, a, b, RD), hi = bin(f, a, b, RU);
      if (std::isnan(lo) || std::isnan(hi)) return whole(true);
      r.lo = std::min(r.lo, lo);
      r.hi = std::max(r.hi, hi);
    }
  return r;
}

}  // namespace

Iv mul(const Iv& x, const Iv& y) { return corners(mpfr_mul, x, y); }
Iv div(const Iv& x, const Iv& y) {
  if (x.real && y.real && y.lo <= 0 && y.hi >= 0) return whole(true);
  return corners(mpfr_div, x, y);
}
Iv absIv(const Iv& x) {
  if (!x.real || x.lo >= 0) return x;
  if (x.hi <= 0) return neg(x);
  return {0, std::max(-x.lo, x.hi), true, x.nan};
}

Iv increasing(Un f, const Iv& x) {
  if (!x.real) return onlyNaN();
  return {un(f, x.lo, RD), un(f, x.hi, RU), true, x.nan};
}
// sqrt and log: increasing on [0, inf], NaN below 0.
Iv nonNegative(Un f, const Iv& x) {
  if (!x.real || x.hi < 0) return onlyNaN();
  return increasing(f, {std::max(x.lo, 0.0), x.hi, true, x.nan || x.lo < 0});
}

// sin or cos: the endpoints, and +-1 where an extremum lies inside (sin is (-1)^k at
// pi/2 + k pi, cos at k pi); [-1, 1] for wide or huge arguments.
Iv trig(bool sine, const Iv& x, unsigned ulps) {
  if (!x.real || (x.lo == x.hi && std::isinf(x.lo))) return onlyNaN();
  Iv r{-1, 1, true, x.nan || std::isinf(x.lo) || std::isinf(x.hi)};
  if (!r.nan && std::fabs(x.lo) < 0x1p20 && std::fabs(x.hi) < 0x1p20 && x.hi - x.lo < 6) {
    Un f = sine ? mpfr_sin : mpfr_cos;
    r.lo = std::min(un(f, x.lo, RD), un(f, x.hi, RD));
    r.hi = std::max(un(f, x.lo, RU), un(f, x.hi, RU));
    Mp pi(128), t(128);
    mpfr_const_pi(pi.v, MPFR_RNDN);
    // k = (e - offset) / pi to about 2^-100, pushed outward past that error and past the
    // conversion to double (|k| < 2^19: below 2^-33).
    auto k = [&](double e, bool up) {
      mpfr_set_d(t.v, e, MPFR_RNDN);
      mpfr_div(t.v, t.v, pi.v, MPFR_RNDN);
      double d = mpfr_get_d(t.v, MPFR_RNDN) - (sine ? 0.5 : 0.0);
      return up ? std::floor(d + 1e-9) : std::ceil(d - 1e-9);
    };
    for (double j = k(x.lo, false); j <= k(x.hi, true); ++j) {
      double v = std::fmod(j, 2.0) == 0 ? 1.0 : -1.0;
      r.lo = std::min(r.lo, v);
      r.hi = std::max(r.hi, v);
    }
  }
  return libm(r, ulps);
}

// x^y. A point integer exponent: monotone pieces of x^n (the minimum 0 inside for even n);
// otherwise x >= 0, where x^y is monotone in each operand. Negative bases with other
// exponents: the whole line and NaN.
Iv powIv(const Iv& x, const Iv& y, unsigned ulps) {
  if (!x.real || !y.real) return whole(true);
  bool integral = y.lo == y.hi && std::floor(y.lo) == y.lo && std::fabs(y.lo) < 0x1p53;
  if (integral && y.lo == 0) return {1, 1, true, y.nan};  // pow(NaN, 0) is 1
  Iv r{kInf, -kInf, true, x.nan || y.nan};
  auto corner = [&](double a, double b) {
    double lo = bin(mpfr_pow, a, b, RD), hi = bin(mpfr_pow, a, b, RU);
    if (std::isnan(lo) || std::isnan(hi)) return false;
    r.lo = std::min(r.lo, lo);
    r.hi = std::max(r.hi, hi);
    return true;
  };
  if (integral) {
    if (y.lo < 0 && x.lo <= 0 && x.hi >= 0) return whole(r.nan);
    if (!corner(x.lo, y.lo) || !corner(x.hi, y.lo)) return whole(true);
    if (std::fmod(y.lo, 2.0) == 0 && x.lo < 0 && x.hi > 0) r.lo = 0;
  } else if (x.lo >= 0) {
    for (double a : {x.lo, x.hi})
      for (double b : {y.lo, y.hi})
        if (!corner(a, b)) return whole(true);
  } else {
    return whole(true);
  }
  return libm(r, ulps);
}

// gamma_m = m u / (1 - m u) for f64 (u = 2^-53), rounded up; +inf when m u >= 1.
double gammaUp(uint64_t m) {
  if (m == 0) return 0;
  Mp nu(128), den(128);
  mpfr_set_ui(nu.v, m, RU);
  mpfr_mul_2si(nu.v, nu.v, -53, RU);
  if (mpfr_cmp_ui(nu.v, 1) >= 0) return kInf;
  mpfr_ui_sub(den.v, 1, nu.v, RD);
  mpfr_div(nu.v, nu.v, den.v, RU);
  return mpfr_get_d(nu.v, RU);
}

// An integer as a double: exact below 2^53, else rounded to nearest (enclosed both ways).
Iv fromInt(int64_t i) {
  if (i >= -(int64_t{1} << 53) && i <= (int64_t{1} << 53)) return point(static_cast<double>(i));
  Mp v;
  mpfr_set_si(v.v, i, RD);
  double lo = mpfr_get_d(v.v, RD);
  mpfr_set_si(v.v, i, RU);
  return {lo, mpfr_get_d(v.v, RU), true, false};
}

// A comparison over enclosures: decided when every possible ordering (less, equal,
// greater, unordered by a NaN) gives the same answer.
Tri compare(ir::Op op, const Iv& a, const Iv& b) {
  bool lt = false, eq = false, gt = false, un = a.nan || b.nan;
  if (a.real && b.real) {
    lt = a.lo < b.hi;
    gt = a.hi > b.lo;
    eq = a.lo <= b.hi && b.lo <= a.hi;
  }
  bool anyTrue = false, anyFalse = false;
  auto see = [&](bool possible, int c) {
    if (possible) (detail::holds(op, c) ? anyTrue : anyFalse) = true;
  };
  see(lt, -1);
  see(eq, 0);
  see(gt, 1);
  see(un, 2);
  return anyTrue && anyFalse ? Tri::Unknown : detail::Logic<Tri>::of(anyTrue);
}

}  // namespace kc::oracle::interval
