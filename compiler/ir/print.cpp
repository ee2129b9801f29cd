// Printers for the IR: infix (readable) and S-expressions (structure and types).
#include <cstdio>

#include "compiler/ir/ir.h"

namespace kc::ir {

namespace {

std::string realText(const Node& n) {
  if (!n.text.empty()) return n.text;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", n.d);
  return buf;
}

std::string joinKids(const Node& n, size_t from, size_t to, std::string (*f)(const Node&)) {
  std::string s;
  for (size_t i = from; i < to; ++i) s += (i > from ? ", " : "") + f(*n.kids[i]);
  return s;
}

// Binding strength for parenthesisation in the infix printer.
int strength(const Node& n) {
  switch (n.op) {
    case Op::Implies: return 1;
    case Op::Or: return 2;
    case Op::And: return 3;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: return 4;
    case Op::Add: case Op::Sub: return 5;
    case Op::Mul: case Op::Div: case Op::Mod: return 6;
    case Op::Neg: case Op::Not: return 7;
    case Op::Pow: return 8;
    case Op::Quantifier: case Op::Select: return 0;
    default: return 9;
  }
}

std::string operand(const Node& parent, const Node& kid, bool right) {
  std::string s = print(kid);
  int p = strength(parent), k = strength(kid);
  bool paren = k < p || (k == p && (right != (parent.op == Op::Pow || parent.op == Op::Implies)));
  if (kid.op == Op::Quantifier || kid.op == Op::Select) paren = true;
  return paren ? "(" + s + ")" : s;
}

std::string binders(const Node& n) {
  std::string s;
  for (size_t v = 0; v < n.vars.size(); ++v)
    s += (v ? ", " : "") + n.vars[v] + " in " + print(*n.kids[2 * v]) + ".." + print(*n.kids[2 * v + 1]);
  return s;
}

}  // namespace

std::string print(const Node& n) {
  switch (n.op) {
    case Op::ConstInt: return std::to_string(n.i);
    case Op::ConstReal: return realText(n);
    case Op::ConstBool: return n.b ? "true" : "false";
    case Op::DTypeConst: case Op::DTypeVar: case Op::Dim: case Op::IndexVar: return n.name;
    case Op::TensorRead:
    case Op::TensorWhole: {
      std::string s = n.name + (n.role == Role::Oracle ? "*" : "");
      if (n.op == Op::TensorRead && !n.kids.empty()) s += "[" + joinKids(n, 0, n.kids.size(), print) + "]";
      return s;
    }
    case Op::Neg: {
      const Node& k = *n.kids[0];  // ceil(a / b) of integers is kept as -floor(-a / b)
      if (k.op == Op::Div && k.type == Type::Int && k.kids[0]->op == Op::Neg)
        return "ceil(" + operand(k, *k.kids[0]->kids[0], false) + " / " + operand(k, *k.kids[1], true) + ")";
      return "-" + operand(n, k, true);
    }
    case Op::Not: return "!" + operand(n, *n.kids[0], true);
    case Op::Abs: return "|" + print(*n.kids[0]) + "|";
    case Op::Pow: return operand(n, *n.kids[0], false) + "^" + operand(n, *n.kids[1], true);
    case Op::Div:
      if (n.type == Type::Int)  // floor division reads back as written
        return "floor(" + operand(n, *n.kids[0], false) + " / " + operand(n, *n.kids[1], true) + ")";
      [[fallthrough]];
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mod:
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
    case Op::And: case Op::Or: case Op::Implies:
      return operand(n, *n.kids[0], false) + " " + opName(n.op) + " " + operand(n, *n.kids[1], true);
    case Op::Select:
      return "if " + print(*n.kids[0]) + " then " + print(*n.kids[1]) + " else " + print(*n.kids[2]);
    case Op::Call: case Op::DTypeQuery: case Op::TensorStat:
      return n.name + "(" + joinKids(n, 0, n.kids.size(), print) + ")";
    case Op::RoundTo: return "round(" + joinKids(n, 0, n.kids.size(), print) + ")";
    case Op::Reduce: return n.name + "(" + binders(n) + ", " + print(*n.kids[2]) + ")";
    case Op::Quantifier: return std::string(n.b ? "forall " : "exists ") + binders(n) + ": " + print(*n.kids.back());
  }
  return "?";
}

std::string printSExpr(const Node& n) {
  std::string head;
  switch (n.op) {
    case Op::ConstInt: return std::to_string(n.i);
    case Op::ConstReal: return realText(n);
    case Op::ConstBool: return n.b ? "true" : "false";
    case Op::DTypeConst: case Op::DTypeVar: case Op::Dim: case Op::IndexVar: return n.name;
    case Op::TensorRead: head = std::string("read ") + roleName(n.role) + " " + n.name; break;
    case Op::TensorWhole: return std::string("(tensor ") + roleName(n.role) + " " + n.name + ")";
    case Op::Call: case Op::DTypeQuery: case Op::TensorStat: head = n.name; break;
    case Op::Reduce: head = n.name + " " + n.vars[0]; break;
    case Op::Quantifier: {
      head = n.b ? "forall (" : "exists (";
      for (size_t v = 0; v < n.vars.size(); ++v) head += (v ? " " : "") + n.vars[v];
      head += ")";
      break;
    }
    default: head = opName(n.op);
  }
  std::string s = "(" + head + " :" + typeName(n.type);
  for (const auto& k : n.kids) s += " " + printSExpr(*k);
  return s + ")";
}

}  // namespace kc::ir
