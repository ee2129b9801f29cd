#pragma once
// Lowers AST expressions to the typed IR: resolves every name, checks types and ranks,
// infers the range of each index variable from the tensor dimension it indexes, and
// desugars chained comparisons, `max(a, b)`, `forall cells` and whole-tensor statistics.
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"
#include "compiler/sema/model.h"

namespace kc::sema {

// Which part of a contract an expression belongs to: it decides what may be read.
enum class Part {
  Shape,      // kernel shapes and where-ranges: dims and integer constants only
  Pre,        // inputs, dims, dtypes
  Oracle,     // inputs and earlier oracle definitions
  Tolerance,  // + y* and earlier tolerance definitions
  Post,       // + outputs and every definition
  Signature,  // like Post
};

struct LoweringContext {
  const KernelInfo* kernel = nullptr;
  Part part = Part::Post;
  const std::vector<Definition>* oracle = nullptr;     // visible oracle definitions
  const std::vector<Definition>* tolerance = nullptr;  // visible tolerance definitions
  bool inClass = false;  // `y` is the generic output of the applying contract's kernel
  // Definitions that failed with an error: uses of them fail quietly, without a cascade.
  const std::vector<std::string>* failed = nullptr;
};

class ExprLowering {
 public:
  ExprLowering(DiagnosticEngine& diags, LoweringContext ctx) : diags_(diags), ctx_(ctx) {}

  // Returns null after reporting an error.
  ir::NodePtr lower(const ast::Expr& e);
  // A boolean condition (pre, post): reports a non-boolean.
  ir::NodePtr lowerCondition(const ast::Expr& e);
  // An expression with the cells of `output` bound to `cellVars` (wrong-cells clauses).
  ir::NodePtr lowerInCells(const ast::Expr& e, const TensorInfo& output, const std::vector<std::string>& cellVars);

  // Index variables of a definition's left-hand side, visible while lowering its value.
  // Returns their inferred extents (null where none could be inferred).
  void pushIndex(const std::string& name, SourceRange range, ir::NodePtr extent = nullptr);
  ir::NodePtr popIndex();  // the extent inferred for the innermost index, or null

 private:
  struct Bound {
    std::string name;
    SourceRange range;
    ir::NodePtr extent;
  };
  struct Cells {
    const TensorInfo* output;
    std::vector<std::string> vars;
  };

  ir::NodePtr number(const ast::NumberExpr& e);
  ir::NodePtr name(const ast::NameExpr& e);
  ir::NodePtr ref(const ast::RefExpr& e);
  ir::NodePtr index(const ast::IndexExpr& e);
  ir::NodePtr call(const ast::CallExpr& e);
  ir::NodePtr reduction(const ast::ReductionExpr& e);
  ir::NodePtr unary(const ast::UnaryExpr& e);
  ir::NodePtr binary(const ast::BinaryExpr& e);
  bool inferThroughProduct(const ir::Node& index, const ir::Node& extent);
  ir::NodePtr realModulo(ir::NodePtr x, ir::NodePtr m, SourceRange range);
  ir::NodePtr compare(const ast::CompareExpr& e);
  ir::NodePtr quantifier(const ast::QuantifierExpr& e);
  ir::NodePtr cellsQuantifier(const ast::QuantifierExpr& e);
  ir::NodePtr conditional(const ast::ConditionalExpr& e);
  ir::NodePtr select(const ast::Expr& cond, const ast::Expr& then, const ast::Expr& otherwise, SourceRange range,
                     const std::string& form);

  ir::NodePtr read(const std::string& name, ir::Role role, SourceRange range, const std::vector<ast::ExprPtr>* indices,
                   const std::vector<ir::NodePtr>* shape);
  ir::NodePtr wholeTensor(const ast::Expr& e);
  ir::NodePtr integerQuotient(const std::string& f, ir::NodePtr x, SourceRange range);
  ir::NodePtr lowerBinder(const ast::Binder& b, ir::NodePtr& lo, ir::NodePtr& hi);
  bool requireNumeric(const ir::Node& n, const char* what);
  bool requireType(const ir::Node& n, ir::Type t, const char* what);
  void inferExtent(const ir::Node& index, const ir::Node& extent);

  const Definition* localDef(const std::string& n) const;
  const Definition* oracleDef(const std::string& n) const;  // for d*: any oracle definition
  bool failed(const std::string& n) const;
  const TensorInfo* cellOutput(const std::string& n) const;  // `y` / an output in cells mode
  bool isBound(const std::string& n) const;

  DiagnosticEngine& diags_;
  LoweringContext ctx_;
  std::vector<Bound> bound_;
  std::optional<Cells> cells_;
};

}  // namespace kc::sema
