#pragma once
// What the AST's printers share. ast/sexpr.cpp and ast/dump_text.cpp print the tree (`parse`),
// fmt/print_expr.cpp and fmt/formatter.cpp canonical source (`fmt`): the same pieces in two
// spellings. The layout of each shared piece is here once, with the expression printer and
// the spelling as parameters.
#include <functional>
#include <optional>
#include <string>

#include "compiler/ast/ast.h"

namespace kc::ast {

enum class Spelling { Source, Tree };  // `fails when e` (fmt) or `fails-when e` (the tree dump)

using ExprText = std::function<std::string(const Expr&)>;
using SetText = std::function<std::string(const SetExpr&)>;

// An item's first words, alike in both spellings: `import M`, `kernel NAME`, `op NAME`,
// `contract ID "title"`, `class ID`.
std::string itemHead(const Item& item);

// A number, a name or a reference (`x*`), printed alike in both spellings; nullopt for an
// expression of another kind.
std::optional<std::string> leafText(const Expr& e);

// A signature clause: its words, then its expression (printed by `expr`) or its dimension.
std::string clauseText(const SignatureClause& c, Spelling spelling, const ExprText& expr);

// A definition's left-hand side: `name`, or `name[i, j]` (Source) / `name[i j]` (Tree).
std::string definitionLhs(const Definition& d, Spelling spelling);

// An oracle's precision: `f64`, `mpfr(256)`.
std::string precisionText(const Precision& p);

// One binding of a protocol item: `target ~ set` for values, else `target in set`.
std::string bindingText(const ProtocolItem& item, const ProtocolBinding& b, const SetText& set);

}  // namespace kc::ast
