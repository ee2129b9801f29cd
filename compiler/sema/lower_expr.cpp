#include "compiler/sema/lower_expr.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "compiler/sema/builtins.h"
#include "stdlib/numerics/dtype.h"

namespace kc::sema {

using ir::NodePtr;
using ir::Op;
using ir::Type;

namespace {

constexpr const char* kGenericOutput = "y";  // in a class: each output of the kernel

Type arithmeticType(const ir::Node& a, const ir::Node& b) {
  return a.type == Type::Int && b.type == Type::Int ? Type::Int : Type::Real;
}

std::string cellVar(size_t k) { return "cell_" + std::to_string(k); }

}  // namespace

// --- scopes ------------------------------------------------------------------------------------

void ExprLowering::pushIndex(const std::string& name, SourceRange range, NodePtr extent) {
  bound_.push_back(Bound{name, range, std::move(extent)});
}

NodePtr ExprLowering::popIndex() {
  NodePtr extent = std::move(bound_.back().extent);
  bound_.pop_back();
  return extent;
}

bool ExprLowering::failed(const std::string& n) const {
  return ctx_.failed && std::find(ctx_.failed->begin(), ctx_.failed->end(), n) != ctx_.failed->end();
}

bool ExprLowering::isBound(const std::string& n) const {
  for (const auto& b : bound_)
    if (b.name == n) return true;
  return false;
}

const Definition* ExprLowering::localDef(const std::string& n) const {
  for (const auto* defs : {ctx_.tolerance, ctx_.oracle}) {
    if (!defs) continue;
    for (const auto& d : *defs) {
      // Outside the oracle, an oracle definition of an output is read as y*, not y.
      if (defs == ctx_.oracle && ctx_.part != Part::Oracle && ctx_.kernel && ctx_.kernel->tensor(d.name)) continue;
      if (d.name == n) return &d;
    }
  }
  return nullptr;
}

const Definition* ExprLowering::oracleDef(const std::string& n) const {
  if (!ctx_.oracle || ctx_.part == Part::Oracle) return nullptr;
  for (const auto& d : *ctx_.oracle)
    if (d.name == n) return &d;
  return nullptr;
}

const TensorInfo* ExprLowering::cellOutput(const std::string& n) const {
  if (!cells_) return nullptr;
  if (n == cells_->output->name || (ctx_.inClass && n == kGenericOutput)) return cells_->output;
  return nullptr;
}

void ExprLowering::inferExtent(const ir::Node& index, const ir::Node& extent) {
  // floor(c / k), k a positive constant or a dim: c reaches k * extent values.
  if (index.op == Op::Div && index.type == Type::Int && index.kids[0]->op == Op::IndexVar &&
      ((index.kids[1]->op == Op::ConstInt && index.kids[1]->i > 0) || index.kids[1]->op == Op::Dim)) {
    std::vector<NodePtr> k;
    k.push_back(index.kids[1]->clone());
    k.push_back(extent.clone());
    NodePtr scaled = ir::fold(ir::makeNode(Op::Mul, Type::Int, index.range, std::move(k)));
    inferExtent(*index.kids[0], *scaled);
    return;
  }
  if (inferThroughProduct(index, extent)) return;
  if (index.op != Op::IndexVar) return;
  for (auto it = bound_.rbegin(); it != bound_.rend(); ++it) {
    if (it->name != index.name) continue;
    if (!it->extent) it->extent = extent.clone();
    return;
  }
}

// A subscript `g * CG + j` (or `CG * g`, `j + g * CG`, `g * CG`) of a dimension written
// `G * CG`: g reaches G values and j reaches CG (the group index and the index within a group,
// as grouped convolutions and norms write them). The factor is matched as written, a dim or
// a constant; `floor(o / CG) * CG + c` gives o the whole G * CG through the quotient rule.
bool ExprLowering::inferThroughProduct(const ir::Node& index, const ir::Node& extent) {
  if (index.type != Type::Int || extent.op != Op::Mul || extent.kids.size() != 2) return false;
  auto same = [](const ir::Node& a, const ir::Node& b) {
    return (a.op == Op::Dim || a.op == Op::ConstInt) && a.op == b.op && ir::print(a) == ir::print(b);
  };
  // `v * F` or `F * v` with F the extent's second factor: v reaches the first factor.
  auto scaled = [&](const ir::Node& n) -> const ir::Node* {
    if (n.op != Op::Mul || n.kids.size() != 2) return nullptr;
    if (same(*n.kids[1], *extent.kids[1])) return n.kids[0].get();
    if (same(*n.kids[0], *extent.kids[1])) return n.kids[1].get();
    return nullptr;
  };
  const ir::Node* outer = scaled(index);
  const ir::Node* inner = nullptr;
  if (!outer && index.op == Op::Add && index.kids.size() == 2) {
    if ((outer = scaled(*index.kids[0]))) inner = index.kids[1].get();
    else if ((outer = scaled(*index.kids[1]))) inner = index.kids[0].get();
  }
  if (!outer) return false;
  inferExtent(*outer, *extent.kids[0]);
  if (inner) inferExtent(*inner, *extent.kids[1]);
  return true;
}

bool ExprLowering::requireType(const ir::Node& n, Type t, const char* what) {
  if (n.type == t) return true;
  diags_.report(DiagCode::TypeMismatch, n.range,
                std::string(what) + " must be " + ir::typeName(t) + ", but this is " + ir::typeName(n.type));
  return false;
}

bool ExprLowering::requireNumeric(const ir::Node& n, const char* what) {
  if (n.type == Type::Int || n.type == Type::Real) return true;
  diags_.report(DiagCode::TypeMismatch, n.range,
                std::string(what) + " must be a number, but this is " + ir::typeName(n.type));
  return false;
}

// --- entry points ----------------------------------------------------------------------------

NodePtr ExprLowering::lowerCondition(const ast::Expr& e) {
  NodePtr n = lower(e);
  if (!n) return nullptr;
  if (n->type != Type::Bool) {
    diags_.report(DiagCode::NonBoolCondition, e.range,
                  std::string("a condition must be true or false, but this is a ") + ir::typeName(n->type) +
                      " value; compare it with something");
    return nullptr;
  }
  return ir::fold(std::move(n));
}

NodePtr ExprLowering::lowerInCells(const ast::Expr& e, const TensorInfo& output, const std::vector<std::string>& vars) {
  for (size_t k = 0; k < vars.size(); ++k) pushIndex(vars[k], output.range, output.shape[k]->clone());
  cells_ = Cells{&output, vars};
  NodePtr n = lower(e);
  cells_.reset();
  for (size_t k = 0; k < vars.size(); ++k) popIndex();
  return n ? ir::fold(std::move(n)) : nullptr;
}

NodePtr ExprLowering::lower(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Number: return number(static_cast<const ast::NumberExpr&>(e));
    case ast::ExprKind::Name: return name(static_cast<const ast::NameExpr&>(e));
    case ast::ExprKind::Ref: return ref(static_cast<const ast::RefExpr&>(e));
    case ast::ExprKind::Index: return index(static_cast<const ast::IndexExpr&>(e));
    case ast::ExprKind::Call: return call(static_cast<const ast::CallExpr&>(e));
    case ast::ExprKind::Reduction: return reduction(static_cast<const ast::ReductionExpr&>(e));
    case ast::ExprKind::Unary: return unary(static_cast<const ast::UnaryExpr&>(e));
    case ast::ExprKind::Binary: return binary(static_cast<const ast::BinaryExpr&>(e));
    case ast::ExprKind::Compare: return compare(static_cast<const ast::CompareExpr&>(e));
    case ast::ExprKind::Abs: {
      NodePtr x = lower(*static_cast<const ast::AbsExpr&>(e).operand);
      if (!x || !requireNumeric(*x, "the operand of |...|")) return nullptr;
      Type t = x->type;
      std::vector<NodePtr> kids;
      kids.push_back(std::move(x));
      return ir::makeNode(Op::Abs, t, e.range, std::move(kids));
    }
    case ast::ExprKind::Paren: {
      NodePtr inner = lower(*static_cast<const ast::ParenExpr&>(e).inner);
      if (inner) inner->range = e.range;
      return inner;
    }
    case ast::ExprKind::Quantifier: return quantifier(static_cast<const ast::QuantifierExpr&>(e));
    case ast::ExprKind::Conditional: return conditional(static_cast<const ast::ConditionalExpr&>(e));
  }
  return nullptr;
}

