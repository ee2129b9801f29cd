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

  explicit Walker(D& d) : d_(d) {}

  Value real(const PNode& n, int64_t* env) {  // Int and Bool nodes too (as numbers)
    if (n.type == ir::Type::Int) {
      // An integer if-then-else is decided in the domain (or hulled), its branches exactly.
      if (n.op == ir::Op::Select) return select(n, env);
      return d_.fromInt(evalInt(n, env));
    }
    if (n.type == ir::Type::Bool) return d_.fromTruth(truth(n, env));
    using ir::Op;
    switch (n.op) {
      case Op::ConstReal: return d_.literal(n);
      case Op::ConstInt: return d_.fromInt(n.i);
      case Op::TensorStat: return d_.stat(n);
      case Op::TensorRead: return d_.read(n, env);
      case Op::Neg: return d_.neg(real(n.kids[0], env));
      case Op::Abs: return d_.abs(real(n.kids[0], env));
      case Op::Add: { Value a = real(n.kids[0], env); return d_.add(std::move(a), real(n.kids[1], env)); }
      case Op::Sub: { Value a = real(n.kids[0], env); return d_.sub(std::move(a), real(n.kids[1], env)); }
      case Op::Mul: { Value a = real(n.kids[0], env); return d_.mul(std::move(a), real(n.kids[1], env)); }
      case Op::Div: { Value a = real(n.kids[0], env); return d_.div(std::move(a), real(n.kids[1], env)); }
      case Op::Pow: { Value a = real(n.kids[0], env); return d_.pow(std::move(a), real(n.kids[1], env)); }
      case Op::Select: return select(n, env);
      case Op::Call: {
        Value x = real(n.kids[0], env);
        if (n.fn == Fn::Fmax || n.fn == Fn::Fmin) return d_.extreme(n.fn == Fn::Fmax, std::move(x), real(n.kids[1], env));
        return d_.call(n.fn, std::move(x));
      }
      case Op::DTypeQuery:
        switch (n.fn) {
          case Fn::Ulp: return d_.ulp(n.dtype, real(n.kids[1], env));
          case Fn::Gamma: {
            int64_t k = evalInt(n.kids[0], env);
            if (k < 0) throw EvalError("gamma of a negative count");
            return d_.gamma(k, n.dtype);
          }
          default: return d_.constant(n.d);  // eps, unit_roundoff, ...: computed by prepare
        }
      case Op::RoundTo: return d_.roundTo(n.dtype, real(n.kids[1], env));
      case Op::Reduce:
        if (n.cache >= 0) return d_.memoReduce(n, env, [&] { return reduce(n, env); });
        return reduce(n, env);
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a real");
    }
  }

  Truth truth(const PNode& n, int64_t* env) {
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
            Truth x = truth(a, env), y = truth(b, env);
            if (!L::known(x) || !L::known(y)) return L::unknown();
            return L::of(holds(n.op, x == y ? 0 : 2));
          }
          case CmpMode::Real: break;
        }
        Value x = real(a, env);
        return d_.compare(n.op, x, real(b, env));
      }
      case Op::Not: return L::negate(truth(n.kids[0], env));
      case Op::And: return junction(n, env, false);
      case Op::Or: case Op::Implies: return junction(n, env, true);
      case Op::Select: {
        Truth c = truth(n.kids[0], env);
        if (L::known(c)) return truth(n.kids[L::isTrue(c) ? 1 : 2], env);
        Truth x = truth(n.kids[1], env), y = truth(n.kids[2], env);
        return x == y ? x : L::unknown();
      }
      case Op::Call: return d_.classify(n.fn, real(n.kids[0], env));
      case Op::Quantifier: return quantify(n, env, 0);
      default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a Bool");
    }
  }

 private:
  // and (stop at false), or / implies (stop at true), in Kleene's logic: the right side is
  // evaluated only when the left does not decide.
  Truth junction(const PNode& n, int64_t* env, bool stop) {
    Truth a = truth(n.kids[0], env);
    if (n.op == ir::Op::Implies) a = L::negate(a);
    if (L::known(a) && L::isTrue(a) == stop) return a;
    Truth b = truth(n.kids[1], env);
    if (L::known(b) && L::isTrue(b) == stop) return b;
    return L::known(a) ? b : a;  // both known: b (not stop); else unknown
  }

  // An undecided condition (three-valued domains): either branch may be taken.
  Value select(const PNode& n, int64_t* env) {
    Truth c = truth(n.kids[0], env);
    if constexpr (D::kThreeValued) {
      if (!L::known(c)) {
        Value a = real(n.kids[1], env);
        return d_.hull(std::move(a), real(n.kids[2], env));
      }
    }
    return real(n.kids[L::isTrue(c) ? 1 : 2], env);
  }

  Truth quantify(const PNode& n, int64_t* env, size_t level) {
    size_t nv = (n.kids.size() - 1) / 2;
    if (level == nv) return truth(n.kids.back(), env);
    int64_t lo = evalInt(n.kids[2 * level], env), hi = evalInt(n.kids[2 * level + 1], env);
    int slot = n.slot + static_cast<int>(level);
    bool unknown = false;
    for (int64_t i = lo; i <= hi; ++i) {
      env[slot] = i;
      Truth v = quantify(n, env, level + 1);
      if (!L::known(v)) unknown = true;
      else if (L::isTrue(v) != n.b) return v;  // forall: a false body; exists: a true one
    }
    return unknown ? L::unknown() : L::of(n.b);
  }

  Value reduce(const PNode& n, int64_t* env) {
    int64_t lo = evalInt(n.kids[0], env), hi = evalInt(n.kids[1], env);
    switch (n.fn) {
      case Fn::Sum: return fold(d_.sum(), n, lo, hi, env);
      case Fn::Prod: return fold(d_.prod(), n, lo, hi, env);
      case Fn::Max: return fold(d_.max(), n, lo, hi, env);
      case Fn::Min: return fold(d_.min(), n, lo, hi, env);
      default: throw EvalError("unknown reducer");
    }
  }

  template <class Acc>
  Value fold(Acc acc, const PNode& n, int64_t lo, int64_t hi, int64_t* env) {
    const PNode& body = n.kids[2];
    for (int64_t i = lo; i <= hi; ++i) {
      env[n.slot] = i;
      acc.add(real(body, env));
    }
    return acc.result();
  }

  D& d_;
};

}  // namespace kc::oracle::detail
