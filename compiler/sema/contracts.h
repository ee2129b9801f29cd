#pragma once
// Pass 5 — contracts: checks every contract's eight parts against its kernel, lowers pre,
// oracle, tolerance, post and signatures to the IR, and applies the standard classes it
// names (their postconditions, protocol and signatures join the contract's).
#include "compiler/diag/diagnostics.h"
#include "compiler/sema/model.h"
#include "compiler/sema/symbols.h"

namespace kc::sema {

// `extra`: contracts to check a second time with more classes (Compilation::extraClasses);
// each adds one contract to the program, withClassesId(contract, classes).
void checkContracts(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags,
                    const std::vector<ExtraClasses>& extra = {});

}  // namespace kc::sema
