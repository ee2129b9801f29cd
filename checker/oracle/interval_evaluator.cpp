// The interval interpreter behind encloseCells: the prepared IR of evaluator.h, each value
// an Enclosure whose endpoints MPFR rounds outward (see interval_evaluator.h for what an
// enclosure contains and why).
#include "checker/oracle/interval_evaluator.h"

#include <mpfr.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "compiler/ir/eval.h"
#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"

namespace kc::oracle {

namespace {

using detail::Fn;
using detail::PNode;
using ir::Op;
using ir::Type;
using Iv = Enclosure;
constexpr mpfr_rnd_t RD = MPFR_RNDD, RU = MPFR_RNDU;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = 0x1p-1074;  // the smallest subnormal double
// Past this, partial sums or products taken in another order could overflow, where the
// a-priori bounds no longer hold: such a reduction encloses the whole line.
constexpr double kHuge = 0x1p1020;

Iv point(double v) { return std::isnan(v) ? Iv{0, 0, false, true} : Iv{v, v, true, false}; }
Iv onlyNaN() { return {0, 0, false, true}; }
Iv whole(bool nan) { return {-kInf, kInf, true, nan}; }
Iv hull(const Iv& a, const Iv& b) {
  if (!a.real) return {b.lo, b.hi, b.real, true};
  if (!b.real) return {a.lo, a.hi, a.real, true};
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), true, a.nan || b.nan};
}

struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p = 53) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

using Un = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Bin = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

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

// An endpoint of a libm result moved outward by (ulps + 1) (2^-52 |e| + 2^-1074): more than
// `ulps` ulps of the correctly rounded value plus the half ulp to the exact one, in any
// binade (see EnclosureOptions). The move grows with |e|, so it covers every value inside.
double widen(double e, unsigned ulps, mpfr_rnd_t r) {
  if (!std::isfinite(e)) return e;
  double w = bin(mpfr_mul, std::fabs(e), 0x1p-52, RU);
  w = bin(mpfr_mul, bin(mpfr_add, w, kTiny, RU), ulps + 1.0, RU);
  return r == RD ? bin(mpfr_sub, e, w, RD) : bin(mpfr_add, e, w, RU);
}
Iv libm(Iv v, unsigned ulps) {
  if (v.real) v = {widen(v.lo, ulps, RD), widen(v.hi, ulps, RU), true, v.nan};
  return v;
}

Iv neg(const Iv& x) { return {-x.hi, -x.lo, x.real, x.nan}; }
Iv add(const Iv& x, const Iv& y) {
  if (!x.real || !y.real) return onlyNaN();
  Iv r{bin(mpfr_add, x.lo, y.lo, RD), bin(mpfr_add, x.hi, y.hi, RU), true, x.nan || y.nan};
  return std::isnan(r.lo) || std::isnan(r.hi) ? whole(true) : r;  // inf - inf
}
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

enum class Tri : uint8_t { False, True, Unknown };
Tri tri(bool b) { return b ? Tri::True : Tri::False; }
Tri merge(Tri a, Tri b) { return a == b ? a : Tri::Unknown; }
Iv fromTri(Tri t) { return t == Tri::Unknown ? Iv{0, 1, true, false} : point(t == Tri::True ? 1 : 0); }

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
Tri compare(Op op, const Iv& a, const Iv& b) {
  bool lt = false, eq = false, gt = false, un = a.nan || b.nan;
  if (a.real && b.real) {
    lt = a.lo < b.hi;
    gt = a.hi > b.lo;
    eq = a.lo <= b.hi && b.lo <= a.hi;
  }
  auto holds = [op](int c) {
    switch (op) {
      case Op::Lt: return c == -1;
      case Op::Le: return c == -1 || c == 0;
      case Op::Gt: return c == 1;
      case Op::Ge: return c == 1 || c == 0;
      case Op::Eq: return c == 0;
      default: return c != 0;
    }
  };
  bool anyTrue = false, anyFalse = false;
  auto see = [&](bool possible, int c) {
    if (possible) (holds(c) ? anyTrue : anyFalse) = true;
  };
  see(lt, -1);
  see(eq, 0);
  see(gt, 1);
  see(un, 2);
  return anyTrue && anyFalse ? Tri::Unknown : tri(anyTrue);
}

