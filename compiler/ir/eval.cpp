#include "compiler/ir/eval.h"

namespace kc::ir {

std::optional<int64_t> evalInt(const Node& n, const IntEnv& env) {
  switch (n.op) {
    case Op::ConstInt: return n.i;
    case Op::Dim:
    case Op::IndexVar: {
      auto it = env.find(n.name);
      if (it == env.end()) return std::nullopt;
      return it->second;
    }
    case Op::Neg: {
      auto a = evalInt(*n.kids[0], env);
      if (!a || *a == INT64_MIN) return std::nullopt;
      return -*a;
    }
    case Op::Abs: {
      auto a = evalInt(*n.kids[0], env);
      if (!a || *a == INT64_MIN) return std::nullopt;
      return *a < 0 ? -*a : *a;
    }
    case Op::Div: {  // typed Int: floor division (floor(a / b) of integers)
      if (n.type != Type::Int) return std::nullopt;
      auto a = evalInt(*n.kids[0], env);
      auto b = evalInt(*n.kids[1], env);
      if (!a || !b) return std::nullopt;
      return floorDiv(*a, *b);
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mod: case Op::Pow: {
      auto a = evalInt(*n.kids[0], env);
      auto b = evalInt(*n.kids[1], env);
      if (!a || !b) return std::nullopt;
      int64_t out = 0;
      switch (n.op) {
        case Op::Add: if (__builtin_add_overflow(*a, *b, &out)) return std::nullopt; return out;
        case Op::Sub: if (__builtin_sub_overflow(*a, *b, &out)) return std::nullopt; return out;
        case Op::Mul: if (__builtin_mul_overflow(*a, *b, &out)) return std::nullopt; return out;
        case Op::Mod: return floorMod(*a, *b);
        default: return intPow(*a, *b);
      }
    }
    default: return std::nullopt;
  }
}

std::optional<bool> evalCond(const Node& n, const IntEnv& env) {
  switch (n.op) {
    case Op::ConstBool: return n.b;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
      auto a = evalInt(*n.kids[0], env);
      auto b = evalInt(*n.kids[1], env);
      if (!a || !b) return std::nullopt;
      switch (n.op) {
        case Op::Lt: return *a < *b;
        case Op::Le: return *a <= *b;
        case Op::Gt: return *a > *b;
        case Op::Ge: return *a >= *b;
        case Op::Eq: return *a == *b;
        default: return *a != *b;
      }
    }
    case Op::Not: {
      auto a = evalCond(*n.kids[0], env);
      if (!a) return std::nullopt;
      return !*a;
    }
    case Op::And: case Op::Or: case Op::Implies: {
      std::optional<bool> a = evalCond(*n.kids[0], env);
      std::optional<bool> b = evalCond(*n.kids[1], env);
      if (n.op == Op::Implies && a) a = !*a;  // a => b is !a || b
      const bool decides = n.op != Op::And;   // the operand value that settles the result
      if ((a && *a == decides) || (b && *b == decides)) return decides;
      if (a && b) return !decides;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace kc::ir
