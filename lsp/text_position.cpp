#include "lsp/text_position.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace kc::lsp {

namespace {

// UTF-16 code units of the UTF-8 sequence starting with byte `b` (a stray byte counts 1).
int unitsOf(unsigned char b) { return (b & 0xF8) == 0xF0 ? 2 : 1; }
// Bytes of the UTF-8 sequence starting with `b`.
size_t bytesOf(unsigned char b) { return b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1; }

int64_t utf16Length(std::string_view bytes) {
  int64_t n = 0;
  for (size_t i = 0; i < bytes.size();) {
    auto b = static_cast<unsigned char>(bytes[i]);
    n += unitsOf(b);
    i += bytesOf(b);
  }
  return n;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string uriToPath(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.substr(0, scheme.size()) != scheme) return "";
  uri.remove_prefix(scheme.size());
  if (!uri.empty() && uri.front() != '/') uri.remove_prefix(std::min(uri.size(), uri.find('/')));  // file://host/path
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hexValue(uri[i + 1]) >= 0 && hexValue(uri[i + 2]) >= 0) {
      path += static_cast<char>(hexValue(uri[i + 1]) * 16 + hexValue(uri[i + 2]));
      i += 2;
    } else {
      path += uri[i];
    }
  }
  return path;
}

std::string pathToUri(std::string_view path) {
  std::string uri = "file://";
  for (char c : path) {
    auto b = static_cast<unsigned char>(c);
    if (std::isalnum(b) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += c;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", b);
      uri += buf;
    }
  }
  return uri;
}

Position toPosition(const SourceFile& file, const SourcePos& pos) {
  if (pos.line == 0 || pos.line > file.lineCount()) return {};
  std::string_view line = file.line(pos.line);
  size_t bytes = pos.column == 0 ? 0 : std::min<size_t>(pos.column - 1, line.size());
  return {static_cast<int64_t>(pos.line) - 1, utf16Length(line.substr(0, bytes))};
}

size_t toOffset(std::string_view text, const Position& at) {
  size_t offset = 0;
  for (int64_t l = 0; l < at.line; ++l) {
    size_t nl = text.find('\n', offset);
    if (nl == std::string_view::npos) return text.size();
    offset = nl + 1;
  }
  int64_t units = 0;
  while (offset < text.size() && text[offset] != '\n' && units < at.character) {
    auto b = static_cast<unsigned char>(text[offset]);
    units += unitsOf(b);
    offset += bytesOf(b);
  }
  return std::min(offset, text.size());
}

Position endOf(std::string_view text) {
  Position p;
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', start)) {
    ++p.line;
    start = nl + 1;
  }
  p.character = utf16Length(text.substr(start));
  return p;
}

}  // namespace kc::lsp
