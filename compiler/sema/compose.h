#pragma once
// An op applied in an oracle (docs/language.md §9.3, "Applying an op"): `h = std.ops.gelu(z)`
// inlines the op's oracle into the applying one. Each definition of the op's oracle becomes a
// definition `h.NAME`, and the one of its output becomes `h`, with the op's inputs replaced by
// the arguments, its dims by the arguments' extents and its dtype variables by the arguments'
// dtypes. Only the oracle composes: the applying contract states its own pre and tolerance.
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"
#include "compiler/sema/model.h"

namespace kc::sema {

// One argument of an application, already resolved in the applying contract.
struct OpArgument {
  enum class Kind { Tensor, Scalar } kind = Kind::Tensor;
  // Tensor: a kernel input (role Input) or an earlier definition (role Local), its shape,
  // and (for a kernel input) its dtype, a name or a dtype variable.
  std::string name;
  ir::Role role = ir::Role::Input;
  std::vector<const ir::Node*> extents;
  std::string dtype;
  bool dtypeIsVar = false;
  // Scalar: the value for a rank-0 input of the op.
  ir::NodePtr value;
  SourceRange range;
};

// The op's oracle `calleeOracle` (lowered against `callee`), with `args` bound to the op's
// inputs in order, as definitions named `result` (the output) and `result.NAME`. Reports what
// does not fit at `at` (KC2031) and returns false.
bool inlineOracle(const KernelInfo& callee, const std::vector<Definition>& calleeOracle,
                  const std::vector<OpArgument>& args, const std::string& result, SourceRange at,
                  DiagnosticEngine& diags, std::vector<Definition>& out);

}  // namespace kc::sema
