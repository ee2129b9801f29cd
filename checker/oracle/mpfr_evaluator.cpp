// The MPFR oracle evaluator: the f64 interpreter's prepared IR, evaluated at a chosen
// precision for selected cells; reads of definitions recurse (memoised) in MPFR.
#include "checker/oracle/mpfr_evaluator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "compiler/ir/eval.h"
#include "stdlib/numerics/rounding.h"

namespace kc::oracle {

namespace {

using detail::Fn;
using detail::PNode;
using ir::Op;
using ir::Type;
constexpr mpfr_rnd_t RN = MPFR_RNDN;

struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

class Interp {
 public:
  Interp(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64, mpfr_prec_t prec)
      : prec_(prec), f64_(f64) {
    if (prec < MPFR_PREC_MIN || prec > 1 << 20) throw EvalError("MPFR precision out of range");
    ctx_.ct = &ct;
    ctx_.dims = &f64.dims;
    ctx_.bindings = &b;
    ctx_.computed = &f64;
    ctx_.defs = detail::allDefinitions(ct);
    ctx_.requireTensors = false;
    states_.resize(ctx_.defs.size());
  }

  int defNumber(const std::string& name) const {
    for (bool tol : {false, true})
      for (size_t k = 0; k < ctx_.defs.size(); ++k)
        if (ctx_.defs[k].tolerance == tol && ctx_.defs[k].def->name == name) return static_cast<int>(k);
    throw EvalError("no definition '" + name + "'");
  }

  // The value of one cell of definition `def`, into out.
  void cell(int def, const Cell& idx, mpfr_t out) {
    auto key = std::make_pair(def, idx);
    if (auto it = memo_.find(key); it != memo_.end()) {
      mpfr_set(out, it->second->v, RN);
      return;
    }
    State& s = state(def);
    if (idx.size() != s.shape.size()) throw EvalError("wrong number of indices for '" + ctx_.defs[def].def->name + "'");
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= s.shape[k])
        throw EvalError("'" + ctx_.defs[def].def->name + "' read at index " + std::to_string(idx[k]) + " outside 0.." +
                        std::to_string(s.shape[k] - 1));
    std::vector<int64_t> env(static_cast<size_t>(s.p.slots) + 1, 0);
    std::copy(idx.begin(), idx.end(), env.begin());
    auto v = std::make_unique<Mp>(prec_);
    real(s.p.root, env.data(), v->v);
    mpfr_set(out, v->v, RN);
    memo_.emplace(std::move(key), std::move(v));
  }

 private:
  struct State {
    bool ready = false;
    detail::Prepared p;
    std::vector<int64_t> shape;
  };

  State& state(int def) {
    State& s = states_[static_cast<size_t>(def)];
    if (s.ready) return s;
    const sema::Definition& d = *ctx_.defs[static_cast<size_t>(def)].def;
    detail::PrepareContext ctx = ctx_;
    ctx.visible = static_cast<size_t>(def);
    s.p = detail::prepare(*d.value, ctx, d.indices);
    ir::IntEnv intEnv(f64_.dims.begin(), f64_.dims.end());
    for (const auto& e : d.extents) {
      auto v = ir::evalInt(*e, intEnv);
      if (!v || *v < 0) throw EvalError("the extent of definition '" + d.name + "' cannot be evaluated");
      s.shape.push_back(*v);
    }
    s.ready = true;
    return s;
  }

  Cell indices(const PNode& n, int64_t* env) {
    Cell idx;
    idx.reserve(n.kids.size());
    for (const auto& k : n.kids) idx.push_back(detail::evalInt(k, env));
    return idx;
  }

