#include "compiler/sema/builtins.h"

namespace kc::sema {

const std::vector<Builtin>& builtins() {
  using ir::Op;
  using ir::Type;
  static const std::vector<Builtin> table = {
      {"exp", Op::Call, {Arg::Number}, Type::Real, "e^x"},
      {"exp2", Op::Call, {Arg::Number}, Type::Real, "2^x"},
      {"log", Op::Call, {Arg::Number}, Type::Real, "natural logarithm"},
      {"log2", Op::Call, {Arg::Number}, Type::Real, "base-2 logarithm"},
      {"log10", Op::Call, {Arg::Number}, Type::Real, "base-10 logarithm"},
      {"sqrt", Op::Call, {Arg::Number}, Type::Real, "square root"},
      {"rsqrt", Op::Call, {Arg::Number}, Type::Real, "1 / sqrt(x)"},
      {"tanh", Op::Call, {Arg::Number}, Type::Real, "hyperbolic tangent"},
      {"erf", Op::Call, {Arg::Number}, Type::Real, "error function"},
      {"sin", Op::Call, {Arg::Number}, Type::Real, "sine"},
      {"cos", Op::Call, {Arg::Number}, Type::Real, "cosine"},
      {"sigmoid", Op::Call, {Arg::Number}, Type::Real, "1 / (1 + e^-x)"},
      {"floor", Op::Call, {Arg::Number}, Type::Real, "largest integer <= x"},
      {"ceil", Op::Call, {Arg::Number}, Type::Real, "smallest integer >= x"},
      {"fmax", Op::Call, {Arg::Number, Arg::Number}, Type::Real, "the larger of two values (NaN if either is)"},
      {"fmin", Op::Call, {Arg::Number, Arg::Number}, Type::Real, "the smaller of two values (NaN if either is)"},
      {"isnan", Op::Call, {Arg::Number}, Type::Bool, "x is NaN"},
      {"isinf", Op::Call, {Arg::Number}, Type::Bool, "x is +Inf or -Inf"},
      {"isfinite", Op::Call, {Arg::Number}, Type::Bool, "x is neither NaN nor infinite"},
      {"eps", Op::DTypeQuery, {Arg::DType}, Type::Real, "machine epsilon 2^(1-p) of T"},
      {"unit_roundoff", Op::DTypeQuery, {Arg::DType}, Type::Real, "u = eps(T)/2"},
      {"min_normal", Op::DTypeQuery, {Arg::DType}, Type::Real, "smallest normal value of T"},
      {"max_finite", Op::DTypeQuery, {Arg::DType}, Type::Real, "largest finite value of T"},
      {"ulp", Op::DTypeQuery, {Arg::DType, Arg::Number}, Type::Real, "spacing of T at |x|"},
      {"gamma", Op::DTypeQuery, {Arg::Int, Arg::DType}, Type::Real, "n u / (1 - n u) for T's unit roundoff u"},
      {"round", Op::RoundTo, {Arg::DType, Arg::Number}, Type::Real, "x rounded to nearest-even in T"},
  };
  return table;
}

const Builtin* findBuiltin(const std::string& name) {
  for (const auto& b : builtins())
    if (name == b.name) return &b;
  return nullptr;
}

}  // namespace kc::sema
