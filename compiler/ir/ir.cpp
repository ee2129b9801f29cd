#include "compiler/ir/ir.h"

namespace kc::ir {

const char* typeName(Type t) {
  switch (t) {
    case Type::Bool: return "bool";
    case Type::Int: return "int";
    case Type::Real: return "real";
    case Type::DType: return "dtype";
    case Type::Tensor: return "tensor";
  }
  return "?";
}

const char* opName(Op op) {
  switch (op) {
    case Op::ConstInt: return "int";
    case Op::ConstReal: return "real";
    case Op::ConstBool: return "bool";
    case Op::DTypeConst: return "dtype";
    case Op::DTypeVar: return "dtype-var";
    case Op::Dim: return "dim";
    case Op::IndexVar: return "index";
    case Op::TensorRead: return "read";
    case Op::TensorWhole: return "tensor";
    case Op::Neg: return "neg";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Pow: return "^";
    case Op::Abs: return "abs";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Not: return "!";
    case Op::And: return "&&";
    case Op::Or: return "||";
    case Op::Implies: return "->";
    case Op::Select: return "if";
    case Op::Call: return "call";
    case Op::DTypeQuery: return "dtype-query";
    case Op::RoundTo: return "round";
    case Op::TensorStat: return "stat";
    case Op::Reduce: return "reduce";
    case Op::Quantifier: return "quantifier";
  }
  return "?";
}

const char* roleName(Role r) {
  switch (r) {
    case Role::Input: return "input";
    case Role::Output: return "output";
    case Role::Oracle: return "oracle";
    case Role::Local: return "local";
  }
  return "?";
}

NodePtr Node::clone() const {
  auto n = std::make_unique<Node>(op, type, range);
  n->i = i;
  n->d = d;
  n->b = b;
  n->name = name;
  n->text = text;
  n->role = role;
  n->vars = vars;
  for (const auto& k : kids) n->kids.push_back(k->clone());
  return n;
}

NodePtr makeInt(int64_t v, SourceRange r) {
  auto n = std::make_unique<Node>(Op::ConstInt, Type::Int, r);
  n->i = v;
  return n;
}

NodePtr makeReal(double v, SourceRange r, std::string text) {
  auto n = std::make_unique<Node>(Op::ConstReal, Type::Real, r);
  n->d = v;
  n->text = std::move(text);
  return n;
}

NodePtr makeBool(bool v, SourceRange r) {
  auto n = std::make_unique<Node>(Op::ConstBool, Type::Bool, r);
  n->b = v;
  return n;
}

NodePtr makeLeaf(Op op, Type t, std::string name, SourceRange r) {
  auto n = std::make_unique<Node>(op, t, r);
  n->name = std::move(name);
  return n;
}

NodePtr makeNode(Op op, Type t, SourceRange r, std::vector<NodePtr> kids) {
  auto n = std::make_unique<Node>(op, t, r);
  n->kids = std::move(kids);
  return n;
}

std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

std::optional<int64_t> floorMod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;  // and INT64_MIN % -1 would trap
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

std::optional<int64_t> intPow(int64_t base, int64_t exponent) {
  if (exponent < 0) return std::nullopt;
  if (base == 0 || base == 1) return exponent == 0 ? 1 : base;
  if (base == -1) return exponent % 2 == 0 ? 1 : -1;
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1)
      if (__builtin_mul_overflow(result, base, &result)) return std::nullopt;
    exponent >>= 1;
    if (exponent > 0 && __builtin_mul_overflow(base, base, &base)) return std::nullopt;
  }
  return result;
}

bool isArithmetic(Op op) { return op >= Op::Neg && op <= Op::Abs; }
bool isComparison(Op op) { return op >= Op::Lt && op <= Op::Ne; }
bool isLogic(Op op) { return op >= Op::Not && op <= Op::Implies; }

}  // namespace kc::ir