  void real(const PNode& n, int64_t* env, mpfr_t out) {
    if (n.type == Type::Int) {
      // An integer if-then-else decides its (maybe real) condition here, not in f64.
      if (n.op == Op::Select) return real(n.kids[boolean(n.kids[0], env) ? 1 : 2], env, out);
      mpfr_set_si(out, detail::evalInt(n, env), RN);
      return;
    }
    if (n.type == Type::Bool) {
      mpfr_set_si(out, boolean(n, env) ? 1 : 0, RN);
      return;
    }
    switch (n.op) {
      case Op::ConstReal:
        // The literal as written (0.1 exactly, not its double), else the double.
        if (n.text && !n.text->empty() && mpfr_set_str(out, n.text->c_str(), 10, RN) == 0) return;
        mpfr_set_d(out, n.d, RN);
        return;
      case Op::ConstInt: mpfr_set_si(out, n.i, RN); return;
      case Op::TensorStat: mpfr_set_d(out, n.d, RN); return;
      case Op::TensorRead: {
        Cell idx = indices(n, env);
        if (n.def >= 0) {
          cell(n.def, idx, out);
          return;
        }
        try {
          mpfr_set_d(out, n.tensor->at(idx), RN);
        } catch (const std::out_of_range& e) {
          throw EvalError("'" + *n.name + "': " + e.what());
        }
        return;
      }
      case Op::Neg: real(n.kids[0], env, out); mpfr_neg(out, out, RN); return;
      case Op::Abs: real(n.kids[0], env, out); mpfr_abs(out, out, RN); return;
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Pow: {
        Mp a(prec_), b(prec_);
        real(n.kids[0], env, a.v);
        real(n.kids[1], env, b.v);
        switch (n.op) {
          case Op::Add: mpfr_add(out, a.v, b.v, RN); break;
          case Op::Sub: mpfr_sub(out, a.v, b.v, RN); break;
          case Op::Mul: mpfr_mul(out, a.v, b.v, RN); break;
          case Op::Div: mpfr_div(out, a.v, b.v, RN); break;
          default: mpfr_pow(out, a.v, b.v, RN); break;
        }
        return;
      }
      case Op::Select: real(n.kids[boolean(n.kids[0], env) ? 1 : 2], env, out); return;
      case Op::Call: {
        Mp x(prec_);
        real(n.kids[0], env, x.v);
        switch (n.fn) {
          case Fn::Exp: mpfr_exp(out, x.v, RN); return;
          case Fn::Exp2: mpfr_exp2(out, x.v, RN); return;
          case Fn::Log: mpfr_log(out, x.v, RN); return;
          case Fn::Log2: mpfr_log2(out, x.v, RN); return;
          case Fn::Log10: mpfr_log10(out, x.v, RN); return;
          case Fn::Sqrt: mpfr_sqrt(out, x.v, RN); return;
          case Fn::Rsqrt: mpfr_rec_sqrt(out, x.v, RN); return;
          case Fn::Tanh: mpfr_tanh(out, x.v, RN); return;
          case Fn::Erf: mpfr_erf(out, x.v, RN); return;
          case Fn::Sin: mpfr_sin(out, x.v, RN); return;
          case Fn::Cos: mpfr_cos(out, x.v, RN); return;
          case Fn::Sigmoid:
            mpfr_neg(x.v, x.v, RN);
            mpfr_exp(x.v, x.v, RN);
            mpfr_add_ui(x.v, x.v, 1, RN);
            mpfr_ui_div(out, 1, x.v, RN);
            return;
          case Fn::Floor: mpfr_floor(out, x.v); return;
          case Fn::Ceil: mpfr_ceil(out, x.v); return;
          case Fn::Fmax: case Fn::Fmin: {
            Mp y(prec_);
            real(n.kids[1], env, y.v);
            if (mpfr_nan_p(x.v) || mpfr_nan_p(y.v)) mpfr_set_nan(out);
            else if (n.fn == Fn::Fmax) mpfr_max(out, x.v, y.v, RN);
            else mpfr_min(out, x.v, y.v, RN);
            return;
          }
          default: throw EvalError("function does not give a real");
        }
      }
      case Op::DTypeQuery:
        switch (n.fn) {
          case Fn::Ulp: {
            Mp x(prec_);
            real(n.kids[1], env, x.v);
            mpfr_set_d(out, numerics::ulp(n.dtype, mpfr_get_d(x.v, RN)), RN);
            return;
          }
          case Fn::Gamma: {
            int64_t k = detail::evalInt(n.kids[0], env);
            if (k < 0) throw EvalError("gamma of a negative count");
            Mp nu(prec_), den(prec_);
            mpfr_set_d(nu.v, numerics::unitRoundoff(n.dtype), RN);
            mpfr_mul_si(nu.v, nu.v, k, RN);
            mpfr_ui_sub(den.v, 1, nu.v, RN);
            if (mpfr_sgn(den.v) <= 0) mpfr_set_inf(out, 1);
            else mpfr_div(out, nu.v, den.v, RN);
            return;
          }
          default: mpfr_set_d(out, n.d, RN); return;
        }
      case Op::RoundTo: {
        // Through the nearest double: exact for f64, and for narrower formats off only at
        // a tie of the narrower format that the double rounding created.
        Mp x(prec_);
        real(n.kids[1], env, x.v);
        double d = mpfr_get_d(x.v, RN);
        mpfr_set_d(out, n.dtype == numerics::DType::F64 ? d : numerics::roundTo(n.dtype, d), RN);
        return;
      }
      case Op::Reduce: {
        int64_t lo = detail::evalInt(n.kids[0], env), hi = detail::evalInt(n.kids[1], env);
        Mp v(prec_);
        switch (n.fn) {
          case Fn::Sum: mpfr_set_zero(out, 1); break;
          case Fn::Prod: mpfr_set_ui(out, 1, RN); break;
          case Fn::Max: mpfr_set_inf(out, -1); break;
          case Fn::Min: mpfr_set_inf(out, 1); break;
          default: throw EvalError("unknown reducer");
        }
        for (int64_t i = lo; i <= hi; ++i) {
          env[n.slot] = i;
          real(n.kids[2], env, v.v);
          switch (n.fn) {
            case Fn::Sum: mpfr_add(out, out, v.v, RN); break;
            case Fn::Prod: mpfr_mul(out, out, v.v, RN); break;
            default:
              if (mpfr_nan_p(out) || mpfr_nan_p(v.v)) mpfr_set_nan(out);
              else if (n.fn == Fn::Max) mpfr_max(out, out, v.v, RN);
              else mpfr_min(out, out, v.v, RN);
          }
        }
        return;
      }
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a real");
    }
  }

