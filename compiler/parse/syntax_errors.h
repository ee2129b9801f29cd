#pragma once
// Turns ANTLR's syntax errors into catalogue diagnostics that say, in a user's words, what
// was expected: "expected ')' or ',', found end of line". Internal to the parse step.
#include "antlr4-runtime.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/parse/locator.h"

namespace kc::parse {

class SyntaxErrorListener : public antlr4::BaseErrorListener {
 public:
  SyntaxErrorListener(const Locator& locator, DiagnosticEngine& diags) : locator_(locator), diags_(diags) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line, size_t column,
                   const std::string& msg, std::exception_ptr e) override;

  // Reports the lexer's error tokens (bad characters, unterminated strings) once each.
  // Returns false when the input is nested too deeply to parse at all.
  bool reportLexicalErrors(antlr4::CommonTokenStream& tokens);
  static constexpr int kMaxBracketDepth = 64;
  // Reports sections, scope items and protocol items the language does not have (the
  // grammar accepts them as "unknown" so that recovery stays on the next line).
  void reportUnknownItems(antlr4::tree::ParseTree* tree);
  size_t errors() const { return errors_; }

 private:
  bool claimLine(uint32_t line);

  const Locator& locator_;
  DiagnosticEngine& diags_;
  std::vector<uint32_t> linesWithErrors_;
  size_t errors_ = 0;
};

// Words for an expected-token set, collapsing families ("an expression", "a section").
std::string describeExpected(const antlr4::misc::IntervalSet& expected, const antlr4::dfa::Vocabulary& vocab);
// Words for one found token: 'foo', end of line, end of file.
std::string describeFound(const antlr4::Token* token);

}  // namespace kc::parse