class Interp {
 public:
  Interp(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64, const EnclosureOptions& opts)
      : opts_(opts), f64_(f64), b_(b) {
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

  Iv cell(int def, const Cell& idx) {
    auto key = std::make_pair(def, idx);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    State& s = state(def);
    const std::string& name = ctx_.defs[static_cast<size_t>(def)].def->name;
    if (idx.size() != s.shape.size()) throw EvalError("wrong number of indices for '" + name + "'");
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= s.shape[k])
        throw EvalError("'" + name + "' read at index " + std::to_string(idx[k]) + " outside 0.." +
                        std::to_string(s.shape[k] - 1));
    std::vector<int64_t> env(static_cast<size_t>(s.p.slots) + 1, 0);
    std::copy(idx.begin(), idx.end(), env.begin());
    Iv v = real(s.p.root, env.data());
    memo_.emplace(std::move(key), v);
    return v;
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
    mapStats(s.p.root, *d.value, def);
    s.ready = true;
    return s;
  }

  // The prepared tree keeps the IR's kids in order, but a statistic only its f64 value:
  // remember each statistic's IR node (and the definition it is in) to enclose it.
  void mapStats(const PNode& p, const ir::Node& n, int def) {
    if (p.op == Op::TensorStat) {
      stats_[&p] = {&n, def};
      return;
    }
    if (p.kids.size() != n.kids.size()) return;  // a tree prepare rewrote: stat() says so if needed
    for (size_t k = 0; k < p.kids.size(); ++k) mapStats(p.kids[k], *n.kids[k], def);
  }

  int findDef(const std::string& name, ir::Role role, int visible) const {
    auto search = [&](bool tolerance) {
      for (size_t k = 0; k < ctx_.defs.size() && static_cast<int>(k) < visible; ++k)
        if (ctx_.defs[k].tolerance == tolerance && ctx_.defs[k].def->name == name) return static_cast<int>(k);
      return -1;
    };
    if (role == ir::Role::Oracle) return search(false);
    int k = search(true);
    return k >= 0 ? k : search(false);
  }

  // max/min/sum over a whole tensor: inputs and outputs are exact doubles; a definition is
  // enclosed cell by cell. Hulled with the f64 statistic prepare computed.
  Iv stat(const PNode& n) {
    if (auto it = statValues_.find(&n); it != statValues_.end()) return it->second;
    auto st = stats_.find(&n);
    if (st == stats_.end()) throw EvalError("a statistic the interval evaluator cannot follow");
    const ir::Node& w = *st->second.first->kids.at(0);
    SumBound sum;
    ExtremeBound ext(n.fn == Fn::Max);
    auto add = [&](const Iv& v) { n.fn == Fn::Sum ? sum.add(v) : ext.add(v); };
    if (w.role == ir::Role::Input || w.role == ir::Role::Output) {
      const auto& m = w.role == ir::Role::Input ? b_.inputs : b_.outputs;
      auto it = m.find(w.name);
      if (it == m.end()) throw EvalError("no tensor '" + w.name + "' is bound");
      for (double v : it->second.data) add(point(v));
    } else {
      int k = findDef(w.name, w.role, st->second.second);
      if (k < 0) throw EvalError("'" + w.name + "' reads a definition that is not defined before it");
      std::vector<int64_t> shape = state(k).shape;
      int64_t count = 1;
      for (auto e : shape) count *= e;
      Cell idx(shape.size(), 0);
      for (int64_t c = 0; c < count; ++c) {
        add(cell(k, idx));
        for (size_t d = shape.size(); d-- > 0;) {  // row-major odometer
          if (++idx[d] < shape[d]) break;
          idx[d] = 0;
        }
      }
    }
    Iv r = hull(n.fn == Fn::Sum ? sum.result() : ext.result(), point(n.d));
    statValues_[&n] = r;
    return r;
  }

  Cell indices(const PNode& n, int64_t* env) {
    Cell idx;
    idx.reserve(n.kids.size());
    for (const auto& k : n.kids) idx.push_back(detail::evalInt(k, env));
    return idx;
  }

