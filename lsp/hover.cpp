#include "lsp/hover.h"

#include <cctype>

#include "checker/catalog.h"

namespace kc::lsp {

namespace {

bool idChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '@';
}

std::string markdown(const check::Catalog& cat, const check::Entry& e) {
  std::string s = "**" + e.info->id + "** \xE2\x80\x94 " + e.info->title + "\n\n" +
                  (e.info->isClass ? "class" : "contract") + ", `" + e.file + ":" + std::to_string(e.line) + "`\n\n";
  if (!e.rationale.empty()) s += "What it guards against: " + e.rationale + "\n\n";
  s += "```kcontract\n" + check::trimRight(e.source) + "\n```\n\n";
  if (!e.info->applies.empty()) {
    s += "Applies:";
    for (const auto& id : e.info->applies) {
      const sema::ContractInfo* cls = cat.c.program ? cat.c.program->contract(id) : nullptr;
      s += "\n- `" + id + "`" + (cls ? " \xE2\x80\x94 " + cls->title : "");
    }
    s += "\n\n";
  }
  s += "Signatures: " + check::signaturesOf(e) + "\n";
  return s;
}

}  // namespace

HoverIndex::HoverIndex(std::vector<std::string> includeDirs) : includeDirs_(std::move(includeDirs)) {}
HoverIndex::~HoverIndex() = default;

std::optional<HoverText> HoverIndex::at(const std::string& text, const Position& at, std::string& error) {
  size_t offset = toOffset(text, at);
  size_t begin = offset, end = offset;
  while (begin > 0 && idChar(text[begin - 1])) --begin;
  while (end < text.size() && idChar(text[end])) ++end;
  while (end > begin && (text[end - 1] == '.' || text[end - 1] == '-')) --end;  // a sentence's full stop
  std::string word = text.substr(begin, end - begin);
  if (word.find('.') == std::string::npos) return std::nullopt;
  if (!catalog_ && loadError_.empty()) {
    catalog_ = std::make_unique<check::Catalog>();
    std::string why;
    if (!check::loadCatalog(*catalog_, includeDirs_, false, why, true) && !catalog_->c.program)
      loadError_ = why.empty() ? "the standard contracts do not compile (kcontract catalog says why)" : why;
  }
  if (!loadError_.empty()) {
    error = loadError_;
    return std::nullopt;
  }
  const check::Entry* e = check::findEntry(*catalog_, word);
  if (!e) return std::nullopt;
  // Positions of the word: the line is at.line; characters by re-measuring its prefix.
  size_t newline = begin == 0 ? std::string::npos : text.rfind('\n', begin - 1);
  size_t lineStart = newline == std::string::npos ? 0 : newline + 1;
  Position s{at.line, endOf(std::string_view(text).substr(lineStart, begin - lineStart)).character};
  Position f{at.line, s.character + endOf(word).character};
  return HoverText{markdown(*catalog_, *e), s, f};
}

}  // namespace kc::lsp
