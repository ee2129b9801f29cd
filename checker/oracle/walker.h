#pragma once
// The one interpreter over the prepared IR (evaluator.h, detail::PNode), parameterised by a
// domain: f64 (f64_domain.h), MPFR (mpfr_domain.h) and intervals (interval_domain.h). The
// walker owns the shape of the language (which kid is what, reductions, conditions,
// quantifiers); what differs between domains lives only in the domain. A domain D provides
//   Value, Truth (bool, or Tri when a condition can stay undecided: truth.h)
//   leaves:      fromInt(int64_t), fromTruth(Truth), literal(n), constant(double), stat(n),
//                read(n, env) (a tensor read)
//   arithmetic:  neg, abs (Value); add, sub, mul, div, pow (Value, Value);
//                call(Fn, Value) (one-argument functions), extreme(isMax, Value, Value)
//                (fmax, fmin), ulp(DType, Value), gamma(int64_t, DType), roundTo(DType, Value)
//   reductions:  sum(), prod(), max(), min(): accumulators with add(Value) and result();
//                memoReduce(n, env, compute) (the reduction cache, PNode::cache)
//   conditions:  compare(Op, Value, Value), classify(Fn, Value) (isnan, isinf, isfinite);
//                hull(Value, Value) for an undecided if-then-else (three-valued domains only)
// Integers (indices, dims, counts) are exact in every domain: evalInt (integers.cpp).
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "checker/oracle/evaluator.h"
#include "checker/oracle/truth.h"

namespace kc::oracle::detail {

template <class D>
class Walker {
 public:
  using Value = typename D::Value;
  using Truth = typename D::Truth;
  using L = Logic<Truth>;

  explicit Walker(D& d) : h_(handle(d)) {}

  Value real(const PNode& n, int64_t* env) const { return realOf(h_, n, env); }  // Int and Bool nodes too
  Truth truth(const PNode& n, int64_t* env) const { return truthOf(h_, n, env); }

 private:
  // The domain travels down the recursion as a handle: a pointer, or for a stateless domain
  // (f64) nothing at all, since an empty struct by value takes no register (the hot path).
  using H = std::conditional_t<std::is_empty_v<D>, D, D*>;
  static H handle(D& d) {
    if constexpr (std::is_empty_v<D>) return d;
    else return &d;
  }
  static D& dom(H& h) {
    if constexpr (std::is_empty_v<D>) return h;
    else return *h;
  }

  static Value realOf(H h, const PNode& n, int64_t* env) {
    if (n.type == ir::Type::Int) {
      // An integer if-then-else is decided in the domain (or hulled), its branches exactly.
      if (n.op == ir::Op::Select) return select(h, n, env);
      return dom(h).fromInt(evalInt(n, env));
    }
    if (n.type == ir::Type::Bool) return dom(h).fromTruth(truthOf(h, n, env));
    using ir::Op;
    switch (n.op) {
      case Op::ConstReal: return dom(h).literal(n);
      case Op::ConstInt: return dom(h).fromInt(n.i);
      case Op::TensorStat: return dom(h).stat(n);
      case Op::TensorRead: return dom(h).read(n, env);
      case Op::Neg: return dom(h).neg(realOf(h, n.kids[0], env));
      case Op::Abs: return dom(h).abs(realOf(h, n.kids[0], env));
      case Op::Add: { Value a = realOf(h, n.kids[0], env); return dom(h).add(std::move(a), realOf(h, n.kids[1], env)); }
      case Op::Sub: { Value a = realOf(h, n.kids[0], env); return dom(h).sub(std::move(a), realOf(h, n.kids[1], env)); }
      case Op::Mul: { Value a = realOf(h, n.kids[0], env); return dom(h).mul(std::move(a), realOf(h, n.kids[1], env)); }
      case Op::Div: { Value a = realOf(h, n.kids[0], env); return dom(h).div(std::move(a), realOf(h, n.kids[1], env)); }
      case Op::Pow: { Value a = realOf(h, n.kids[0], env); return dom(h).pow(std::move(a), realOf(h, n.kids[1], env)); }
      case Op::Select: return select(h, n, env);
      case Op::Call: {
        Value x = realOf(h, n.kids[0], env);
        if (n.fn == Fn::Fmax || n.fn == Fn::Fmin) return dom(h).extreme(n.fn == Fn::Fmax, std::move(x), realOf(h, n.kids[1], env));
        return dom(h).call(n.fn, std::move(x));
      }
      case Op::DTypeQuery:
        switch (n.fn) {
          case Fn::Ulp: return dom(h).ulp(n.dtype, realOf(h, n.kids[1], env));
          case Fn::Gamma: {
            int64_t k = evalInt(n.kids[0], env);
            if (k < 0) throw EvalError("gamma of a negative count");
            return dom(h).gamma(k, n.dtype);
          }
          default: return dom(h).constant(n.d);  // eps, unit_roundoff, ...: computed by prepare
        }
      case Op::RoundTo: return dom(h).roundTo(n.dtype, realOf(h, n.kids[1], env));
      case Op::Reduce:
        if (n.cache >= 0) return dom(h).memoReduce(n, env, [&] { return reduce(h, n, env); });
        return reduce(h, n, env);
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a real");
    }
  }

