#pragma once
// Where things are, in the Language Server Protocol's terms: file URIs, and positions as a
// 0-based line and a character offset in UTF-16 code units (the compiler counts 1-based
// lines and bytes).
#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/diag/source.h"

namespace kc::lsp {

struct Position {
  int64_t line = 0;
  int64_t character = 0;  // UTF-16 code units from the start of the line
};

// file:///a/b%20c.kcontract -> /a/b c.kcontract; "" for a URI of another scheme.
std::string uriToPath(std::string_view uri);
// /a/b c.kcontract -> file:///a/b%20c.kcontract
std::string pathToUri(std::string_view path);

// The compiler's position (1-based line, 1-based byte column) in LSP's terms. An invalid
// position is the start of the text.
Position toPosition(const SourceFile& file, const SourcePos& pos);
// The byte offset in `text` of an LSP position; past the end of a line: the line's end;
// past the last line: the end of the text.
size_t toOffset(std::string_view text, const Position& at);
// The position just past the end of `text`.
Position endOf(std::string_view text);

}  // namespace kc::lsp
