#pragma once
// The f64 domain of the walker (walker.h): IEEE doubles, libm, left-to-right sums. The hot
// path of every check: everything here is inline, so Walker<F64Domain> compiles to the
// plain interpreter (a tensor subscript that is an index variable is read from its slot).
#include <cmath>
#include <cstring>
#include <string>

#include "checker/oracle/env_cache.h"
#include "checker/oracle/evaluator.h"
#include "checker/oracle/truth.h"
#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"

namespace kc::oracle::detail {

// fmax, fmin, max and min are NaN when either operand is (docs/oracle.md).
inline double nanMax(double a, double b) { return (std::isnan(a) || std::isnan(b)) ? NAN : (a > b ? a : b); }
inline double nanMin(double a, double b) { return (std::isnan(a) || std::isnan(b)) ? NAN : (a < b ? a : b); }

// Inlined into the walker by force: out of line, the call costs 15% of a softmax oracle.
[[gnu::always_inline]] inline int64_t readOffset(const PNode& n, int64_t* env) {
  if (!n.tensor) throw EvalError("'" + *n.name + "' has no f64 values");
  const Tensor& t = *n.tensor;
  int64_t off = 0;
  for (size_t k = 0; k < n.kids.size(); ++k) {
    const PNode& kid = n.kids[k];
    int64_t i = kid.op == ir::Op::IndexVar ? env[kid.slot] : evalInt(kid, env);  // most subscripts: no call
    if (i < 0 || i >= t.shape[k])
      throw EvalError("'" + *n.name + "' read at index " + std::to_string(i) + " outside 0.." +
                      std::to_string(t.shape[k] - 1));
    off += i * t.strides[k];
  }
  return off;
}

struct F64Domain {
  using Value = double;
  using Truth = bool;
  static constexpr bool kThreeValued = false;

  static double fromInt(int64_t i) { return static_cast<double>(i); }
  static double fromTruth(bool b) { return b ? 1.0 : 0.0; }
  static double literal(const PNode& n) { return n.d; }
  static double constant(double d) { return d; }
  static double stat(const PNode& n) { return n.d; }  // computed by prepare
  [[gnu::always_inline]] static double read(const PNode& n, int64_t* env) { return n.tensor->data[static_cast<size_t>(readOffset(n, env))]; }

  static double neg(double x) { return -x; }
  static double abs(double x) { return std::fabs(x); }
  static double add(double x, double y) { return x + y; }
  static double sub(double x, double y) { return x - y; }
  static double mul(double x, double y) { return x * y; }
  static double div(double x, double y) { return x / y; }
  static double pow(double x, double y) { return std::pow(x, y); }
  static double extreme(bool isMax, double x, double y) { return isMax ? nanMax(x, y) : nanMin(x, y); }
  [[gnu::always_inline]] static double call(Fn f, double x) {
    switch (f) {
      case Fn::Exp: return std::exp(x);
      case Fn::Exp2: return std::exp2(x);
      case Fn::Log: return std::log(x);
      case Fn::Log2: return std::log2(x);
      case Fn::Log10: return std::log10(x);
      case Fn::Sqrt: return std::sqrt(x);
      case Fn::Rsqrt: return 1.0 / std::sqrt(x);
      case Fn::Tanh: return std::tanh(x);
      case Fn::Erf: return std::erf(x);
      case Fn::Sin: return std::sin(x);
      case Fn::Cos: return std::cos(x);
      case Fn::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
      case Fn::Floor: return std::floor(x);
      case Fn::Ceil: return std::ceil(x);
      default: throw EvalError("function does not give a real");
    }
  }
  static double ulp(numerics::DType t, double x) { return numerics::ulp(t, x); }
  static double gamma(int64_t k, numerics::DType t) { return numerics::gamma(static_cast<uint64_t>(k), t); }
  static double roundTo(numerics::DType t, double x) { return numerics::roundTo(t, x); }

  struct Sum {
    double acc = 0.0;
    void add(double v) { acc += v; }
    double result() const { return acc; }
  };
  struct Prod {
    double acc = 1.0;
    void add(double v) { acc *= v; }
    double result() const { return acc; }
  };
  struct Max {
    double acc = -INFINITY;
    void add(double v) { acc = nanMax(acc, v); }
    double result() const { return acc; }
  };
  struct Min {
    double acc = INFINITY;
    void add(double v) { acc = nanMin(acc, v); }
    double result() const { return acc; }
  };
  static Sum sum() { return {}; }
  static Prod prod() { return {}; }
  static Max max() { return {}; }
  static Min min() { return {}; }

  // The cache lives in the env (env_cache.h), a double as its bits.
  template <class F>
  static double memoReduce(const PNode& n, int64_t* env, F compute) {
    double v;
    if (int64_t* c = cacheHit(n, env)) {
      std::memcpy(&v, c, sizeof v);
      return v;
    }
    v = compute();
    std::memcpy(cacheStore(n, env), &v, sizeof v);
    return v;
  }

  static bool compare(ir::Op op, double x, double y) { return holds(op, x < y ? -1 : x > y ? 1 : x == y ? 0 : 2); }
  static bool classify(Fn f, double x) {
    switch (f) {
      case Fn::IsNan: return std::isnan(x);
      case Fn::IsInf: return std::isinf(x);
      case Fn::IsFinite: return std::isfinite(x);
      default: throw EvalError("function does not give a Bool");
    }
  }
};

}  // namespace kc::oracle::detail
