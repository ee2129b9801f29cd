#pragma once
// Source files and positions. Every AST node carries a SourceRange; diagnostics print the
// line it starts on with a caret underline.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

struct SourcePos {
  uint32_t line = 0;    // 1-based; 0 means "no position"
  uint32_t column = 0;  // 1-based, in bytes
  uint32_t offset = 0;  // 0-based byte offset
};

// [begin, end): end is one past the last character.
struct SourceRange {
  uint32_t file = 0;  // index into SourceManager; 0 is "no file"
  SourcePos begin;
  SourcePos end;

  bool valid() const { return begin.line != 0; }
  // The smallest range covering both.
  static SourceRange span(const SourceRange& a, const SourceRange& b);
  std::string str() const;  // "3:5-3:12"
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The text of a 1-based line without its newline.
  std::string_view line(uint32_t line) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }
  SourcePos posAt(uint32_t offset) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> lineStarts_;
};

class SourceManager {
 public:
  // Returns the id of the new file (ids start at 1).
  uint32_t add(std::string path, std::string text);
  // Reads a file from disk; returns 0 and sets `error` when it cannot be read.
  uint32_t load(const std::string& path, std::string& error);
  const SourceFile& file(uint32_t id) const { return *files_.at(id - 1); }
  bool has(uint32_t id) const { return id >= 1 && id <= files_.size(); }

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace kc
