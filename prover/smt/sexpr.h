#pragma once
// SMT-LIB2 text as S-expressions: the reader behind the solver wrapper (solver.h). It knows the
// lexical syntax of SMT-LIB 2.6 (comments, quoted symbols, strings with "" escapes, keywords,
// numerals, decimals, #b/#x literals) and nothing about any solver.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace kc::smt {

struct SExpr {
  enum class Type { List, Symbol, Keyword, Numeral, Decimal, Binary, Hex, String };
  Type type = Type::List;
  std::string text;            // atoms: the symbol without |bars|, the keyword with its ':', the literal's
                               // digits (#b/#x without the prefix), the string without quotes
  std::vector<SExpr> items;    // lists
  size_t line = 0;             // 1-based line where it starts

  bool isList() const { return type == Type::List; }
  bool isSymbol(const char* s = nullptr) const { return type == Type::Symbol && (!s || text == s); }
  // A short, single-line rendering for error messages.
  std::string str(size_t max = 80) const;
};

// Malformed text: unbalanced parentheses, an unterminated string or quoted symbol, a bad literal.
struct SExprError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every top-level S-expression of `text`, in order. Throws SExprError.
std::vector<SExpr> parseSExprs(const std::string& text);

}  // namespace kc::smt