  Iv literal(const PNode& n) {
    Iv r = point(n.d);  // the double the parser made
    if (!n.text || n.text->empty()) return r;
    Mp v;
    if (mpfr_set_str(v.v, n.text->c_str(), 10, RD) != 0) return r;
    double lo = mpfr_get_d(v.v, RD);
    mpfr_set_str(v.v, n.text->c_str(), 10, RU);
    return hull(r, {lo, mpfr_get_d(v.v, RU), true, false});
  }

  Iv real(const PNode& n, int64_t* env) {
    if (n.type == Type::Bool) return fromTri(boolean(n, env));
    if (n.type == Type::Int) {
      if (n.op == Op::Select) return select(n, env);
      return fromInt(detail::evalInt(n, env));
    }
    switch (n.op) {
      case Op::ConstReal: return literal(n);
      case Op::ConstInt: return fromInt(n.i);
      case Op::TensorStat: return stat(n);
      case Op::TensorRead: {
        Cell idx = indices(n, env);
        if (n.def >= 0) return cell(n.def, idx);
        try {
          return point(n.tensor->at(idx));
        } catch (const std::out_of_range& e) {
          throw EvalError("'" + *n.name + "': " + e.what());
        }
      }
      case Op::Neg: return neg(real(n.kids[0], env));
      case Op::Abs: return absIv(real(n.kids[0], env));
      case Op::Add: return add(real(n.kids[0], env), real(n.kids[1], env));
      case Op::Sub: return add(real(n.kids[0], env), neg(real(n.kids[1], env)));
      case Op::Mul: return mul(real(n.kids[0], env), real(n.kids[1], env));
      case Op::Div: return div(real(n.kids[0], env), real(n.kids[1], env));
      case Op::Pow: return powIv(real(n.kids[0], env), real(n.kids[1], env), opts_.libmUlps);
      case Op::Select: return select(n, env);
      case Op::Call: return call(n, env);
      case Op::DTypeQuery: return query(n, env);
      case Op::RoundTo: return rounded(n.dtype, real(n.kids[1], env));
      case Op::Reduce: return reduce(n, env);
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a real");
    }
  }

  // An undecided condition: either branch may be taken (by the f64 or the exact values).
  Iv select(const PNode& n, int64_t* env) {
    switch (boolean(n.kids[0], env)) {
      case Tri::True: return real(n.kids[1], env);
      case Tri::False: return real(n.kids[2], env);
      default: return hull(real(n.kids[1], env), real(n.kids[2], env));
    }
  }

  Iv call(const PNode& n, int64_t* env) {
    Iv x = real(n.kids[0], env);
    const unsigned k = opts_.libmUlps;
    switch (n.fn) {
      case Fn::Exp: case Fn::Exp2: {
        Iv r = libm(increasing(n.fn == Fn::Exp ? mpfr_exp : mpfr_exp2, x), k);
        if (r.real) r.lo = std::max(r.lo, 0.0);
        return r;
      }
      case Fn::Log: return libm(nonNegative(mpfr_log, x), k);
      case Fn::Log2: return libm(nonNegative(mpfr_log2, x), k);
      case Fn::Log10: return libm(nonNegative(mpfr_log10, x), k);
      case Fn::Sqrt: return nonNegative(mpfr_sqrt, x);  // IEEE: correctly rounded
      case Fn::Rsqrt: return div(point(1), nonNegative(mpfr_sqrt, x));  // 1 / sqrt(x), as f64 does
      case Fn::Tanh: return libm(increasing(mpfr_tanh, x), k);
      case Fn::Erf: return libm(increasing(mpfr_erf, x), k);
      case Fn::Sin: return trig(true, x, k);
      case Fn::Cos: return trig(false, x, k);
      case Fn::Sigmoid: return div(point(1), add(point(1), libm(increasing(mpfr_exp, neg(x)), k)));
      case Fn::Floor: return x.real ? Iv{std::floor(x.lo), std::floor(x.hi), true, x.nan} : x;
      case Fn::Ceil: return x.real ? Iv{std::ceil(x.lo), std::ceil(x.hi), true, x.nan} : x;
      case Fn::Fmax: case Fn::Fmin: {  // NaN when either is (as evaluator.cpp's nanMax)
        ExtremeBound e(n.fn == Fn::Fmax);
        e.add(x);
        e.add(real(n.kids[1], env));
        return e.result();
      }
      default: throw EvalError("function does not give a real");
    }
  }

