// The MPFR domain's operations (mpfr_domain.h), all rounded to nearest at the domain's
// precision.
#include "checker/oracle/mpfr_domain.h"

#include "stdlib/numerics/rounding.h"

namespace kc::oracle::detail {

namespace {
constexpr mpfr_rnd_t RN = MPFR_RNDN;
}  // namespace

MpfrDomain::MpfrDomain(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64, mpfr_prec_t prec)
    : CellOracle(ct, b, f64), prec_(prec) {
  if (prec < MPFR_PREC_MIN || prec > 1 << 20) throw EvalError("MPFR precision out of range");
}

Mp MpfrDomain::set(double d) const {
  Mp r(prec_);
  mpfr_set_d(r.v, d, RN);
  return r;
}

Mp MpfrDomain::fromInt(int64_t i) const {
  Mp r(prec_);
  mpfr_set_si(r.v, i, RN);
  return r;
}

// The literal as written (0.1 exactly, not its double), else the double.
Mp MpfrDomain::literal(const PNode& n) const {
  Mp r(prec_);
  if (n.text && !n.text->empty() && mpfr_set_str(r.v, n.text->c_str(), 10, RN) == 0) return r;
  mpfr_set_d(r.v, n.d, RN);
  return r;
}

Mp MpfrDomain::neg(Mp x) { mpfr_neg(x.v, x.v, RN); return x; }
Mp MpfrDomain::abs(Mp x) { mpfr_abs(x.v, x.v, RN); return x; }
Mp MpfrDomain::add(Mp x, const Mp& y) { mpfr_add(x.v, x.v, y.v, RN); return x; }
Mp MpfrDomain::sub(Mp x, const Mp& y) { mpfr_sub(x.v, x.v, y.v, RN); return x; }
Mp MpfrDomain::mul(Mp x, const Mp& y) { mpfr_mul(x.v, x.v, y.v, RN); return x; }
Mp MpfrDomain::div(Mp x, const Mp& y) { mpfr_div(x.v, x.v, y.v, RN); return x; }
Mp MpfrDomain::pow(Mp x, const Mp& y) { mpfr_pow(x.v, x.v, y.v, RN); return x; }

Mp MpfrDomain::extreme(bool isMax, Mp x, const Mp& y) {  // NaN when either is (as f64)
  if (mpfr_nan_p(x.v) || mpfr_nan_p(y.v)) mpfr_set_nan(x.v);
  else if (isMax) mpfr_max(x.v, x.v, y.v, RN);
  else mpfr_min(x.v, x.v, y.v, RN);
  return x;
}

Mp MpfrDomain::call(Fn f, Mp x) {
  mpfr_ptr v = x.v;
  switch (f) {
    case Fn::Exp: mpfr_exp(v, v, RN); break;
    case Fn::Exp2: mpfr_exp2(v, v, RN); break;
    case Fn::Log: mpfr_log(v, v, RN); break;
    case Fn::Log2: mpfr_log2(v, v, RN); break;
    case Fn::Log10: mpfr_log10(v, v, RN); break;
    case Fn::Sqrt: mpfr_sqrt(v, v, RN); break;
    case Fn::Rsqrt: mpfr_rec_sqrt(v, v, RN); break;
    case Fn::Tanh: mpfr_tanh(v, v, RN); break;
    case Fn::Erf: mpfr_erf(v, v, RN); break;
    case Fn::Sin: mpfr_sin(v, v, RN); break;
    case Fn::Cos: mpfr_cos(v, v, RN); break;
    case Fn::Sigmoid:
      mpfr_neg(v, v, RN);
      mpfr_exp(v, v, RN);
      mpfr_add_ui(v, v, 1, RN);
      mpfr_ui_div(v, 1, v, RN);
      break;
    case Fn::Floor: mpfr_floor(v, v); break;
    case Fn::Ceil: mpfr_ceil(v, v); break;
    default: throw EvalError("function does not give a real");
  }
  return x;
}

// ulp through the nearest double (docs/oracle.md, "Not yet").
Mp MpfrDomain::ulp(numerics::DType t, const Mp& x) const { return set(numerics::ulp(t, mpfr_get_d(x.v, RN))); }

Mp MpfrDomain::gamma(int64_t k, numerics::DType t) const {
  Mp nu(prec_), den(prec_), r(prec_);
  mpfr_set_d(nu.v, numerics::unitRoundoff(t), RN);
  mpfr_mul_si(nu.v, nu.v, k, RN);
  mpfr_ui_sub(den.v, 1, nu.v, RN);
  if (mpfr_sgn(den.v) <= 0) mpfr_set_inf(r.v, 1);
  else mpfr_div(r.v, nu.v, den.v, RN);
  return r;
}

// Through the nearest double: exact for f64, and for narrower formats off only at a tie of
// the narrower format that the double rounding created.
Mp MpfrDomain::roundTo(numerics::DType t, const Mp& x) const {
  double d = mpfr_get_d(x.v, RN);
  return set(t == numerics::DType::F64 ? d : numerics::roundTo(t, d));
}

void MpfrDomain::Acc::add(const Mp& v) {
  switch (fn) {
    case Fn::Sum: mpfr_add(acc.v, acc.v, v.v, RN); break;
    case Fn::Prod: mpfr_mul(acc.v, acc.v, v.v, RN); break;
    default:
      if (mpfr_nan_p(acc.v) || mpfr_nan_p(v.v)) mpfr_set_nan(acc.v);
      else if (fn == Fn::Max) mpfr_max(acc.v, acc.v, v.v, RN);
      else mpfr_min(acc.v, acc.v, v.v, RN);
  }
}

MpfrDomain::Acc MpfrDomain::sum() const {
  Acc a{Mp(prec_), Fn::Sum};
  mpfr_set_zero(a.acc.v, 1);
  return a;
}
MpfrDomain::Acc MpfrDomain::prod() const {
  Acc a{Mp(prec_), Fn::Prod};
  mpfr_set_ui(a.acc.v, 1, RN);
  return a;
}
MpfrDomain::Acc MpfrDomain::max() const {
  Acc a{Mp(prec_), Fn::Max};
  mpfr_set_inf(a.acc.v, -1);
  return a;
}
MpfrDomain::Acc MpfrDomain::min() const {
  Acc a{Mp(prec_), Fn::Min};
  mpfr_set_inf(a.acc.v, 1);
  return a;
}

bool MpfrDomain::compare(ir::Op op, const Mp& a, const Mp& b) {
  switch (op) {
    case ir::Op::Lt: return mpfr_less_p(a.v, b.v);
    case ir::Op::Le: return mpfr_lessequal_p(a.v, b.v);
    case ir::Op::Gt: return mpfr_greater_p(a.v, b.v);
    case ir::Op::Ge: return mpfr_greaterequal_p(a.v, b.v);
    case ir::Op::Eq: return mpfr_equal_p(a.v, b.v);
    default: return !mpfr_equal_p(a.v, b.v);
  }
}

bool MpfrDomain::classify(Fn f, const Mp& x) {
  switch (f) {
    case Fn::IsNan: return mpfr_nan_p(x.v);
    case Fn::IsInf: return mpfr_inf_p(x.v);
    case Fn::IsFinite: return mpfr_number_p(x.v);
    default: throw EvalError("function does not give a Bool");
  }
}

}  // namespace kc::oracle::detail