// --- leaves ----------------------------------------------------------------------------------

NodePtr ExprLowering::number(const ast::NumberExpr& e) {
  if (e.numberKind == ast::NumberKind::Int) {
    bool hex = e.text.size() > 2 && e.text[0] == '0' && (e.text[1] == 'x' || e.text[1] == 'X');
    errno = 0;
    unsigned long long v = std::strtoull(e.text.c_str(), nullptr, hex ? 16 : 10);
    if (errno == 0 && v <= static_cast<unsigned long long>(INT64_MAX)) return ir::makeInt(static_cast<int64_t>(v), e.range);
    return ir::makeReal(std::strtod(e.text.c_str(), nullptr), e.range, e.text);
  }
  return ir::makeReal(std::strtod(e.text.c_str(), nullptr), e.range, e.text);
}

NodePtr ExprLowering::read(const std::string& tensor, ir::Role role, SourceRange range,
                           const std::vector<ast::ExprPtr>* indices, const std::vector<NodePtr>* shape) {
  size_t given = indices ? indices->size() : 0;
  size_t rank = shape ? shape->size() : 0;
  if (given != rank) {
    std::string shown = tensor + (role == ir::Role::Oracle ? "*" : "");
    diags_.report(DiagCode::WrongRank, range,
                  "'" + shown + "' has " + std::to_string(rank) + (rank == 1 ? " dimension" : " dimensions") +
                      " but is indexed with " + std::to_string(given));
    return nullptr;
  }
  auto n = std::make_unique<ir::Node>(Op::TensorRead, Type::Real, range);
  n->name = tensor;
  n->role = role;
  for (size_t k = 0; k < given; ++k) {
    NodePtr idx = lower(*(*indices)[k]);
    if (!idx) return nullptr;
    if (idx->type == Type::Real && idx->op == Op::Div) {
      diags_.report(DiagCode::TypeMismatch, idx->range,
                    "an index must be int, but '/' divides as reals: write floor(" + ir::print(*idx) +
                        ") (or ceil(...)) for the integer quotient");
      return nullptr;
    }
    if (!requireType(*idx, Type::Int, "an index")) return nullptr;
    inferExtent(*idx, *(*shape)[k]);
    n->kids.push_back(std::move(idx));
  }
  return n;
}

