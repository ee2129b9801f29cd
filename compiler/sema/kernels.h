#pragma once
// Pass 3 — kernels: binds each kernel's (and op's) signature: dtype variables and their
// allowed dtypes, symbolic dimensions and their ranges, and every tensor's shape as IR.
#include "compiler/diag/diagnostics.h"
#include "compiler/sema/model.h"
#include "compiler/sema/symbols.h"

namespace kc::sema {

void bindKernels(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags);

// One signature; ops are bound the same way under their own name.
std::unique_ptr<KernelInfo> bindSignature(const std::string& name, const ast::Signature& sig,
                                          const std::vector<ast::DomainItem>& where, SourceRange range,
                                          DiagnosticEngine& diags);

}  // namespace kc::sema
