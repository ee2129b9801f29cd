#pragma once
// S-expression printers for expressions and protocol sets: the structure of an expression
// on one line, e.g. (<= (abs (- (index y r h) (index y* r h))) (index tol r h)).
#include <string>

#include "compiler/ast/ast.h"

namespace kc::ast {

std::string toSExpr(const Expr& e);
std::string toSExpr(const SetExpr& s);
std::string toSExpr(const Binder& b);

}  // namespace kc::ast