NodePtr ExprLowering::name(const ast::NameExpr& e) {
  const std::string& n = e.name;
  for (auto it = bound_.rbegin(); it != bound_.rend(); ++it)
    if (it->name == n) return ir::makeLeaf(Op::IndexVar, Type::Int, n, e.range);

  // In `forall cells`, the output (and definitions shaped like it) stand for their cell.
  if (const TensorInfo* out = cellOutput(n)) {
    auto r = std::make_unique<ir::Node>(Op::TensorRead, Type::Real, e.range);
    r->name = out->name;
    r->role = ir::Role::Output;
    for (const auto& v : cells_->vars) r->kids.push_back(ir::makeLeaf(Op::IndexVar, Type::Int, v, e.range));
    if (ctx_.part == Part::Pre || ctx_.part == Part::Oracle || ctx_.part == Part::Tolerance) {
      diags_.report(DiagCode::OutputInPrecondition, e.range, "this part of a contract cannot read the output '" + n + "'");
      return nullptr;
    }
    return r;
  }
  if (failed(n)) return nullptr;  // its own definition already failed, with an error
  if (const Definition* def = localDef(n)) {
    if (def->indices.empty() || (cells_ && def->indices.size() == cells_->vars.size())) {
      auto r = std::make_unique<ir::Node>(Op::TensorRead, Type::Real, e.range);
      r->name = n;
      r->role = ir::Role::Local;
      if (!def->indices.empty())
        for (const auto& v : cells_->vars) r->kids.push_back(ir::makeLeaf(Op::IndexVar, Type::Int, v, e.range));
      return r;
    }
    diags_.report(DiagCode::WrongRank, e.range,
                  "'" + n + "' is defined with " + std::to_string(def->indices.size()) +
                      (def->indices.size() == 1 ? " index" : " indices") + ": write " + n + "[...]");
    return nullptr;
  }
  if (const KernelInfo* k = ctx_.kernel) {
    if (const TensorInfo* t = k->tensor(n)) {
      if (t->output && (ctx_.part == Part::Pre || ctx_.part == Part::Oracle || ctx_.part == Part::Tolerance)) {
        diags_.report(DiagCode::OutputInPrecondition, e.range,
                      "this part of a contract cannot read the output '" + n + "'" +
                          (ctx_.part == Part::Tolerance ? "; the oracle's value is " + n + "*" : ""));
        return nullptr;
      }
      if (t->rank() == 0) return read(n, t->output ? ir::Role::Output : ir::Role::Input, e.range, nullptr, &t->shape);
      diags_.report(DiagCode::WholeTensorMisuse, e.range,
                    "'" + n + "' is a tensor of rank " + std::to_string(t->rank()) +
                        ": index it, or use it whole only in max(" + n + "), min(" + n + "), sum(" + n + ")");
      return nullptr;
    }
    if (k->dim(n)) return ir::makeLeaf(Op::Dim, Type::Int, n, e.range);
    if (k->dtypeVar(n)) return ir::makeLeaf(Op::DTypeVar, Type::DType, n, e.range);
  }
  if (numerics::parseDType(n)) return ir::makeLeaf(Op::DTypeConst, Type::DType, n, e.range);
  if (n == "inf") return ir::makeReal(INFINITY, e.range, "inf");
  if (n == "nan") return ir::makeReal(NAN, e.range, "nan");
  if (n == "pi") return ir::makeReal(M_PI, e.range, "pi");
  if (n == "true" || n == "false") return ir::makeBool(n == "true", e.range);
  if (ctx_.inClass && n == "tol")
    diags_.report(DiagCode::UnknownName, e.range,
                  "unknown name 'tol': this class reads the tolerance of the contract that applies it, which defines "
                  "no 'tol'; write `tolerance exact` there for an exact op, or define tol in its tolerance section");
  else if (ctx_.inClass && n == kGenericOutput)
    diags_.report(DiagCode::UnknownName, e.range,
                  "in a class, 'y' stands for each output cell: use it inside 'forall cells:' or 'wrong cells:'");
  else
    diags_.report(DiagCode::UnknownName, e.range,
                  "unknown name '" + n + "': not a tensor, dimension, dtype, index variable or definition here");
  return nullptr;
}