  Iv query(const PNode& n, int64_t* env) {
    switch (n.fn) {
      case Fn::Ulp: {  // a step function of |x|, nondecreasing; NaN at +-inf
        Iv x = real(n.kids[1], env);
        if (!x.real || (x.lo == x.hi && std::isinf(x.lo))) return onlyNaN();
        double a = std::min(std::fabs(x.lo), DBL_MAX), b = std::min(std::fabs(x.hi), DBL_MAX);
        double least = x.lo <= 0 && x.hi >= 0 ? 0.0 : std::min(a, b);
        return {numerics::ulp(n.dtype, least), numerics::ulp(n.dtype, std::max(a, b)), true,
                x.nan || std::isinf(x.lo) || std::isinf(x.hi)};
      }
      case Fn::Gamma: {  // the f64 value and the exact k u / (1 - k u)
        int64_t k = detail::evalInt(n.kids[0], env);
        if (k < 0) throw EvalError("gamma of a negative count");
        Iv r = point(numerics::gamma(static_cast<uint64_t>(k), n.dtype));
        Mp nu(128), den(128);
        mpfr_set_si(nu.v, k, RU);
        mpfr_mul_d(nu.v, nu.v, numerics::unitRoundoff(n.dtype), RU);  // exact: u is 2^-p
        if (mpfr_cmp_ui(nu.v, 1) >= 0) return hull(r, point(kInf));
        mpfr_ui_sub(den.v, 1, nu.v, RU);
        mpfr_div(den.v, nu.v, den.v, RD);
        double lo = mpfr_get_d(den.v, RD);
        mpfr_ui_sub(den.v, 1, nu.v, RD);
        mpfr_div(den.v, nu.v, den.v, RU);
        return hull(r, {lo, mpfr_get_d(den.v, RU), true, false});
      }
      default: return point(n.d);  // eps, unit_roundoff, ...: exact powers of two and maxima
    }
  }

  // round(T, x) is nondecreasing for floats and integers (saturating); Bool is x != 0.
  Iv rounded(numerics::DType t, const Iv& x) {
    if (t == numerics::DType::Bool) {
      if (!x.real) return point(1);
      bool zero = x.lo <= 0 && x.hi >= 0, other = x.nan || x.lo != 0 || x.hi != 0;
      return {zero ? 0.0 : 1.0, other ? 1.0 : 0.0, true, false};
    }
    if (numerics::isInteger(t)) {
      if (!x.real) return point(0);  // NaN converts to 0
      Iv r{numerics::roundTo(t, x.lo), numerics::roundTo(t, x.hi), true, false};
      return x.nan ? hull(r, point(0)) : r;
    }
    if (!x.real) return onlyNaN();
    Iv r{numerics::roundTo(t, x.lo), numerics::roundTo(t, x.hi), true, x.nan};
    if (std::isnan(r.lo)) r.lo = -numerics::maxFinite(t), r.nan = true;  // e4m3fn overflows to NaN
    if (std::isnan(r.hi)) r.hi = numerics::maxFinite(t), r.nan = true;
    return r;
  }

  Iv reduce(const PNode& n, int64_t* env) {
    // Cached by the values of the slots the reduction depends on, as in evaluator.cpp.
    std::pair<const PNode*, std::vector<int64_t>> key{&n, {}};
    if (n.cache >= 0) {
      for (int s : n.keys) key.second.push_back(env[s]);
      if (auto it = reduceCache_.find(key); it != reduceCache_.end()) return it->second;
    }
    int64_t lo = detail::evalInt(n.kids[0], env), hi = detail::evalInt(n.kids[1], env);
    auto run = [&](auto& acc) {
      for (int64_t i = lo; i <= hi; ++i) {
        env[n.slot] = i;
        acc.add(real(n.kids[2], env));
      }
      return acc.result();
    };
    Iv r;
    switch (n.fn) {
      case Fn::Sum: { SumBound a; r = run(a); break; }
      case Fn::Prod: { ProdBound a; r = run(a); break; }
      case Fn::Max: case Fn::Min: { ExtremeBound a(n.fn == Fn::Max); r = run(a); break; }
      default: throw EvalError("unknown reducer");
    }
    if (n.cache >= 0) reduceCache_.emplace(std::move(key), r);
    return r;
  }

