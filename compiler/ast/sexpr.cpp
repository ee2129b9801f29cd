#include "compiler/ast/sexpr.h"

#include "compiler/ast/print_parts.h"

namespace kc::ast {

namespace {

template <class T>
std::string list(const std::string& head, const std::vector<T>& items) {
  std::string s = "(" + head;
  for (const auto& item : items) s += " " + toSExpr(*item);
  return s + ")";
}

}  // namespace

std::string toSExpr(const Binder& b) {
  if (!b.lo) return b.name.name;
  return "(" + b.name.name + " " + toSExpr(*b.lo) + " " + toSExpr(*b.hi) + ")";
}

std::string toSExpr(const Expr& e) {
  if (auto leaf = leafText(e)) return *leaf;
  switch (e.kind) {
    case ExprKind::Index: {
      const auto& x = static_cast<const IndexExpr&>(e);
      return list("index " + toSExpr(*x.base), x.indices);
    }
    case ExprKind::Call: {
      const auto& x = static_cast<const CallExpr&>(e);
      return list("call " + x.callee.name, x.args);
    }
    case ExprKind::Reduction: {
      const auto& x = static_cast<const ReductionExpr&>(e);
      return "(" + x.op + " " + toSExpr(x.var) + " " + toSExpr(*x.body) + ")";
    }
    case ExprKind::Unary: {
      const auto& x = static_cast<const UnaryExpr&>(e);
      return "(" + x.op + " " + toSExpr(*x.operand) + ")";
    }
    case ExprKind::Binary: {
      const auto& x = static_cast<const BinaryExpr&>(e);
      return "(" + x.op + " " + toSExpr(*x.lhs) + " " + toSExpr(*x.rhs) + ")";
    }
    case ExprKind::Compare: {
      const auto& x = static_cast<const CompareExpr&>(e);
      std::string s = "(cmp " + toSExpr(*x.operands[0]);
      for (size_t i = 0; i < x.ops.size(); ++i) s += " " + x.ops[i] + " " + toSExpr(*x.operands[i + 1]);
      return s + ")";
    }
    case ExprKind::Abs: return "(abs " + toSExpr(*static_cast<const AbsExpr&>(e).operand) + ")";
    case ExprKind::Paren: return "(paren " + toSExpr(*static_cast<const ParenExpr&>(e).inner) + ")";
    case ExprKind::Quantifier: {
      const auto& x = static_cast<const QuantifierExpr&>(e);
      std::string s = std::string("(") + (x.isForall ? "forall" : "exists") + " (";
      for (size_t i = 0; i < x.binders.size(); ++i) s += (i ? " " : "") + toSExpr(x.binders[i]);
      return s + ") " + toSExpr(*x.body) + ")";
    }
    case ExprKind::Conditional: {
      const auto& x = static_cast<const ConditionalExpr&>(e);
      return "(if " + toSExpr(*x.cond) + " " + toSExpr(*x.thenExpr) + " " + toSExpr(*x.elseExpr) + ")";
    }
    default: break;  // the leaves: leafText above
  }
  return "?";
}

std::string toSExpr(const SetExpr& s) {
  switch (s.kind) {
    case SetKind::Literal: return list(s.bare ? "list" : "set", s.items);
    case SetKind::Range: return "(range " + toSExpr(*s.items[0]) + " " + toSExpr(*s.items[1]) + ")";
    case SetKind::Call: {
      std::string out = "(call " + s.text;
      for (size_t i = 0; i < s.items.size(); ++i)
        out += " " + (s.argNames[i].empty() ? "" : s.argNames[i] + ":") + toSExpr(*s.items[i]);
      return out + ")";
    }
    case SetKind::Number: return (s.negative ? "-" : "") + s.text + (s.percent ? "%" : "");
    case SetKind::Power: return "(^ " + s.text + " " + s.text2 + ")";
    case SetKind::Name: return s.text;
    case SetKind::String: return "\"" + s.text + "\"";
    case SetKind::Arith: return "(arith " + toSExpr(*s.arith) + ")";
    case SetKind::Chain: {
      std::string out = "(chain " + toSExpr(*s.items[0]);
      for (size_t i = 0; i < s.ops.size(); ++i) out += std::string(" ") + s.ops[i] + " " + toSExpr(*s.items[i + 1]);
      return out + ")";
    }
  }
  return "?";
}

}  // namespace kc::ast