NodePtr ExprLowering::ref(const ast::RefExpr& e) {
  if (ctx_.part == Part::Pre || ctx_.part == Part::Oracle || ctx_.part == Part::Shape) {
    diags_.report(DiagCode::BadReference, e.range, "'" + e.name + "*' (the oracle's value) cannot be used in this part");
    return nullptr;
  }
  const TensorInfo* out = cellOutput(e.name);
  if (out) {
    auto r = std::make_unique<ir::Node>(Op::TensorRead, Type::Real, e.range);
    r->name = out->name;
    r->role = ir::Role::Oracle;
    for (const auto& v : cells_->vars) r->kids.push_back(ir::makeLeaf(Op::IndexVar, Type::Int, v, e.range));
    return r;
  }
  if (failed(e.name)) return nullptr;
  const TensorInfo* t = ctx_.kernel ? ctx_.kernel->tensor(e.name) : nullptr;
  if (const Definition* d = (!t ? oracleDef(e.name) : nullptr)) {
    if (d->indices.empty()) return read(d->name, ir::Role::Oracle, e.range, nullptr, &d->extents);
    diags_.report(DiagCode::WholeTensorMisuse, e.range, "'" + e.name + "*' is defined with indices: write " + e.name + "*[...]");
    return nullptr;
  }
  if (!t || !t->output) {
    diags_.report(DiagCode::BadReference, e.range,
                  "'" + e.name + "*' needs '" + e.name + "' to be an output of the kernel or a definition of the oracle");
    return nullptr;
  }
  if (t->rank() == 0) return read(t->name, ir::Role::Oracle, e.range, nullptr, &t->shape);
  diags_.report(DiagCode::WholeTensorMisuse, e.range, "'" + e.name + "*' has rank " + std::to_string(t->rank()) +
                                                          ": index it as " + e.name + "*[...]");
  return nullptr;
}

NodePtr ExprLowering::index(const ast::IndexExpr& e) {
  if (e.base->kind == ast::ExprKind::Ref) {
    const auto& r = static_cast<const ast::RefExpr&>(*e.base);
    if (ctx_.part == Part::Pre || ctx_.part == Part::Oracle || ctx_.part == Part::Shape) {
      diags_.report(DiagCode::BadReference, r.range, "'" + r.name + "*' (the oracle's value) cannot be used in this part");
      return nullptr;
    }
    if (failed(r.name)) return nullptr;
    const TensorInfo* t = ctx_.kernel ? ctx_.kernel->tensor(r.name) : nullptr;
    if (ctx_.inClass && r.name == kGenericOutput && cells_) t = cells_->output;
    if (const Definition* d = (!t ? oracleDef(r.name) : nullptr))
      return read(d->name, ir::Role::Oracle, e.range, &e.indices, &d->extents);
    if (!t || !t->output) {
      diags_.report(DiagCode::BadReference, r.range,
                    "'" + r.name + "*' needs '" + r.name + "' to be an output of the kernel or a definition of the oracle");
      return nullptr;
    }
    return read(t->name, ir::Role::Oracle, e.range, &e.indices, &t->shape);
  }
  if (e.base->kind != ast::ExprKind::Name) {
    diags_.report(DiagCode::TypeMismatch, e.base->range, "only a tensor or a definition can be indexed");
    return nullptr;
  }
  const std::string& n = static_cast<const ast::NameExpr&>(*e.base).name;
  if (failed(n)) return nullptr;
  if (isBound(n)) {
    diags_.report(DiagCode::TypeMismatch, e.base->range, "'" + n + "' is an index variable and cannot be indexed");
    return nullptr;
  }
  if (const Definition* def = localDef(n)) return read(n, ir::Role::Local, e.range, &e.indices, &def->extents);
  const TensorInfo* t = ctx_.kernel ? ctx_.kernel->tensor(n) : nullptr;
  if (!t && ctx_.inClass && n == kGenericOutput && cells_) t = cells_->output;
  if (!t) {
    diags_.report(DiagCode::UnknownName, e.base->range, "unknown tensor '" + n + "'");
    return nullptr;
  }
  if (t->output && (ctx_.part == Part::Pre || ctx_.part == Part::Oracle || ctx_.part == Part::Tolerance)) {
    diags_.report(DiagCode::OutputInPrecondition, e.base->range,
                  "this part of a contract cannot read the output '" + n + "'" +
                      (ctx_.part == Part::Tolerance ? "; the oracle's value is " + n + "*" : ""));
    return nullptr;
  }
  return read(t->name, t->output ? ir::Role::Output : ir::Role::Input, e.range, &e.indices, &t->shape);
}