  Tri boolean(const PNode& n, int64_t* env) {
    switch (n.op) {
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
        if (n.cmp == detail::CmpMode::Bool) {
          Tri a = boolean(n.kids[0], env), b = boolean(n.kids[1], env);
          if (a == Tri::Unknown || b == Tri::Unknown) return Tri::Unknown;
          return n.op == Op::Eq ? tri(a == b) : n.op == Op::Ne ? tri(a != b) : Tri::False;
        }
        if (n.cmp != detail::CmpMode::Real) return tri(detail::evalBool(n, env));
        return compare(n.op, real(n.kids[0], env), real(n.kids[1], env));
      }
      case Op::Not: {
        Tri a = boolean(n.kids[0], env);
        return a == Tri::Unknown ? a : tri(a == Tri::False);
      }
      case Op::And: case Op::Or: case Op::Implies: {
        // Kleene logic; the right side is evaluated when the left does not decide.
        Tri a = boolean(n.kids[0], env);
        if (n.op == Op::Implies) a = a == Tri::Unknown ? a : tri(a == Tri::False);
        Tri stop = n.op == Op::And ? Tri::False : Tri::True;
        if (a == stop) return stop;
        Tri b = boolean(n.kids[1], env);
        if (b == stop) return stop;
        return a == Tri::Unknown || b == Tri::Unknown ? Tri::Unknown : b;
      }
      case Op::Select: {
        Tri c = boolean(n.kids[0], env);
        if (c != Tri::Unknown) return boolean(n.kids[c == Tri::True ? 1 : 2], env);
        return merge(boolean(n.kids[1], env), boolean(n.kids[2], env));
      }
      case Op::Call: {
        Iv x = real(n.kids[0], env);
        bool inf = x.real && (std::isinf(x.lo) || std::isinf(x.hi));
        bool finite = x.real && (x.lo < x.hi || std::isfinite(x.lo));
        auto of = [](bool can, bool canNot) { return can && canNot ? Tri::Unknown : tri(can); };
        switch (n.fn) {
          case Fn::IsNan: return of(x.nan, x.real);
          case Fn::IsInf: return of(inf, x.nan || finite);
          case Fn::IsFinite: return of(finite, x.nan || inf);
          default: throw EvalError("function does not give a Bool");
        }
      }
      case Op::Quantifier: return quantify(n, env, 0);
      case Op::ConstBool: return tri(n.b);
      default: return tri(detail::evalBool(n, env));
    }
  }

  Tri quantify(const PNode& n, int64_t* env, size_t level) {
    size_t nv = (n.kids.size() - 1) / 2;
    if (level == nv) return boolean(n.kids.back(), env);
    int64_t lo = detail::evalInt(n.kids[2 * level], env), hi = detail::evalInt(n.kids[2 * level + 1], env);
    bool unknown = false;
    for (int64_t i = lo; i <= hi; ++i) {
      env[n.slot + static_cast<int>(level)] = i;
      Tri v = quantify(n, env, level + 1);
      if (v == Tri::Unknown) unknown = true;
      else if (v != tri(n.b)) return v;  // forall: a false body; exists: a true one
    }
    return unknown ? Tri::Unknown : tri(n.b);
  }

  EnclosureOptions opts_;
  const OracleResult& f64_;
  const Bindings& b_;
  detail::PrepareContext ctx_;
  std::vector<State> states_;  // never resized: stats_ keys point into it
  std::map<std::pair<int, Cell>, Iv> memo_;
  std::map<std::pair<const PNode*, std::vector<int64_t>>, Iv> reduceCache_;
  std::map<const PNode*, std::pair<const ir::Node*, int>> stats_;
  std::map<const PNode*, Iv> statValues_;
};

}  // namespace

std::vector<Enclosure> encloseCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                    const std::string& def, const std::vector<Cell>& cells,
                                    const EnclosureOptions& opts) {
  Interp in(ct, b, f64, opts);
  int d = in.defNumber(def);
  std::vector<Enclosure> out;
  out.reserve(cells.size());
  for (const auto& c : cells) out.push_back(in.cell(d, c));
  return out;
}

}  // namespace kc::oracle
