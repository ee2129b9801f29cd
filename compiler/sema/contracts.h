#pragma once
// Pass 5 — contracts: checks every contract's eight parts against its kernel, lowers pre,
// oracle, tolerance, post and signatures to the IR, and applies the standard classes it
// names (their postconditions, protocol and signatures join the contract's).
#include "compiler/diag/diagnostics.h"
#include "compiler/sema/model.h"
#include "compiler/sema/symbols.h"

namespace kc::sema {

void checkContracts(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags);

}  // namespace kc::sema
