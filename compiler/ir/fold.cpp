// Constant folding over the IR. Integer arithmetic is exact: an operation that would
// overflow int64 is left as it is rather than wrapped.
#include <cmath>
#include <cstdlib>
#include <optional>

#include "compiler/ir/ir.h"
#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/error_bounds.h"

namespace kc::ir {

namespace {

bool isConstNumber(const Node& n) { return n.op == Op::ConstInt || n.op == Op::ConstReal; }
double asReal(const Node& n) { return n.op == Op::ConstInt ? static_cast<double>(n.i) : n.d; }

NodePtr foldInts(Op op, int64_t a, int64_t b, SourceRange r) {
  int64_t out = 0;
  switch (op) {
    case Op::Add: if (__builtin_add_overflow(a, b, &out)) return nullptr; break;
    case Op::Sub: if (__builtin_sub_overflow(a, b, &out)) return nullptr; break;
    case Op::Mul: if (__builtin_mul_overflow(a, b, &out)) return nullptr; break;
    case Op::Mod: {
      auto m = floorMod(a, b);
      if (!m) return nullptr;
      out = *m;
      break;
    }
    case Op::Div: {  // reached only for a Div typed Int: floor division
      auto q = floorDiv(a, b);
      if (!q) return nullptr;
      out = *q;
      break;
    }
    case Op::Pow: {
      auto v = intPow(a, b);
      if (!v) return nullptr;
      out = *v;
      break;
    }
    default: return nullptr;
  }
  return makeInt(out, r);
}

NodePtr foldReals(Op op, double a, double b, SourceRange r) {
  switch (op) {
    case Op::Add: return makeReal(a + b, r);
    case Op::Sub: return makeReal(a - b, r);
    case Op::Mul: return makeReal(a * b, r);
    case Op::Div: return b == 0 ? nullptr : makeReal(a / b, r);
    case Op::Pow: return makeReal(std::pow(a, b), r);
    default: return nullptr;
  }
}

std::optional<bool> compare(Op op, double a, double b) {
  switch (op) {
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    case Op::Eq: return a == b;
    case Op::Ne: return a != b;
    default: return std::nullopt;
  }
}

NodePtr foldDTypeQuery(const Node& n) {
  if (n.kids.empty() || n.kids[0]->op != Op::DTypeConst) return nullptr;
  auto t = numerics::parseDType(n.kids[0]->name);
  if (!t || !numerics::isFloat(*t)) return nullptr;
  if (n.name == "eps") return makeReal(numerics::eps(*t), n.range);
  if (n.name == "unit_roundoff") return makeReal(numerics::unitRoundoff(*t), n.range);
  if (n.name == "min_normal") return makeReal(numerics::minNormal(*t), n.range);
  if (n.name == "max_finite") return makeReal(numerics::maxFinite(*t), n.range);
  if (n.name == "ulp" && n.kids.size() == 2 && isConstNumber(*n.kids[1]))
    return makeReal(numerics::ulp(*t, asReal(*n.kids[1])), n.range);
  return nullptr;
}

NodePtr foldGamma(const Node& n) {
  // gamma(n, T): kids are the count and the dtype.
  if (n.kids.size() != 2 || n.kids[0]->op != Op::ConstInt || n.kids[0]->i < 0 || n.kids[1]->op != Op::DTypeConst)
    return nullptr;
  auto t = numerics::parseDType(n.kids[1]->name);
  if (!t || !numerics::isFloat(*t)) return nullptr;
  return makeReal(numerics::gamma(n.kids[0]->i, *t), n.range);
}

}  // namespace

NodePtr fold(NodePtr n) {
  for (auto& k : n->kids) k = fold(std::move(k));
  const SourceRange r = n->range;
  auto& kids = n->kids;

  if ((n->op == Op::Neg || n->op == Op::Abs) && isConstNumber(*kids[0])) {
    if (kids[0]->op == Op::ConstInt && kids[0]->i != INT64_MIN)
      return makeInt(n->op == Op::Neg ? -kids[0]->i : std::llabs(kids[0]->i), r);
    if (kids[0]->op == Op::ConstReal) return makeReal(n->op == Op::Neg ? -kids[0]->d : std::fabs(kids[0]->d), r);
  }
  if (isArithmetic(n->op) && kids.size() == 2 && isConstNumber(*kids[0]) && isConstNumber(*kids[1])) {
    NodePtr out;
    if (n->type == Type::Int && kids[0]->op == Op::ConstInt && kids[1]->op == Op::ConstInt)
      out = foldInts(n->op, kids[0]->i, kids[1]->i, r);
    else if (n->type == Type::Real)
      out = foldReals(n->op, asReal(*kids[0]), asReal(*kids[1]), r);
    if (out) return out;
  }
  if (isComparison(n->op) && isConstNumber(*kids[0]) && isConstNumber(*kids[1])) {
    if (auto v = compare(n->op, asReal(*kids[0]), asReal(*kids[1]))) return makeBool(*v, r);
  }
  if (n->op == Op::Not && kids[0]->op == Op::ConstBool) return makeBool(!kids[0]->b, r);
  if (n->op == Op::And || n->op == Op::Or || n->op == Op::Implies) {
    const Node& a = *kids[0];
    const Node& b = *kids[1];
    bool aConst = a.op == Op::ConstBool, bConst = b.op == Op::ConstBool;
    if (n->op == Op::And) {
      if ((aConst && !a.b) || (bConst && !b.b)) return makeBool(false, r);
      if (aConst) return std::move(kids[1]);
      if (bConst) return std::move(kids[0]);
    } else if (n->op == Op::Or) {
      if ((aConst && a.b) || (bConst && b.b)) return makeBool(true, r);
      if (aConst) return std::move(kids[1]);
      if (bConst) return std::move(kids[0]);
    } else {
      if ((aConst && !a.b) || (bConst && b.b)) return makeBool(true, r);
      if (aConst) return std::move(kids[1]);
    }
  }
  if (n->op == Op::Select && kids[0]->op == Op::ConstBool) return std::move(kids[kids[0]->b ? 1 : 2]);
  if (n->op == Op::DTypeQuery) {
    if (auto out = n->name == "gamma" ? foldGamma(*n) : foldDTypeQuery(*n)) return out;
  }
  if (n->op == Op::Call && n->name == "sqrt" && isConstNumber(*kids[0]) && asReal(*kids[0]) >= 0)
    return makeReal(std::sqrt(asReal(*kids[0])), r);  // correctly rounded everywhere
  if (n->op == Op::Call && (n->name == "floor" || n->name == "ceil") && isConstNumber(*kids[0]))
    return makeReal(n->name == "floor" ? std::floor(asReal(*kids[0])) : std::ceil(asReal(*kids[0])), r);  // exact
  return n;
}

}  // namespace kc::ir