// --- operators ---------------------------------------------------------------------------------

NodePtr ExprLowering::unary(const ast::UnaryExpr& e) {
  NodePtr x = lower(*e.operand);
  if (!x) return nullptr;
  if (e.op == "!") {
    if (!requireType(*x, Type::Bool, "the operand of '!'")) return nullptr;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(x));
    return ir::makeNode(Op::Not, Type::Bool, e.range, std::move(kids));
  }
  if (!requireNumeric(*x, "the operand of '-'")) return nullptr;
  Type t = x->type;
  std::vector<NodePtr> kids;
  kids.push_back(std::move(x));
  return ir::makeNode(Op::Neg, t, e.range, std::move(kids));
}

NodePtr ExprLowering::binary(const ast::BinaryExpr& e) {
  NodePtr a = lower(*e.lhs);
  NodePtr b = lower(*e.rhs);
  if (!a || !b) return nullptr;
  std::vector<NodePtr> kids;
  if (e.op == "&&" || e.op == "||" || e.op == "->") {
    if (!requireType(*a, Type::Bool, ("the left side of '" + e.op + "'").c_str()) ||
        !requireType(*b, Type::Bool, ("the right side of '" + e.op + "'").c_str()))
      return nullptr;
    Op op = e.op == "&&" ? Op::And : e.op == "||" ? Op::Or : Op::Implies;
    kids.push_back(std::move(a));
    kids.push_back(std::move(b));
    return ir::makeNode(op, Type::Bool, e.range, std::move(kids));
  }
  std::string side = "an operand of '" + e.op + "'";
  if (!requireNumeric(*a, side.c_str()) || !requireNumeric(*b, side.c_str())) return nullptr;
  Op op = Op::Add;
  Type t = arithmeticType(*a, *b);
  if (e.op == "-") op = Op::Sub;
  else if (e.op == "*") op = Op::Mul;
  else if (e.op == "/") op = Op::Div, t = Type::Real;
  else if (e.op == "^") {
    op = Op::Pow;
    // An integer power only for an exponent known to be >= 0: 2^-1 is a real.
    ir::NodePtr exponent = ir::fold(b->clone());
    if (t == Type::Int && !(exponent->op == Op::ConstInt && exponent->i >= 0)) t = Type::Real;
  }
  else if (e.op == "%") {
    op = Op::Mod;
    if (t != Type::Int) return realModulo(std::move(a), std::move(b), e.range);
  }
  kids.push_back(std::move(a));
  kids.push_back(std::move(b));
  return ir::makeNode(op, t, e.range, std::move(kids));
}

// `x % m` on a real (a tensor's value: `q[r, c] % 16` of an int8 tensor): the floored modulo
// x - m * floor(x / m), the remainder with m's sign (Python's %), built from the nodes every
// evaluator, the SMT encoder and the compiled oracle already have. Integer `%` stays Op::Mod.
NodePtr ExprLowering::realModulo(NodePtr x, NodePtr m, SourceRange range) {
  auto node = [&](Op op, NodePtr l, NodePtr r) {
    std::vector<NodePtr> kids;
    kids.push_back(std::move(l));
    kids.push_back(std::move(r));
    return ir::makeNode(op, Type::Real, range, std::move(kids));
  };
  NodePtr quotient = node(Op::Div, x->clone(), m->clone());
  std::vector<NodePtr> arg;
  arg.push_back(std::move(quotient));
  NodePtr floored = ir::makeNode(Op::Call, Type::Real, range, std::move(arg));
  floored->name = "floor";
  return node(Op::Sub, std::move(x), node(Op::Mul, std::move(m), std::move(floored)));
}

