// Calls: builtin functions, dtype queries, abs, and whole-tensor statistics max(x).
#include "compiler/sema/builtins.h"
#include "compiler/sema/lower_expr.h"

namespace kc::sema {

using ir::NodePtr;
using ir::Op;
using ir::Type;

// max(x), min(x), sum(x): a statistic over every cell of a tensor.
NodePtr ExprLowering::wholeTensor(const ast::Expr& e) {
  std::string name;
  ir::Role role = ir::Role::Input;
  if (e.kind == ast::ExprKind::Name) name = static_cast<const ast::NameExpr&>(e).name;
  else if (e.kind == ast::ExprKind::Ref) name = static_cast<const ast::RefExpr&>(e).name, role = ir::Role::Oracle;
  const TensorInfo* t = ctx_.kernel && !name.empty() ? ctx_.kernel->tensor(name) : nullptr;
  if (!t || t->rank() == 0) {
    diags_.report(DiagCode::TypeMismatch, e.range,
                  "max, min or sum with one argument takes a whole tensor of rank >= 1; over an index, write max(i, e)");
    return nullptr;
  }
  if (role == ir::Role::Input && t->output) role = ir::Role::Output;
  if (role != ir::Role::Input && (ctx_.part == Part::Pre || ctx_.part == Part::Oracle)) {
    diags_.report(DiagCode::OutputInPrecondition, e.range, "this part of a contract cannot read the output '" + name + "'");
    return nullptr;
  }
  auto n = std::make_unique<ir::Node>(Op::TensorWhole, Type::Tensor, e.range);
  n->name = name;
  n->role = role;
  return n;
}

// floor(a / b) and ceil(a / b) of integers are integers (Op::Div typed Int is floor
// division), so `q[r, floor(c / 2)]` indexes. `x` is the lowered argument: a real quotient
// of two integers becomes the integer one; anything else is returned unchanged for the real
// floor or ceil.
NodePtr ExprLowering::integerQuotient(const std::string& f, NodePtr x, SourceRange range) {
  if (!x || x->op != Op::Div || x->kids.size() != 2 || x->kids[0]->type != Type::Int || x->kids[1]->type != Type::Int)
    return x;
  auto neg = [&](NodePtr v) {
    std::vector<NodePtr> k;
    k.push_back(std::move(v));
    return ir::makeNode(Op::Neg, Type::Int, range, std::move(k));
  };
  std::vector<NodePtr> kids;
  kids.push_back(f == "floor" ? std::move(x->kids[0]) : neg(std::move(x->kids[0])));  // ceil(a / b) = -floor(-a / b)
  kids.push_back(std::move(x->kids[1]));
  NodePtr q = ir::makeNode(Op::Div, Type::Int, range, std::move(kids));
  return f == "floor" ? std::move(q) : neg(std::move(q));
}

NodePtr ExprLowering::call(const ast::CallExpr& e) {
  const std::string& f = e.callee.name;
  if (f.find('.') != std::string::npos) {  // an op application: only a whole oracle definition (sema/compose.h)
    diags_.report(DiagCode::BadOpApplication, e.range,
                  "an op is applied only as a whole definition of an oracle or tolerance section: h = " + f +
                      "(x, ...), then read h[i, ...]");
    return nullptr;
  }
  if ((f == "max" || f == "min" || f == "sum") && e.args.size() == 1) {
    NodePtr whole = wholeTensor(*e.args[0]);
    if (!whole) return nullptr;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(whole));
    auto n = ir::makeNode(Op::TensorStat, Type::Real, e.range, std::move(kids));
    n->name = f;
    return n;
  }
  if (f == "abs" && e.args.size() == 1) {
    NodePtr x = lower(*e.args[0]);
    if (!x || !requireNumeric(*x, "the argument of abs")) return nullptr;
    Type t = x->type;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(x));
    return ir::makeNode(Op::Abs, t, e.range, std::move(kids));
  }
  if (f == "max" || f == "min" || f == "sum" || f == "prod") {
    diags_.report(DiagCode::WrongArity, e.range,
                  "'" + f + "' takes a whole tensor, " + f + "(x), or an index and a body, " + f +
                      "(i, e)" + (f == "max" || f == "min" ? "; for the larger or smaller of two values write f" + f + "(a, b)" : ""));
    return nullptr;
  }
  if (f == "where") {  // where(c, a, b): if c then a else b, as array libraries spell it
    if (e.args.size() == 3) return select(*e.args[0], *e.args[1], *e.args[2], e.range, "where");
    diags_.report(DiagCode::WrongArity, e.range,
                  "'where' takes 3 arguments (a condition, its value when true, its value when false), given " +
                      std::to_string(e.args.size()));
    return nullptr;
  }
  if ((f == "floor" || f == "ceil") && e.args.size() == 1) {
    NodePtr x = lower(*e.args[0]);
    if (!x || !requireNumeric(*x, ("argument 1 of '" + f + "'").c_str())) return nullptr;
    if (x->type == Type::Int) return x;  // already whole
    x = integerQuotient(f, std::move(x), e.range);
    if (x->type == Type::Int) return x;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(x));
    auto n = ir::makeNode(Op::Call, Type::Real, e.range, std::move(kids));
    n->name = f;
    return n;
  }
  const Builtin* b = findBuiltin(f);
  if (!b) {
    diags_.report(DiagCode::UnknownFunction, e.callee.range,
                  "unknown function '" + f + "'; docs/language.md lists the functions the language has");
    return nullptr;
  }
  if (e.args.size() != b->args.size()) {
    diags_.report(DiagCode::WrongArity, e.range,
                  "'" + f + "' takes " + std::to_string(b->args.size()) + " argument" + (b->args.size() == 1 ? "" : "s") +
                      ", given " + std::to_string(e.args.size()));
    return nullptr;
  }
  std::vector<NodePtr> kids;
  for (size_t k = 0; k < e.args.size(); ++k) {
    NodePtr a = lower(*e.args[k]);
    if (!a) return nullptr;
    std::string what = "argument " + std::to_string(k + 1) + " of '" + f + "'";
    switch (b->args[k]) {
      case Arg::Number:
        if (!requireNumeric(*a, what.c_str())) return nullptr;
        break;
      case Arg::DType:
        if (a->type != Type::DType) {
          diags_.report(DiagCode::TypeMismatch, a->range,
                        what + " must be a dtype such as f32 or a dtype variable such as T");
          return nullptr;
        }
        break;
      case Arg::Int:
        if (!requireType(*a, Type::Int, what.c_str())) return nullptr;
        break;
    }
    kids.push_back(std::move(a));
  }
  auto n = ir::makeNode(b->op, b->result, e.range, std::move(kids));
  n->name = f;
  return n;
}

}  // namespace kc::sema