  static Truth truthOf(H h, const PNode& n, int64_t* env) {
    using ir::Op;
    switch (n.op) {
      case Op::ConstBool: return L::of(n.b);
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
        const PNode& a = n.kids[0];
        const PNode& b = n.kids[1];
        switch (n.cmp) {
          case CmpMode::Int: {
            int64_t x = evalInt(a, env), y = evalInt(b, env);
            return L::of(holds(n.op, x < y ? -1 : x > y ? 1 : 0));
          }
          case CmpMode::DType: return L::of(holds(n.op, a.dtype == b.dtype ? 0 : 2));
          case CmpMode::Bool: {  // == and != only (sema)
            Truth x = truthOf(h, a, env), y = truthOf(h, b, env);
            if (!L::known(x) || !L::known(y)) return L::unknown();
            return L::of(holds(n.op, x == y ? 0 : 2));
          }
          case CmpMode::Real: break;
        }
        Value x = realOf(h, a, env);
        return dom(h).compare(n.op, x, realOf(h, b, env));
      }
      case Op::Not: return L::negate(truthOf(h, n.kids[0], env));
      case Op::And: return junction(h, n, env, false);
      case Op::Or: case Op::Implies: return junction(h, n, env, true);
      case Op::Select: {
        Truth c = truthOf(h, n.kids[0], env);
        if (L::known(c)) return truthOf(h, n.kids[L::isTrue(c) ? 1 : 2], env);
        Truth x = truthOf(h, n.kids[1], env), y = truthOf(h, n.kids[2], env);
        return x == y ? x : L::unknown();
      }
      case Op::Call: return dom(h).classify(n.fn, realOf(h, n.kids[0], env));
      case Op::Quantifier: return quantify(h, n, env, 0);
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a Bool");
    }
  }

  // and (stop at false), or / implies (stop at true), in Kleene's logic: the right side is
  // evaluated only when the left does not decide.
  static Truth junction(H h, const PNode& n, int64_t* env, bool stop) {
    Truth a = truthOf(h, n.kids[0], env);
    if (n.op == ir::Op::Implies) a = L::negate(a);
    if (L::known(a) && L::isTrue(a) == stop) return a;
    Truth b = truthOf(h, n.kids[1], env);
    if (L::known(b) && L::isTrue(b) == stop) return b;
    return L::known(a) ? b : a;  // both known: b (not stop); else unknown
  }

  // An undecided condition (three-valued domains): either branch may be taken.
  static Value select(H h, const PNode& n, int64_t* env) {
    Truth c = truthOf(h, n.kids[0], env);
    if constexpr (D::kThreeValued) {
      if (!L::known(c)) {
        Value a = realOf(h, n.kids[1], env);
        return dom(h).hull(std::move(a), realOf(h, n.kids[2], env));
      }
    }
    return realOf(h, n.kids[L::isTrue(c) ? 1 : 2], env);
  }

  static Truth quantify(H h, const PNode& n, int64_t* env, size_t level) {
    size_t nv = (n.kids.size() - 1) / 2;
    if (level == nv) return truthOf(h, n.kids.back(), env);
    int64_t lo = evalInt(n.kids[2 * level], env), hi = evalInt(n.kids[2 * level + 1], env);
    int slot = n.slot + static_cast<int>(level);
    bool unknown = false;
    for (int64_t i = lo; i <= hi; ++i) {
      env[slot] = i;
      Truth v = quantify(h, n, env, level + 1);
      if (!L::known(v)) unknown = true;
      else if (L::isTrue(v) != n.b) return v;  // forall: a false body; exists: a true one
    }
    return unknown ? L::unknown() : L::of(n.b);
  }

  static Value reduce(H h, const PNode& n, int64_t* env) {
    int64_t lo = evalInt(n.kids[0], env), hi = evalInt(n.kids[1], env);
    switch (n.fn) {
      case Fn::Sum: return fold(h, dom(h).sum(), n, lo, hi, env);
      case Fn::Prod: return fold(h, dom(h).prod(), n, lo, hi, env);
      case Fn::Max: return fold(h, dom(h).max(), n, lo, hi, env);
      case Fn::Min: return fold(h, dom(h).min(), n, lo, hi, env);
      default: throw EvalError("unknown reducer");
    }
  }

  template <class Acc>
  static Value fold(H h, Acc acc, const PNode& n, int64_t lo, int64_t hi, int64_t* env) {
    const PNode& body = n.kids[2];
    for (int64_t i = lo; i <= hi; ++i) {
      env[n.slot] = i;
      acc.add(realOf(h, body, env));
    }
    return acc.result();
  }

  H h_;
};

}  // namespace kc::oracle::detail
