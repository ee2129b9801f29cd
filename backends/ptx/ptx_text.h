#pragma once
// PTX text cut into statements for the parser (ptx_parser.cpp): comments out, each statement
// with the line it starts on; labels ("NAME:"), scope braces and ";"-terminated statements
// apart; directives that end at their line (.version, .maxntid ...) cut there.
#include <string>
#include <vector>

namespace kc::ptx {

struct Statement {
  std::string text;
  int line = 0;
  char kind = ';';  // ';' a statement, ':' a label, '{' / '}' a scope brace
};

std::vector<Statement> statements(const std::string& src);
std::vector<std::string> words(const std::string& s);  // split at white space
std::string trim(const std::string& s);
// Splits at top-level commas (not inside [] {} ()), each part trimmed.
std::vector<std::string> splitOperands(const std::string& s);

}  // namespace kc::ptx
