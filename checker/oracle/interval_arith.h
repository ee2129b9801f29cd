#pragma once
// Interval arithmetic on enclosures (interval_evaluator.h says what an enclosure holds and
// why): endpoints are doubles, each operation runs in MPFR at 53 bits, rounded down for lo
// and up for hi, then converted to a double in the same direction. The interval domain
// (interval_domain.h) maps the IR onto these.
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "checker/oracle/interval_evaluator.h"
#include "checker/oracle/mp.h"
#include "checker/oracle/truth.h"
#include "compiler/ir/ir.h"

namespace kc::oracle::interval {

using detail::Mp;
using detail::Tri;
using Iv = Enclosure;
constexpr mpfr_rnd_t RD = MPFR_RNDD, RU = MPFR_RNDU;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = 0x1p-1074;  // the smallest subnormal double
// Past this, partial sums or products taken in another order could overflow, where the
// a-priori bounds no longer hold: such a reduction encloses the whole line.
constexpr double kHuge = 0x1p1020;

inline Iv point(double v) { return std::isnan(v) ? Iv{0, 0, false, true} : Iv{v, v, true, false}; }
inline Iv onlyNaN() { return {0, 0, false, true}; }
inline Iv whole(bool nan) { return {-kInf, kInf, true, nan}; }
inline Iv hull(const Iv& a, const Iv& b) {
  if (!a.real) return {b.lo, b.hi, b.real, true};
  if (!b.real) return {a.lo, a.hi, a.real, true};
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), true, a.nan || b.nan};
}
inline Iv neg(const Iv& x) { return {-x.hi, -x.lo, x.real, x.nan}; }

using Un = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Bin = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

// f(x), f(x, y) rounded in direction r to 53 bits, then to a double in the same direction.
double un(Un f, double x, mpfr_rnd_t r);
double bin(Bin f, double x, double y, mpfr_rnd_t r);

Iv libm(Iv v, unsigned ulps);  // an f64 libm result: widened by ulps (EnclosureOptions)
Iv add(const Iv& x, const Iv& y);
Iv mul(const Iv& x, const Iv& y);
Iv div(const Iv& x, const Iv& y);
Iv absIv(const Iv& x);
Iv increasing(Un f, const Iv& x);   // f nondecreasing
Iv nonNegative(Un f, const Iv& x);  // sqrt and log: increasing on [0, inf], NaN below 0
Iv trig(bool sine, const Iv& x, unsigned ulps);
Iv powIv(const Iv& x, const Iv& y, unsigned ulps);
double gammaUp(uint64_t m);  // gamma_m = m u / (1 - m u) for f64, rounded up
Iv fromInt(int64_t i);
Tri compare(ir::Op op, const Iv& a, const Iv& b);

// A sum of n terms in any order: the exact sum of the terms' enclosures, widened by
// gamma_{n-1} sum |x_i| (Higham §4.2; it holds for every order and tree of additions, and
// with FMAs, whose one rounding per addition is the same model; gradual underflow in an
// addition is exact, so the model needs no underflow term).
class SumBound {
 public:
  SumBound() {
    for (auto* m : {&lo_, &hi_, &mag_}) mpfr_set_zero(m->v, 1);
  }
  void add(const Iv& t) {
    ++n_;
    if (!t.real) {
      certainNaN_ = true;
      return;
    }
    nan_ = nan_ || t.nan;
    mpfr_add_d(lo_.v, lo_.v, t.lo, RD);
    mpfr_add_d(hi_.v, hi_.v, t.hi, RU);
    mpfr_add_d(mag_.v, mag_.v, std::max(std::fabs(t.lo), std::fabs(t.hi)), RU);
  }
  Iv result() const {
    if (certainNaN_) return onlyNaN();
    double mag = mpfr_get_d(mag_.v, RU);
    if (!(mag < kHuge)) return whole(true);
    double e = bin(mpfr_mul, gammaUp(n_ > 0 ? n_ - 1 : 0), mag, RU);
    Mp t(128);
    mpfr_sub_d(t.v, lo_.v, e, RD);
    double lo = mpfr_get_d(t.v, RD);
    mpfr_add_d(t.v, hi_.v, e, RU);
    return {lo, mpfr_get_d(t.v, RU), true, nan_};
  }

 private:
  Mp lo_{128}, hi_{128}, mag_{128};
  uint64_t n_ = 0;
  bool nan_ = false, certainNaN_ = false;
};

// A product of n factors in any order: the interval product, widened by gamma_n |prod| and,
// for underflow (each product may lose 2^-1075 absolute, scaled by the factors after it),
// n 2^-1074 prod max(1, |x_i|).
class ProdBound {
 public:
  void add(const Iv& t) {
    ++n_;
    if (!t.real) {
      certainNaN_ = true;
      return;
    }
    acc_ = mul(acc_, t);
    big_ = bin(mpfr_mul, big_, std::max({1.0, std::fabs(t.lo), std::fabs(t.hi)}), RU);
  }
  Iv result() const {
    if (certainNaN_ || !acc_.real) return onlyNaN();
    if (!(big_ < kHuge)) return whole(true);
    double m = std::max(std::fabs(acc_.lo), std::fabs(acc_.hi));
    double e = bin(mpfr_add, bin(mpfr_mul, gammaUp(n_), m, RU),
                   bin(mpfr_mul, bin(mpfr_mul, static_cast<double>(n_), kTiny, RU), big_, RU), RU);
    return {bin(mpfr_sub, acc_.lo, e, RD), bin(mpfr_add, acc_.hi, e, RU), true, acc_.nan};
  }

 private:
  Iv acc_ = point(1);
  double big_ = 1;
  uint64_t n_ = 0;
  bool certainNaN_ = false;
};

// max or min: exact in f64 and order-free, so [max lo_i, max hi_i] (min alike).
class ExtremeBound {
 public:
  explicit ExtremeBound(bool isMax) : max_(isMax), acc_(point(isMax ? -kInf : kInf)) {}
  void add(const Iv& t) {
    if (!t.real) {
      certainNaN_ = true;
      return;
    }
    acc_.nan = acc_.nan || t.nan;
    acc_.lo = max_ ? std::max(acc_.lo, t.lo) : std::min(acc_.lo, t.lo);
    acc_.hi = max_ ? std::max(acc_.hi, t.hi) : std::min(acc_.hi, t.hi);
  }
  Iv result() const { return certainNaN_ ? onlyNaN() : acc_; }

 private:
  bool max_;
  Iv acc_;
  bool certainNaN_ = false;
};

}  // namespace kc::oracle::interval
