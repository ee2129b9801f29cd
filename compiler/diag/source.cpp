#include "compiler/diag/source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kc {

SourceRange SourceRange::span(const SourceRange& a, const SourceRange& b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  SourceRange r = a;
  if (b.begin.offset < r.begin.offset) r.begin = b.begin;
  if (b.end.offset > r.end.offset) r.end = b.end;
  return r;
}

std::string SourceRange::str() const {
  return std::to_string(begin.line) + ":" + std::to_string(begin.column) + "-" +
         std::to_string(end.line) + ":" + std::to_string(end.column);
}

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  uint32_t start = lineStarts_[line - 1];
  uint32_t end = line < lineStarts_.size() ? lineStarts_[line] : static_cast<uint32_t>(text_.size());
  std::string_view view(text_.data() + start, end - start);
  while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) view.remove_suffix(1);
  return view;
}

SourcePos SourceFile::posAt(uint32_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - lineStarts_.begin());
  return SourcePos{line, offset - lineStarts_[line - 1] + 1, offset};
}

uint32_t SourceManager::add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return static_cast<uint32_t>(files_.size());
}

uint32_t SourceManager::load(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return 0;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return add(path, text.str());
}

}  // namespace kc