  bool quantify(const PNode& n, int64_t* env, size_t level) {
    size_t nv = (n.kids.size() - 1) / 2;
    if (level == nv) return boolean(n.kids.back(), env);
    int64_t lo = detail::evalInt(n.kids[2 * level], env), hi = detail::evalInt(n.kids[2 * level + 1], env);
    for (int64_t i = lo; i <= hi; ++i) {
      env[n.slot + static_cast<int>(level)] = i;
      bool v = quantify(n, env, level + 1);
      if (n.b != v) return v;
    }
    return n.b;
  }

  bool boolean(const PNode& n, int64_t* env) {
    switch (n.op) {
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
        if (n.cmp == detail::CmpMode::Bool) {
          bool eq = boolean(n.kids[0], env) == boolean(n.kids[1], env);
          return n.op == Op::Eq ? eq : n.op == Op::Ne ? !eq : false;
        }
        if (n.cmp != detail::CmpMode::Real) return detail::evalBool(n, env);
        Mp a(prec_), b(prec_);
        real(n.kids[0], env, a.v);
        real(n.kids[1], env, b.v);
        switch (n.op) {
          case Op::Lt: return mpfr_less_p(a.v, b.v);
          case Op::Le: return mpfr_lessequal_p(a.v, b.v);
          case Op::Gt: return mpfr_greater_p(a.v, b.v);
          case Op::Ge: return mpfr_greaterequal_p(a.v, b.v);
          case Op::Eq: return mpfr_equal_p(a.v, b.v);
          default: return !mpfr_equal_p(a.v, b.v);
        }
      }
      case Op::Not: return !boolean(n.kids[0], env);
      case Op::And: return boolean(n.kids[0], env) && boolean(n.kids[1], env);
      case Op::Or: return boolean(n.kids[0], env) || boolean(n.kids[1], env);
      case Op::Implies: return !boolean(n.kids[0], env) || boolean(n.kids[1], env);
      case Op::Select: return boolean(n.kids[boolean(n.kids[0], env) ? 1 : 2], env);
      case Op::Call: {
        Mp x(prec_);
        real(n.kids[0], env, x.v);
        switch (n.fn) {
          case Fn::IsNan: return mpfr_nan_p(x.v);
          case Fn::IsInf: return mpfr_inf_p(x.v);
          case Fn::IsFinite: return mpfr_number_p(x.v);
          default: throw EvalError("function does not give a Bool");
        }
      }
      case Op::Quantifier: return quantify(n, env, 0);
      default: return detail::evalBool(n, env);
    }
  }

  mpfr_prec_t prec_;
  const OracleResult& f64_;
  detail::PrepareContext ctx_;
  std::vector<State> states_;
  std::map<std::pair<int, Cell>, std::unique_ptr<Mp>> memo_;
};

}  // namespace

std::vector<double> evalCellsMpfr(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells, const MpfrOptions& opts) {
  Interp in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<double> out;
  Mp v(opts.precision);
  for (const auto& c : cells) {
    in.cell(d, c, v.v);
    out.push_back(mpfr_get_d(v.v, RN));
  }
  return out;
}

