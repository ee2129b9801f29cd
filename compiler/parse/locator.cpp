#include "compiler/parse/locator.h"

namespace kc::parse {

Locator::Locator(uint32_t fileId, const SourceFile& file) : fileId_(fileId), file_(file) {
  const std::string& text = file.text();
  bool ascii = true;
  for (unsigned char c : text)
    if (c >= 0x80) ascii = false;
  if (ascii) return;
  for (uint32_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cpToByte_.push_back(i);
  cpToByte_.push_back(static_cast<uint32_t>(text.size()));
}

uint32_t Locator::byteOffset(size_t cp) const {
  if (cpToByte_.empty()) return static_cast<uint32_t>(std::min(cp, file_.text().size()));
  return cp < cpToByte_.size() ? cpToByte_[cp] : cpToByte_.back();
}

SourceRange Locator::span(const antlr4::Token* first, const antlr4::Token* last) const {
  SourceRange r;
  r.file = fileId_;
  if (first->getType() == antlr4::Token::EOF) {
    r.begin = r.end = file_.posAt(static_cast<uint32_t>(file_.text().size()));
    return r;
  }
  r.begin = file_.posAt(byteOffset(first->getStartIndex()));
  size_t stop = last->getType() == antlr4::Token::EOF ? last->getStartIndex() : last->getStopIndex() + 1;
  r.end = file_.posAt(byteOffset(stop));
  if (r.end.offset < r.begin.offset) r.end = r.begin;
  return r;
}

SourceRange Locator::range(const antlr4::Token* token) const { return span(token, token); }

SourceRange Locator::range(antlr4::ParserRuleContext* ctx) const {
  const antlr4::Token* stop = ctx->getStop();
  // An empty rule (start after stop) covers nothing; point at its start.
  if (!stop || stop->getTokenIndex() < ctx->getStart()->getTokenIndex()) stop = ctx->getStart();
  return span(ctx->getStart(), stop);
}

SourceRange Locator::after(const antlr4::Token* token) const {
  SourceRange r = range(token);
  r.begin = r.end;
  return r;
}

}  // namespace kc::parse
