#include "compiler/sema/kernels.h"

#include <algorithm>

#include "compiler/sema/lower_expr.h"
#include "stdlib/numerics/dtype.h"

namespace kc::sema {

namespace {

// Bare names in shape expressions are the kernel's dimensions.
void collectDimNames(const ast::Expr& e, std::vector<std::pair<std::string, SourceRange>>& out) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const auto& n = static_cast<const ast::NameExpr&>(e);
      bool known = std::any_of(out.begin(), out.end(), [&](const auto& p) { return p.first == n.name; });
      if (!known) out.emplace_back(n.name, n.range);
      break;
    }
    case ast::ExprKind::Unary: collectDimNames(*static_cast<const ast::UnaryExpr&>(e).operand, out); break;
    case ast::ExprKind::Binary:
      collectDimNames(*static_cast<const ast::BinaryExpr&>(e).lhs, out);
      collectDimNames(*static_cast<const ast::BinaryExpr&>(e).rhs, out);
      break;
    case ast::ExprKind::Paren: collectDimNames(*static_cast<const ast::ParenExpr&>(e).inner, out); break;
    // floor((L + 2 * P - K) / S) + 1: the names inside a call are dimensions too.
    case ast::ExprKind::Call:
      for (const auto& a : static_cast<const ast::CallExpr&>(e).args) collectDimNames(*a, out);
      break;
    default: break;
  }
}

std::optional<int64_t> constInt(const ast::Expr& e, ExprLowering& lower, DiagnosticEngine& diags, const char* what) {
  ir::NodePtr n = lower.lower(e);
  if (!n) return std::nullopt;
  n = ir::fold(std::move(n));
  if (n->op == ir::Op::ConstInt) return n->i;
  if (n->op == ir::Op::ConstReal && n->d == static_cast<double>(static_cast<int64_t>(n->d))) return static_cast<int64_t>(n->d);
  diags.report(DiagCode::BadDomain, e.range, std::string(what) + " must be an integer constant");
  return std::nullopt;
}

}  // namespace

// Long on purpose: one pass in the signature's order (dims, `where`, tensors in ABI order), each
// step reading the names the one before it bound.
std::unique_ptr<KernelInfo> bindSignature(const std::string& name, const ast::Signature& sig,
                                          const std::vector<ast::DomainItem>& where, SourceRange range,
                                          DiagnosticEngine& diags) {
  auto k = std::make_unique<KernelInfo>();
  k->name = name;
  k->range = range;

  // Dimensions: every bare name in a shape.
  std::vector<std::pair<std::string, SourceRange>> dimNames;
  for (const auto* list : {&sig.inputs, &sig.outputs})
    for (const auto& p : *list)
      for (const auto& d : p.dims) collectDimNames(*d, dimNames);
  for (const auto& [n, r] : dimNames) {
    DimInfo d;
    d.name = n;
    d.range = r;
    k->dims.push_back(d);
  }

  // `where`: ranges of dimensions and the dtypes of dtype variables.
  LoweringContext shapeCtx{k.get(), Part::Shape, nullptr, nullptr, false};
  ExprLowering lower(diags, shapeCtx);
  std::vector<std::string> seen;
  for (const auto& w : where) {
    if (std::find(seen.begin(), seen.end(), w.name.name) != seen.end()) {
      diags.report(DiagCode::DuplicateDefinition, w.name.range, "'" + w.name.name + "' is given a domain twice");
      continue;
    }
    seen.push_back(w.name.name);
    auto dim = std::find_if(k->dims.begin(), k->dims.end(), [&](const DimInfo& d) { return d.name == w.name.name; });
    if (dim != k->dims.end()) {
      std::optional<int64_t> lo, hi;
      if (w.isRange) {
        lo = constInt(*w.lo, lower, diags, "a dimension bound");
        hi = constInt(*w.hi, lower, diags, "a dimension bound");
      } else {
        for (const auto& e : w.elements) {
          auto v = constInt(*e, lower, diags, "a dimension value");
          if (!v) continue;
          lo = lo ? std::min(*lo, *v) : *v;
          hi = hi ? std::max(*hi, *v) : *v;
          dim->allowed.push_back(*v);
        }
        std::sort(dim->allowed.begin(), dim->allowed.end());
        dim->allowed.erase(std::unique(dim->allowed.begin(), dim->allowed.end()), dim->allowed.end());
      }
      if (!lo || !hi) continue;
      if (*lo < 0 || *lo > *hi) {
        diags.report(DiagCode::BadDomain, w.range,
                     "the range of '" + w.name.name + "' is empty or negative: " + std::to_string(*lo) + ".." +
                         std::to_string(*hi));
        continue;
      }
      dim->lo = *lo;
      dim->hi = *hi;
      dim->declared = true;
      continue;
    }
    // Otherwise it must be a dtype variable: a set of dtype names.
    bool dtypes = !w.isRange && !w.elements.empty() && std::all_of(w.elements.begin(), w.elements.end(), [](const auto& e) {
      return e->kind == ast::ExprKind::Name && numerics::parseDType(static_cast<const ast::NameExpr&>(*e).name);
    });
    if (!dtypes) {
      diags.report(DiagCode::BadDomain, w.range,
                   "'" + w.name.name + "' is no dimension of this kernel; a dtype variable takes a set of dtypes such as {f32, bf16}");
      continue;
    }
    DTypeVarInfo v{w.name.name, {}, w.range};
    for (const auto& e : w.elements) v.allowed.push_back(static_cast<const ast::NameExpr&>(*e).name);
    k->dtypeVars.push_back(std::move(v));
  }

  // Tensors, inputs then outputs: the ABI order.
  size_t abi = 0;
  for (const auto* list : {&sig.inputs, &sig.outputs}) {
    for (const auto& p : *list) {
      TensorInfo t;
      t.name = p.name.name;
      t.output = list == &sig.outputs;
      t.dtype = p.dtype.name;
      t.dtypeIsVar = k->dtypeVar(t.dtype) != nullptr;
      t.abiIndex = abi++;
      t.range = p.range;
      if (!t.dtypeIsVar && !numerics::parseDType(t.dtype))
        diags.report(DiagCode::UnknownDType, p.dtype.range,
                     "unknown dtype '" + t.dtype + "'; use one such as f32, bf16, i8, or declare it: where " + t.dtype +
                         " in {f32, bf16}");
      if (k->tensor(t.name))
        diags.report(DiagCode::DuplicateDefinition, p.name.range, "two parameters are named '" + t.name + "'");
      if (k->dim(t.name) || k->dtypeVar(t.name))
        diags.report(DiagCode::ShadowedName, p.name.range,
                     "the parameter '" + t.name + "' has the name of a dimension or dtype variable");
      for (const auto& d : p.dims) {
        ir::NodePtr n = lower.lower(*d);
        if (!n) continue;
        if (n->type != ir::Type::Int) {
          diags.report(DiagCode::TypeMismatch, d->range, "a dimension must be an integer expression");
          continue;
        }
        t.shape.push_back(ir::fold(std::move(n)));
      }
      k->tensors.push_back(std::move(t));
    }
  }
  return k;
}

void bindKernels(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags) {
  for (const auto* k : symbols.kernelOrder) {
    auto info = bindSignature(k->name.name, k->signature, k->where, k->range, diags);
    if (k->implements) info->implements = k->implements->text;
    program.kernels.push_back(std::move(info));
  }
  for (const auto* o : symbols.opOrder)
    program.kernels.push_back(bindSignature(o->name.text, o->signature, o->where, o->range, diags));
}

}  // namespace kc::sema
