// The interval domain's leaves and functions (interval_domain.h); the arithmetic itself is
// interval_arith.cpp.
#include "checker/oracle/interval_domain.h"

#include <mpfr.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"

namespace kc::oracle::detail {

using namespace interval;  // NOLINT: the arithmetic of this domain
using Iv = Enclosure;

Iv IntervalDomain::fromTruth(Tri t) { return t == Tri::Unknown ? Iv{0, 1, true, false} : point(t == Tri::True ? 1 : 0); }

Iv IntervalDomain::literal(const PNode& n) {
  Iv r = point(n.d);  // the double the parser made
  if (!n.text || n.text->empty()) return r;
  Mp v;
  if (mpfr_set_str(v.v, n.text->c_str(), 10, RD) != 0) return r;
  double lo = mpfr_get_d(v.v, RD);
  mpfr_set_str(v.v, n.text->c_str(), 10, RU);
  return hull(r, {lo, mpfr_get_d(v.v, RU), true, false});
}

// max/min/sum over a whole tensor: inputs and outputs are exact doubles; a definition is
// enclosed cell by cell. Hulled with the f64 statistic prepare computed.
Iv IntervalDomain::stat(const PNode& n) {
  if (auto it = statValues_.find(&n); it != statValues_.end()) return it->second;
  SumBound sum;
  ExtremeBound ext(n.fn == Fn::Max);
  auto add = [&](const Iv& v) { n.fn == Fn::Sum ? sum.add(v) : ext.add(v); };
  if (n.def < 0) {
    for (double v : n.tensor->data) add(point(v));
  } else {
    std::vector<int64_t> extents = shape(n.def);
    int64_t count = 1;
    for (auto e : extents) count *= e;
    Cell idx(extents.size(), 0);
    for (int64_t c = 0; c < count; ++c) {
      add(cell(n.def, idx));
      for (size_t d = extents.size(); d-- > 0;) {  // row-major odometer
        if (++idx[d] < extents[d]) break;
        idx[d] = 0;
      }
    }
  }
  Iv r = interval::hull(n.fn == Fn::Sum ? sum.result() : ext.result(), point(n.d));
  statValues_[&n] = r;
  return r;
}

Iv IntervalDomain::extreme(bool isMax, const Iv& x, const Iv& y) {  // NaN when either is (as f64)
  ExtremeBound e(isMax);
  e.add(x);
  e.add(y);
  return e.result();
}

Iv IntervalDomain::call(Fn f, const Iv& x) const {
  const unsigned k = opts_.libmUlps;
  switch (f) {
    case Fn::Exp: case Fn::Exp2: {
      Iv r = libm(increasing(f == Fn::Exp ? mpfr_exp : mpfr_exp2, x), k);
      if (r.real) r.lo = std::max(r.lo, 0.0);
      return r;
    }
    case Fn::Log: return libm(nonNegative(mpfr_log, x), k);
    case Fn::Log2: return libm(nonNegative(mpfr_log2, x), k);
    case Fn::Log10: return libm(nonNegative(mpfr_log10, x), k);
    case Fn::Sqrt: return nonNegative(mpfr_sqrt, x);  // IEEE: correctly rounded
    case Fn::Rsqrt: return interval::div(point(1), nonNegative(mpfr_sqrt, x));  // 1 / sqrt(x), as f64 does
    case Fn::Tanh: return libm(increasing(mpfr_tanh, x), k);
    case Fn::Erf: return libm(increasing(mpfr_erf, x), k);
    case Fn::Sin: return trig(true, x, k);
    case Fn::Cos: return trig(false, x, k);
    case Fn::Sigmoid:
      return interval::div(point(1), interval::add(point(1), libm(increasing(mpfr_exp, interval::neg(x)), k)));
    case Fn::Floor: return x.real ? Iv{std::floor(x.lo), std::floor(x.hi), true, x.nan} : x;
    case Fn::Ceil: return x.real ? Iv{std::ceil(x.lo), std::ceil(x.hi), true, x.nan} : x;
    default: throw EvalError("function does not give a real");
  }
}

Iv IntervalDomain::ulp(numerics::DType t, const Iv& x) {  // a step function of |x|, nondecreasing; NaN at +-inf
  if (!x.real || (x.lo == x.hi && std::isinf(x.lo))) return onlyNaN();
  double a = std::min(std::fabs(x.lo), DBL_MAX), b = std::min(std::fabs(x.hi), DBL_MAX);
  double least = x.lo <= 0 && x.hi >= 0 ? 0.0 : std::min(a, b);
  return {numerics::ulp(t, least), numerics::ulp(t, std::max(a, b)), true,
          x.nan || std::isinf(x.lo) || std::isinf(x.hi)};
}

Iv IntervalDomain::gamma(int64_t k, numerics::DType t) {  // the f64 value and the exact k u / (1 - k u)
  Iv r = point(numerics::gamma(static_cast<uint64_t>(k), t));
  Mp nu(128), den(128);
  mpfr_set_si(nu.v, k, RU);
  mpfr_mul_d(nu.v, nu.v, numerics::unitRoundoff(t), RU);  // exact: u is 2^-p
  if (mpfr_cmp_ui(nu.v, 1) >= 0) return interval::hull(r, point(kInf));
  mpfr_ui_sub(den.v, 1, nu.v, RU);
  mpfr_div(den.v, nu.v, den.v, RD);
  double lo = mpfr_get_d(den.v, RD);
  mpfr_ui_sub(den.v, 1, nu.v, RD);
  mpfr_div(den.v, nu.v, den.v, RU);
  return interval::hull(r, {lo, mpfr_get_d(den.v, RU), true, false});
}

// round(T, x) is nondecreasing for floats and integers (saturating); Bool is x != 0.
Iv IntervalDomain::roundTo(numerics::DType t, const Iv& x) {
  if (t == numerics::DType::Bool) {
    if (!x.real) return point(1);
    bool zero = x.lo <= 0 && x.hi >= 0, other = x.nan || x.lo != 0 || x.hi != 0;
    return {zero ? 0.0 : 1.0, other ? 1.0 : 0.0, true, false};
  }
  if (numerics::isInteger(t)) {
    if (!x.real) return point(0);  // NaN converts to 0
    Iv r{numerics::roundTo(t, x.lo), numerics::roundTo(t, x.hi), true, false};
    return x.nan ? interval::hull(r, point(0)) : r;
  }
  if (!x.real) return onlyNaN();
  Iv r{numerics::roundTo(t, x.lo), numerics::roundTo(t, x.hi), true, x.nan};
  if (std::isnan(r.lo)) r.lo = -numerics::maxFinite(t), r.nan = true;  // e4m3fn overflows to NaN
  if (std::isnan(r.hi)) r.hi = numerics::maxFinite(t), r.nan = true;
  return r;
}

Tri IntervalDomain::classify(Fn f, const Iv& x) {
  bool inf = x.real && (std::isinf(x.lo) || std::isinf(x.hi));
  bool finite = x.real && (x.lo < x.hi || std::isfinite(x.lo));
  auto of = [](bool can, bool canNot) { return can && canNot ? Tri::Unknown : Logic<Tri>::of(can); };
  switch (f) {
    case Fn::IsNan: return of(x.nan, x.real);
    case Fn::IsInf: return of(inf, x.nan || finite);
    case Fn::IsFinite: return of(finite, x.nan || inf);
    default: throw EvalError("function does not give a Bool");
  }
}

}  // namespace kc::oracle::detail
