#pragma once
// Pass 2 — symbols: every kernel, op, contract and class of the program by name, with
// duplicates reported (and where the first one was declared).
#include <map>
#include <string>
#include <vector>

#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"

namespace kc::sema {

struct SymbolTable {
  std::map<std::string, const ast::KernelDecl*> kernels;
  std::map<std::string, const ast::OpDecl*> ops;
  std::map<std::string, const ast::ContractDecl*> contracts;  // contracts and classes, by id
  std::vector<const ast::ContractDecl*> contractOrder;        // declaration order
  std::vector<const ast::KernelDecl*> kernelOrder;
  std::vector<const ast::OpDecl*> opOrder;
};

SymbolTable collectSymbols(const std::vector<const ast::File*>& files, DiagnosticEngine& diags);

}  // namespace kc::sema
