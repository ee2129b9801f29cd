#pragma once
// The canonical formatter behind `kcontract fmt`: idempotent, keeps every comment, and
// parse(format(x)) equals parse(x). docs/language.md ("Canonical form") lists its rules.
#include <string>

#include "compiler/ast/ast.h"

namespace kc::fmt {

std::string format(const ast::File& file, const SourceFile& source);

}  // namespace kc::fmt