// a < b <= c  ->  a < b && b <= c
NodePtr ExprLowering::compare(const ast::CompareExpr& e) {
  std::vector<NodePtr> operands;
  for (const auto& o : e.operands) {
    operands.push_back(lower(*o));
    if (!operands.back()) return nullptr;
  }
  NodePtr result;
  for (size_t k = 0; k < e.ops.size(); ++k) {
    const std::string& opText = e.ops[k];
    Op op = opText == "<" ? Op::Lt : opText == "<=" ? Op::Le : opText == ">" ? Op::Gt : opText == ">=" ? Op::Ge
          : opText == "==" ? Op::Eq : Op::Ne;
    const ir::Node& a = *operands[k];
    const ir::Node& b = *operands[k + 1];
    bool ok = (a.type == Type::Int || a.type == Type::Real) && (b.type == Type::Int || b.type == Type::Real);
    if ((op == Op::Eq || op == Op::Ne) && a.type == b.type && (a.type == Type::DType || a.type == Type::Bool)) ok = true;
    if (!ok) {
      diags_.report(DiagCode::TypeMismatch, SourceRange::span(a.range, b.range),
                    std::string("cannot compare ") + ir::typeName(a.type) + " with " + ir::typeName(b.type) +
                        " using '" + opText + "'");
      return nullptr;
    }
    std::vector<NodePtr> kids;
    kids.push_back(a.clone());
    kids.push_back(b.clone());
    NodePtr cmp = ir::makeNode(op, Type::Bool, SourceRange::span(a.range, b.range), std::move(kids));
    if (!result) {
      result = std::move(cmp);
    } else {
      std::vector<NodePtr> both;
      both.push_back(std::move(result));
      both.push_back(std::move(cmp));
      result = ir::makeNode(Op::And, Type::Bool, e.range, std::move(both));
    }
  }
  result->range = e.range;
  return result;
}

NodePtr ExprLowering::conditional(const ast::ConditionalExpr& e) {
  return select(*e.cond, *e.thenExpr, *e.elseExpr, e.range, "if");
}

// `if c then a else b` and `where(c, a, b)`: one Select node.
NodePtr ExprLowering::select(const ast::Expr& cond, const ast::Expr& then, const ast::Expr& otherwise, SourceRange range,
                             const std::string& form) {
  NodePtr c = lower(cond);
  NodePtr a = lower(then);
  NodePtr b = lower(otherwise);
  if (!c || !a || !b) return nullptr;
  if (!requireType(*c, Type::Bool, ("the condition of '" + form + "'").c_str())) return nullptr;
  Type t = a->type;
  if (a->type != b->type) {
    bool numeric = (a->type == Type::Int || a->type == Type::Real) && (b->type == Type::Int || b->type == Type::Real);
    if (!numeric) {
      diags_.report(DiagCode::TypeMismatch, range,
                    "the branches of '" + form + "' differ: " + ir::typeName(a->type) + " and " + ir::typeName(b->type));
      return nullptr;
    }
    t = Type::Real;
  }
  std::vector<NodePtr> kids;
  kids.push_back(std::move(c));
  kids.push_back(std::move(a));
  kids.push_back(std::move(b));
  return ir::makeNode(Op::Select, t, range, std::move(kids));
}

// --- binders ---------------------------------------------------------------------------------

// Lowers an explicit `i in lo..hi` range; returns false-y (null lo) when none was written.
NodePtr ExprLowering::lowerBinder(const ast::Binder& b, NodePtr& lo, NodePtr& hi) {
  if (isBound(b.name.name) || (ctx_.kernel && (ctx_.kernel->tensor(b.name.name) || ctx_.kernel->dim(b.name.name) ||
                                                ctx_.kernel->dtypeVar(b.name.name)))) {
    diags_.report(DiagCode::ShadowedName, b.name.range,
                  "the index variable '" + b.name.name + "' reuses a name already in scope; choose another name");
    return nullptr;
  }
  if (!b.lo) return ir::makeBool(true, b.range);
  lo = lower(*b.lo);
  hi = lower(*b.hi);
  if (!lo || !hi) return nullptr;
  if (!requireType(*lo, Type::Int, "a range bound") || !requireType(*hi, Type::Int, "a range bound")) return nullptr;
  return ir::makeBool(true, b.range);
}

