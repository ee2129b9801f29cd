#pragma once
// Prints expressions and protocol sets back as canonical source text. The AST keeps the
// author's parentheses, so printing needs no precedence logic of its own.
#include <string>

#include "compiler/ast/ast.h"

namespace kc::fmt {

std::string printExpr(const ast::Expr& e);
std::string printSet(const ast::SetExpr& s);
std::string printBinder(const ast::Binder& b);
std::string printDomain(const ast::DomainItem& d);
std::string printParam(const ast::Param& p);

}  // namespace kc::fmt
