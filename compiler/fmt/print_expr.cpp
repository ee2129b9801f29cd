#include "compiler/fmt/print_expr.h"

#include "compiler/ast/print_parts.h"

namespace kc::fmt {

namespace {

template <class T, class F>
std::string joined(const std::vector<T>& items, F print) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + print(items[i]);
  return s;
}

std::string exprList(const std::vector<ast::ExprPtr>& v) {
  return joined(v, [](const ast::ExprPtr& e) { return printExpr(*e); });
}

}  // namespace

std::string printBinder(const ast::Binder& b) {
  if (!b.lo) return b.name.name;
  return b.name.name + " in " + printExpr(*b.lo) + ".." + printExpr(*b.hi);
}

std::string printExpr(const ast::Expr& e) {
  using namespace ast;
  if (auto leaf = leafText(e)) return *leaf;
  switch (e.kind) {
    case ExprKind::Index: {
      const auto& x = static_cast<const IndexExpr&>(e);
      return printExpr(*x.base) + "[" + exprList(x.indices) + "]";
    }
    case ExprKind::Call: {
      const auto& x = static_cast<const CallExpr&>(e);
      return x.callee.name + "(" + exprList(x.args) + ")";
    }
    case ExprKind::Reduction: {
      const auto& x = static_cast<const ReductionExpr&>(e);
      return x.op + "(" + printBinder(x.var) + ", " + printExpr(*x.body) + ")";
    }
    case ExprKind::Unary: {
      const auto& x = static_cast<const UnaryExpr&>(e);
      return x.op + printExpr(*x.operand);
    }
    case ExprKind::Binary: {
      const auto& x = static_cast<const BinaryExpr&>(e);
      if (x.op == "^") return printExpr(*x.lhs) + "^" + printExpr(*x.rhs);
      return printExpr(*x.lhs) + " " + x.op + " " + printExpr(*x.rhs);
    }
    case ExprKind::Compare: {
      const auto& x = static_cast<const CompareExpr&>(e);
      std::string s = printExpr(*x.operands[0]);
      for (size_t i = 0; i < x.ops.size(); ++i) s += " " + x.ops[i] + " " + printExpr(*x.operands[i + 1]);
      return s;
    }
    case ExprKind::Abs: {
      // Spaces keep `| |a| |` from lexing as `||`.
      std::string inner = printExpr(*static_cast<const AbsExpr&>(e).operand);
      bool pad = inner.front() == '|' || inner.back() == '|';
      return pad ? "| " + inner + " |" : "|" + inner + "|";
    }
    case ExprKind::Paren: return "(" + printExpr(*static_cast<const ParenExpr&>(e).inner) + ")";
    case ExprKind::Quantifier: {
      const auto& x = static_cast<const QuantifierExpr&>(e);
      return std::string(x.isForall ? "forall " : "exists ") +
             joined(x.binders, [](const Binder& b) { return printBinder(b); }) + ": " + printExpr(*x.body);
    }
    case ExprKind::Conditional: {
      const auto& x = static_cast<const ConditionalExpr&>(e);
      return "if " + printExpr(*x.cond) + " then " + printExpr(*x.thenExpr) + " else " + printExpr(*x.elseExpr);
    }
    default: break;  // the leaves: leafText above
  }
  return "";
}

namespace {

std::string printSetArgument(const ast::SetExpr& s) {
  if (s.kind == ast::SetKind::Arith) return printExpr(*s.arith);  // an argument reads an expression first
  if (s.kind == ast::SetKind::Literal && s.bare) {
    std::string out;
    for (size_t i = 0; i < s.items.size(); ++i) out += (i ? ", " : "") + printSetArgument(*s.items[i]);
    return out;
  }
  return printSet(s);
}

}  // namespace

std::string printSet(const ast::SetExpr& s) {
  using ast::SetKind;
  auto items = [&](size_t from) {
    std::string out;
    for (size_t i = from; i < s.items.size(); ++i) out += (i > from ? ", " : "") + printSet(*s.items[i]);
    return out;
  };
  switch (s.kind) {
    case SetKind::Literal: return s.bare ? items(0) : "{" + items(0) + "}";
    case SetKind::Range: return printSet(*s.items[0]) + ".." + printSet(*s.items[1]);
    case SetKind::Call: {
      std::string out = s.text + "(";
      for (size_t i = 0; i < s.items.size(); ++i)
        out += (i ? ", " : "") + (s.argNames[i].empty() ? "" : s.argNames[i] + ": ") + printSetArgument(*s.items[i]);
      return out + ")";
    }
    case SetKind::Number: return (s.negative ? "-" : "") + s.text + (s.percent ? "%" : "");
    case SetKind::Power: return s.text + "^" + s.text2;
    case SetKind::Name: return s.text;
    case SetKind::String: return "\"" + s.text + "\"";
    case SetKind::Arith: return "(" + printExpr(*s.arith) + ")";
    case SetKind::Chain: {
      std::string out = printSet(*s.items[0]);
      for (size_t i = 0; i < s.ops.size(); ++i) out += std::string(" ") + s.ops[i] + " " + printSet(*s.items[i + 1]);
      return out;
    }
  }
  return "";
}

std::string printDomain(const ast::DomainItem& d) {
  if (d.isRange) return d.name.name + " in " + printExpr(*d.lo) + ".." + printExpr(*d.hi);
  return d.name.name + " in {" + exprList(d.elements) + "}";
}

std::string printParam(const ast::Param& p) {
  std::string s = p.name.name + ": " + p.dtype.name;
  if (p.hasShape) s += "[" + exprList(p.dims) + "]";
  return s;
}

}  // namespace kc::fmt