NodePtr ExprLowering::reduction(const ast::ReductionExpr& e) {
  // max(a, b) / min(a, b) over two values already in scope: the elementwise maximum.
  const std::string& v = e.var.name.name;
  bool varIsBound = isBound(v) || (ctx_.kernel && (ctx_.kernel->tensor(v) || ctx_.kernel->dim(v))) || localDef(v) ||
                    cellOutput(v);
  if (varIsBound && !e.var.lo && (e.op == "max" || e.op == "min")) {
    ast::NameExpr first;
    first.name = v;
    first.range = e.var.name.range;
    NodePtr a = lower(first);
    NodePtr b = lower(*e.body);
    if (!a || !b) return nullptr;
    if (!requireNumeric(*a, "an argument of max/min") || !requireNumeric(*b, "an argument of max/min")) return nullptr;
    Type t = arithmeticType(*a, *b);
    std::vector<NodePtr> kids;
    kids.push_back(std::move(a));
    kids.push_back(std::move(b));
    auto n = ir::makeNode(Op::Call, t, e.range, std::move(kids));
    n->name = e.op == "max" ? "fmax" : "fmin";
    return n;
  }
  NodePtr lo, hi;
  if (!lowerBinder(e.var, lo, hi)) return nullptr;
  pushIndex(v, e.var.range, hi ? ir::makeNode(Op::Add, Type::Int, hi->range, [&] {
                                  std::vector<NodePtr> k;
                                  k.push_back(hi->clone());
                                  k.push_back(ir::makeInt(1, hi->range));
                                  return k;
                                }())
                              : nullptr);
  NodePtr body = lower(*e.body);
  NodePtr extent = popIndex();
  if (!body) return nullptr;
  if (!requireNumeric(*body, ("the body of " + e.op + "(...)").c_str())) return nullptr;
  if (!lo) {
    if (!extent) {
      diags_.report(DiagCode::CannotInferRange, e.var.range,
                    "cannot tell the range of '" + v + "': index a tensor with it, or write " + v + " in LO..HI");
      return nullptr;
    }
    lo = ir::makeInt(0, e.var.range);
    std::vector<NodePtr> k;
    k.push_back(std::move(extent));
    k.push_back(ir::makeInt(1, e.var.range));
    hi = ir::makeNode(Op::Sub, Type::Int, e.var.range, std::move(k));
  }
  Type t = body->type;
  std::vector<NodePtr> kids;
  kids.push_back(ir::fold(std::move(lo)));
  kids.push_back(ir::fold(std::move(hi)));
  kids.push_back(std::move(body));
  auto n = ir::makeNode(Op::Reduce, t, e.range, std::move(kids));
  n->name = e.op;
  n->vars.push_back(v);
  return n;
}

NodePtr ExprLowering::quantifier(const ast::QuantifierExpr& e) {
  if (e.binders.size() == 1 && e.binders[0].name.name == "cells" && !e.binders[0].lo) return cellsQuantifier(e);
  std::vector<NodePtr> bounds;  // lo, hi per binder; hi null until inferred
  for (const auto& b : e.binders) {
    NodePtr lo, hi;
    if (!lowerBinder(b, lo, hi)) {
      for (size_t k = 0; k < bounds.size() / 2; ++k) popIndex();
      return nullptr;
    }
    NodePtr extent;
    if (hi) {
      std::vector<NodePtr> k;
      k.push_back(hi->clone());
      k.push_back(ir::makeInt(1, hi->range));
      extent = ir::makeNode(Op::Add, Type::Int, hi->range, std::move(k));
    }
    pushIndex(b.name.name, b.range, std::move(extent));
    bounds.push_back(std::move(lo));
    bounds.push_back(std::move(hi));
  }
  NodePtr body = lower(*e.body);
  std::vector<NodePtr> extents(e.binders.size());
  for (size_t k = e.binders.size(); k-- > 0;) extents[k] = popIndex();
  if (!body) return nullptr;
  if (!requireType(*body, Type::Bool, "the body of a quantifier")) return nullptr;
  auto n = std::make_unique<ir::Node>(Op::Quantifier, Type::Bool, e.range);
  n->b = e.isForall;
  for (size_t k = 0; k < e.binders.size(); ++k) {
    const auto& b = e.binders[k];
    n->vars.push_back(b.name.name);
    if (bounds[2 * k]) {
      n->kids.push_back(ir::fold(std::move(bounds[2 * k])));
      n->kids.push_back(ir::fold(std::move(bounds[2 * k + 1])));
      continue;
    }
    if (!extents[k]) {
      diags_.report(DiagCode::CannotInferRange, b.range,
                    "cannot tell the range of '" + b.name.name + "': index a tensor with it, or write " + b.name.name +
                        " in LO..HI");
      return nullptr;
    }
    std::vector<NodePtr> hk;
    hk.push_back(std::move(extents[k]));
    hk.push_back(ir::makeInt(1, b.range));
    n->kids.push_back(ir::makeInt(0, b.range));
    n->kids.push_back(ir::fold(ir::makeNode(Op::Sub, Type::Int, b.range, std::move(hk))));
  }
  n->kids.push_back(std::move(body));
  return n;
}