namespace {

double f64Value(const OracleResult& f64, const std::string& def, const Cell& c) {
  auto oit = f64.oracle.find(def);
  const Tensor* t = oit != f64.oracle.end() ? &oit->second : nullptr;
  if (!t) {
    auto tit = f64.tolerance.find(def);
    if (tit == f64.tolerance.end()) throw EvalError("no f64 values of '" + def + "'");
    t = &tit->second;
  }
  try {
    return t->at(c);
  } catch (const std::out_of_range& e) {
    throw EvalError("'" + def + "': " + e.what());
  }
}

std::string text40(const mpfr_t v) {
  char buf[128];
  mpfr_snprintf(buf, sizeof buf, "%.40Rg", v);
  return buf;
}

}  // namespace

std::vector<CellComparison> compareCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                         const std::string& def, const std::vector<Cell>& cells,
                                         const MpfrOptions& opts) {
  Interp in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<CellComparison> out;
  Mp v(opts.precision), diff(opts.precision);
  for (const auto& c : cells) {
    CellComparison r;
    r.cell = c;
    r.f64 = f64Value(f64, def, c);
    in.cell(d, c, v.v);
    r.exact = mpfr_get_d(v.v, RN);
    r.text = text40(v.v);
    if (std::isnan(r.f64) && mpfr_nan_p(v.v)) {
      r.absDiff = r.relDiff = 0;
    } else if (std::isinf(r.f64) && mpfr_inf_p(v.v) && (r.f64 > 0) == (mpfr_sgn(v.v) > 0)) {
      r.absDiff = r.relDiff = 0;
    } else {
      mpfr_set_d(diff.v, r.f64, RN);
      mpfr_sub(diff.v, diff.v, v.v, RN);
      mpfr_abs(diff.v, diff.v, RN);
      r.absDiff = mpfr_get_d(diff.v, MPFR_RNDU);
      if (mpfr_zero_p(v.v)) {
        r.relDiff = r.absDiff == 0 ? 0 : INFINITY;
      } else {
        mpfr_div(diff.v, diff.v, v.v, RN);
        mpfr_abs(diff.v, diff.v, RN);
        r.relDiff = mpfr_get_d(diff.v, MPFR_RNDU);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<CellBound> boundCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells, const MpfrOptions& opts,
                                  const EnclosureOptions& enclosure) {
  std::vector<Enclosure> enc = encloseCells(ct, b, f64, def, cells, enclosure);
  Interp in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<CellBound> out;
  Mp v(opts.precision), t(53);
  // a - b rounded up (a, b doubles); NaN for inf - inf.
  auto diffUp = [&](double a, double b) {
    mpfr_set_d(t.v, a, RN);
    mpfr_sub_d(t.v, t.v, b, MPFR_RNDU);
    return mpfr_get_d(t.v, MPFR_RNDU);
  };
  for (size_t k = 0; k < cells.size(); ++k) {
    CellBound r;
    r.cell = cells[k];
    r.enclosure = enc[k];
    const Enclosure& e = r.enclosure;
    r.f64 = f64Value(f64, def, r.cell);
    in.cell(d, r.cell, v.v);
    r.exact = mpfr_get_d(v.v, RN);
    r.text = text40(v.v);
    r.f64Inside = e.contains(r.f64);
    r.exactInside = mpfr_nan_p(v.v) ? e.nan : e.real && mpfr_cmp_d(v.v, e.lo) >= 0 && mpfr_cmp_d(v.v, e.hi) <= 0;
    r.withinBound = r.f64Inside && r.exactInside;
    if (std::isnan(r.f64)) {
      r.bound = !e.real && e.nan ? 0 : INFINITY;
    } else if (e.nan || !e.real) {
      r.bound = INFINITY;
    } else if (e.lo == e.hi && e.lo == r.f64) {
      r.bound = 0;  // also an infinite point: the exact value is that infinity
    } else {
      r.bound = std::max(diffUp(r.f64, e.lo), diffUp(e.hi, r.f64));
      if (std::isnan(r.bound)) r.bound = INFINITY;
    }
    if (r.bound == 0) {
      r.relBound = 0;
    } else {
      mpfr_set_d(t.v, r.bound, RN);
      mpfr_div_d(t.v, t.v, std::fabs(r.f64), MPFR_RNDU);
      r.relBound = std::isnan(r.f64) ? INFINITY : mpfr_get_d(t.v, MPFR_RNDU);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kc::oracle
