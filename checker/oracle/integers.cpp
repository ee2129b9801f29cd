// Integer evaluation, exact in every domain (indices, dims, counts, integer reductions);
// overflow raises EvalError. An integer if-then-else nested in integer arithmetic decides
// its condition in f64 (docs/oracle.md, "Not yet").
#include <cstdint>
#include <string>

#include "checker/oracle/env_cache.h"
#include "checker/oracle/evaluator.h"
#include "compiler/ir/eval.h"

namespace kc::oracle::detail {

using ir::Op;

namespace {

[[noreturn]] void overflow() { throw EvalError("integer overflow"); }

int64_t reduceInt(const PNode& n, int64_t* env);

}  // namespace

int64_t evalInt(const PNode& n, int64_t* env) {
  switch (n.op) {
    case Op::ConstInt: case Op::Dim: return n.i;
    case Op::IndexVar: return env[n.slot];
    case Op::Neg: {
      int64_t a = evalInt(n.kids[0], env);
      if (a == INT64_MIN) overflow();
      return -a;
    }
    case Op::Abs: {
      int64_t a = evalInt(n.kids[0], env);
      if (a == INT64_MIN) overflow();
      return a < 0 ? -a : a;
    }
    case Op::Div: {  // typed Int: floor division
      if (n.type != ir::Type::Int) throw EvalError("a real quotient evaluated as an integer");
      auto q = ir::floorDiv(evalInt(n.kids[0], env), evalInt(n.kids[1], env));
      if (!q) throw EvalError("integer division by zero");
      return *q;
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mod: case Op::Pow: {
      int64_t a = evalInt(n.kids[0], env), b = evalInt(n.kids[1], env), r = 0;
      switch (n.op) {
        case Op::Add: if (__builtin_add_overflow(a, b, &r)) overflow(); return r;
        case Op::Sub: if (__builtin_sub_overflow(a, b, &r)) overflow(); return r;
        case Op::Mul: if (__builtin_mul_overflow(a, b, &r)) overflow(); return r;
        case Op::Mod: {
          auto m = ir::floorMod(a, b);
          if (!m) throw EvalError("integer modulo by zero");
          return *m;
        }
        default: {
          if (b < 0) throw EvalError("negative integer exponent");
          auto v = ir::intPow(a, b);
          if (!v) overflow();
          return *v;
        }
      }
    }
    case Op::Select: return evalBool(n.kids[0], env) ? evalInt(n.kids[1], env) : evalInt(n.kids[2], env);
    case Op::Reduce: {
      int64_t* c = n.cache >= 0 ? cacheHit(n, env) : nullptr;
      if (c) return *c;
      int64_t v = reduceInt(n, env);
      if (n.cache >= 0) *cacheStore(n, env) = v;
      return v;
    }
    default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as an integer");
  }
}

namespace {

int64_t reduceInt(const PNode& n, int64_t* env) {
  int64_t lo = evalInt(n.kids[0], env), hi = evalInt(n.kids[1], env);
  int64_t acc = n.fn == Fn::Sum ? 0 : n.fn == Fn::Prod ? 1 : n.fn == Fn::Max ? INT64_MIN : INT64_MAX;
  for (int64_t i = lo; i <= hi; ++i) {
    env[n.slot] = i;
    int64_t v = evalInt(n.kids[2], env);
    switch (n.fn) {
      case Fn::Sum: if (__builtin_add_overflow(acc, v, &acc)) overflow(); break;
      case Fn::Prod: if (__builtin_mul_overflow(acc, v, &acc)) overflow(); break;
      case Fn::Max: acc = v > acc ? v : acc; break;
      default: acc = v < acc ? v : acc; break;
    }
  }
  return acc;
}

}  // namespace

}  // namespace kc::oracle::detail