namespace {

// Every name and y* reference in an expression.
void collectNames(const ast::Expr& e, std::vector<std::string>& out) {
  switch (e.kind) {
    case ast::ExprKind::Name: out.push_back(static_cast<const ast::NameExpr&>(e).name); return;
    case ast::ExprKind::Ref: out.push_back(static_cast<const ast::RefExpr&>(e).name); return;
    case ast::ExprKind::Index: {
      const auto& x = static_cast<const ast::IndexExpr&>(e);
      collectNames(*x.base, out);
      for (const auto& i : x.indices) collectNames(*i, out);
      return;
    }
    case ast::ExprKind::Call:
      for (const auto& a : static_cast<const ast::CallExpr&>(e).args) collectNames(*a, out);
      return;
    case ast::ExprKind::Reduction: collectNames(*static_cast<const ast::ReductionExpr&>(e).body, out); return;
    case ast::ExprKind::Unary: collectNames(*static_cast<const ast::UnaryExpr&>(e).operand, out); return;
    case ast::ExprKind::Binary:
      collectNames(*static_cast<const ast::BinaryExpr&>(e).lhs, out);
      collectNames(*static_cast<const ast::BinaryExpr&>(e).rhs, out);
      return;
    case ast::ExprKind::Compare:
      for (const auto& o : static_cast<const ast::CompareExpr&>(e).operands) collectNames(*o, out);
      return;
    case ast::ExprKind::Abs: collectNames(*static_cast<const ast::AbsExpr&>(e).operand, out); return;
    case ast::ExprKind::Paren: collectNames(*static_cast<const ast::ParenExpr&>(e).inner, out); return;
    case ast::ExprKind::Quantifier: collectNames(*static_cast<const ast::QuantifierExpr&>(e).body, out); return;
    case ast::ExprKind::Conditional: {
      const auto& x = static_cast<const ast::ConditionalExpr&>(e);
      collectNames(*x.cond, out);
      collectNames(*x.thenExpr, out);
      collectNames(*x.elseExpr, out);
      return;
    }
    case ast::ExprKind::Number: return;
  }
}

}  // namespace

// forall cells: P  ->  the conjunction, over the outputs P speaks of, of P for every cell.
NodePtr ExprLowering::cellsQuantifier(const ast::QuantifierExpr& e) {
  if (!ctx_.kernel) {
    diags_.report(DiagCode::UnknownName, e.binders[0].range, "'forall cells' needs a kernel in scope");
    return nullptr;
  }
  // In a contract, the outputs the body names; in a class (`y`), every output.
  std::vector<std::string> named;
  collectNames(*e.body, named);
  auto mentioned = [&](const std::string& n) { return std::find(named.begin(), named.end(), n) != named.end(); };
  bool anyNamed = std::any_of(ctx_.kernel->tensors.begin(), ctx_.kernel->tensors.end(),
                              [&](const TensorInfo& t) { return t.output && mentioned(t.name); });
  NodePtr result;
  for (const auto& t : ctx_.kernel->tensors) {
    if (!t.output || (!ctx_.inClass && anyNamed && !mentioned(t.name))) continue;
    std::vector<std::string> vars;
    for (size_t k = 0; k < t.rank(); ++k) vars.push_back(cellVar(k));
    for (size_t k = 0; k < vars.size(); ++k) pushIndex(vars[k], e.binders[0].range, t.shape[k]->clone());
    cells_ = Cells{&t, vars};
    NodePtr body = lower(*e.body);
    cells_.reset();
    for (size_t k = 0; k < vars.size(); ++k) popIndex();
    if (!body) return nullptr;
    if (!requireType(*body, Type::Bool, "the body of a quantifier")) return nullptr;
    NodePtr q;
    if (vars.empty()) {
      q = std::move(body);
    } else {
      q = std::make_unique<ir::Node>(Op::Quantifier, Type::Bool, e.range);
      q->b = e.isForall;
      q->vars = vars;
      for (size_t k = 0; k < vars.size(); ++k) {
        std::vector<NodePtr> hk;
        hk.push_back(t.shape[k]->clone());
        hk.push_back(ir::makeInt(1, e.range));
        q->kids.push_back(ir::makeInt(0, e.range));
        q->kids.push_back(ir::fold(ir::makeNode(Op::Sub, Type::Int, e.range, std::move(hk))));
      }
      q->kids.push_back(std::move(body));
    }
    if (!result) {
      result = std::move(q);
    } else {
      std::vector<NodePtr> both;
      both.push_back(std::move(result));
      both.push_back(std::move(q));
      result = ir::makeNode(e.isForall ? Op::And : Op::Or, Type::Bool, e.range, std::move(both));
    }
  }
  return result;
}

}  // namespace kc::sema
