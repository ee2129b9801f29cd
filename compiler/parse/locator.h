#pragma once
// Maps ANTLR token positions (code-point indices) to SourceRanges (byte offsets).
// Internal to the parse step.
#include <vector>

#include "antlr4-runtime.h"
#include "compiler/diag/source.h"

namespace kc::parse {

class Locator {
 public:
  Locator(uint32_t fileId, const SourceFile& file);

  SourceRange range(const antlr4::Token* token) const;
  SourceRange range(antlr4::ParserRuleContext* ctx) const;
  SourceRange range(antlr4::tree::TerminalNode* node) const { return range(node->getSymbol()); }
  SourceRange span(const antlr4::Token* first, const antlr4::Token* last) const;
  // An empty range just after the token (where something is missing).
  SourceRange after(const antlr4::Token* token) const;
  uint32_t byteOffset(size_t codePoint) const;
  const SourceFile& file() const { return file_; }

 private:
  uint32_t fileId_;
  const SourceFile& file_;
  std::vector<uint32_t> cpToByte_;  // empty when the text is ASCII (identity)
};

}  // namespace kc::parse
