#pragma once
// The parse step: source text -> AST. ANTLR lives only behind this header.
#include <memory>

#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"

namespace kc::parse {

// Parses one loaded file. Syntax errors are reported to `diags` (as many as can be found,
// at most one per line); the result is null when the file had any error.
std::unique_ptr<ast::File> parseFile(uint32_t fileId, const SourceManager& sources, DiagnosticEngine& diags);

}  // namespace kc::parse
