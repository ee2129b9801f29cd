#include "compiler/parse/syntax_errors.h"

#include <algorithm>

#include "KContractLexer.h"
#include "KContractParser.h"

namespace kc::parse {

namespace {

using P = KContractParser;

bool isExpressionStart(size_t t) {
  return t == P::INT || t == P::FLOAT || t == P::HEXFLOAT || t == P::REF || t == P::LPAREN || t == P::BAR ||
         t == P::MINUS || t == P::BANG || t == P::KW_IF || t == P::KW_FORALL || t == P::KW_SUM;
}

bool isSoftKeyword(size_t t) {
  switch (t) {
    case P::KW_SEEDS: case P::KW_REPEATS: case P::KW_DIMS: case P::KW_VALUES: case P::KW_LAYOUTS:
    case P::KW_CELLS: case P::KW_PERTURB: case P::KW_CASE: case P::KW_LAYOUT: case P::KW_BACKEND: case P::KW_FAILS:
    case P::KW_ONLY: case P::KW_WHEN: case P::KW_WRONG: case P::KW_ERROR: case P::KW_GROWS: case P::KW_WITH:
    case P::KW_DIFFERS: case P::KW_RUN: case P::KW_TO: case P::KW_IMPLEMENTS:
      return true;
    default:
      return false;
  }
}

const size_t kSectionKeywords[] = {P::KW_SCOPE, P::KW_PRE, P::KW_POST, P::KW_ORACLE, P::KW_TOLERANCE,
                                   P::KW_PROTOCOL, P::KW_SIGNATURE};

std::string tokenWords(size_t t, const antlr4::dfa::Vocabulary& vocab) {
  switch (t) {
    case antlr4::Token::EOF: return "end of file";
    case P::NL: return "end of line";
    case P::NAME: return "a name";
    case P::REF: return "an oracle reference such as y*";
    case P::INT: return "an integer";
    case P::FLOAT: case P::HEXFLOAT: return "a number";
    case P::STRING: return "a string";
    default: {
      std::string lit = vocab.getLiteralName(t);
      return lit.empty() ? vocab.getDisplayName(t) : lit;
    }
  }
}

std::string joinOr(const std::vector<std::string>& parts) {
  if (parts.empty()) return "something else";
  if (parts.size() == 1) return parts[0];
  std::string s;
  for (size_t i = 0; i + 1 < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s + " or " + parts.back();
}

}  // namespace

std::string describeExpected(const antlr4::misc::IntervalSet& expected, const antlr4::dfa::Vocabulary& vocab) {
  std::vector<size_t> tokens;
  for (ssize_t t : expected.toList()) tokens.push_back(static_cast<size_t>(t));
  auto has = [&](size_t t) { return std::find(tokens.begin(), tokens.end(), t) != tokens.end(); };

  std::vector<std::string> parts;
  bool expression = has(P::INT) && has(P::LPAREN) && has(P::NAME);
  size_t sections = std::count_if(std::begin(kSectionKeywords), std::end(kSectionKeywords), has);
  bool name = has(P::NAME);
  // Where sections may start, the grammar's catch-all for unknown sections expects a name;
  // a user should read only the sections themselves.
  if (expression) parts.push_back("an expression");
  else if (name && sections < 5) parts.push_back("a name");
  if (sections >= 5) parts.push_back("a section (scope, pre, post, oracle, tolerance, protocol, signature)");
  for (size_t t : tokens) {
    if (expression && isExpressionStart(t)) continue;
    if ((expression || name) && (t == P::NAME || isSoftKeyword(t))) continue;
    if (sections >= 5 && std::count(std::begin(kSectionKeywords), std::end(kSectionKeywords), t)) continue;
    if (expression && (t == P::KW_EXISTS || t == P::KW_PROD || t == P::KW_MAX || t == P::KW_MIN)) continue;
    if (t == P::SEMI && has(P::NL)) continue;  // ';' is just another way to end a line
    parts.push_back(tokenWords(t, vocab));
  }
  if (parts.size() > 8) {
    parts.resize(8);
    parts.push_back("other tokens");
  }
  return joinOr(parts);
}

std::string describeFound(const antlr4::Token* token) {
  switch (token->getType()) {
    case antlr4::Token::EOF: return "end of file";
    case P::NL: return "end of line";
    default: return "'" + token->getText() + "'";
  }
}

namespace {

struct ItemUsage {
  const char* word;
  const char* usage;
};

const ItemUsage kScopeItems[] = {
    {"kernel", "kernel NAME, ..."}, {"op", "op NAME, ..."}, {"layout", "layout TENSOR: LAYOUT, ..."},
    {"backend", "backend NAME, ..."}, {"where", "where DIM in LO..HI, ..."}};
const ItemUsage kProtocolItems[] = {
    {"seeds", "seeds N or seeds {S1, S2}"}, {"repeats", "repeats N"}, {"dims", "dims DIM in SET, ..."},
    {"values", "values TENSOR ~ DISTRIBUTION | ..., ..."}, {"layouts", "layouts TENSOR in {LAYOUT, ...}, ..."},
    {"cells", "cells all, or cells sample(N) + boundary"}, {"perturb", "perturb NAME | ..."},
    {"case", "case DIM in {N, ...}, TENSOR ~ DISTRIBUTION, ..."}};
const char* kSections = "scope, pre, post, oracle, tolerance, protocol or signature";

template <size_t N>
std::string explainItem(const std::string& word, const ItemUsage (&items)[N], const char* what) {
  for (const auto& item : items)
    if (word == item.word) return std::string("malformed '") + word + "' item; write it as: " + item.usage;
  std::string known;
  for (size_t i = 0; i < N; ++i) known += std::string(i ? (i + 1 == N ? " or " : ", ") : "") + items[i].word;
  return "unknown " + std::string(what) + " '" + word + "'; expected " + known;
}

}  // namespace

void SyntaxErrorListener::reportUnknownItems(antlr4::tree::ParseTree* tree) {
  std::string message;
  antlr4::ParserRuleContext* at = nullptr;
  if (auto* c = dynamic_cast<KContractParser::UnknownSectionContext*>(tree)) {
    at = c->ident();
    message = "unknown section '" + c->ident()->getText() + "'; expected " + kSections;
  } else if (auto* c = dynamic_cast<KContractParser::UnknownScopeItemContext*>(tree)) {
    at = c->ident();
    message = explainItem(c->ident()->getText(), kScopeItems, "scope item");
  } else if (auto* c = dynamic_cast<KContractParser::UnknownProtocolItemContext*>(tree)) {
    at = c->ident();
    message = explainItem(c->ident()->getText(), kProtocolItems, "protocol item");
  }
  if (at) {
    SourceRange r = locator_.range(at);
    if (claimLine(r.begin.line)) diags_.report(DiagCode::UnknownItem, r, message);
    else ++errors_;  // still an error, though its line already has one
  }
  for (size_t i = 0; i < tree->children.size(); ++i) reportUnknownItems(tree->children[i]);
}

bool SyntaxErrorListener::claimLine(uint32_t line) {
  if (std::find(linesWithErrors_.begin(), linesWithErrors_.end(), line) != linesWithErrors_.end()) return false;
  linesWithErrors_.push_back(line);
  ++errors_;
  return true;
}

bool SyntaxErrorListener::reportLexicalErrors(antlr4::CommonTokenStream& tokens) {
  tokens.fill();
  // Brackets nested deeper than any contract needs make ANTLR's full-context prediction
  // slow (it merges prediction contexts as deep as the nesting): refuse them up front.
  int depth = 0;
  const size_t count = tokens.size();
  for (size_t i = 0; i < count; ++i) {
    antlr4::Token* t = tokens.get(i);
    size_t type = t->getType();
    if (type == P::LPAREN || type == P::LBRACK || type == P::LBRACE) ++depth;
    if ((type == P::RPAREN || type == P::RBRACK || type == P::RBRACE) && depth > 0) --depth;
    if (depth > kMaxBracketDepth) {
      diags_.report(DiagCode::TooDeep, locator_.range(t),
                    "brackets nested more than " + std::to_string(kMaxBracketDepth) +
                        " deep; split the expression or block into smaller parts");
      ++errors_;
      return false;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    antlr4::Token* t = tokens.get(i);
    if (t->getType() == KContractLexer::BAD_CHAR) {
      SourceRange r = locator_.range(t);
      if (claimLine(r.begin.line)) diags_.report(DiagCode::BadCharacter, r, "unexpected character '" + t->getText() + "'");
    } else if (t->getType() == KContractLexer::UNTERMINATED_STRING) {
      SourceRange r = locator_.range(t);
      if (claimLine(r.begin.line))
        diags_.report(DiagCode::UnterminatedString, r, "string literal is missing its closing '\"'");
    }
  }
  return true;
}

void SyntaxErrorListener::syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t, size_t,
                                      const std::string& msg, std::exception_ptr) {
  auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
  if (!parser || !offending) return;  // lexer errors cannot happen: BAD_CHAR catches every character
  size_t type = offending->getType();
  if (type == KContractLexer::BAD_CHAR || type == KContractLexer::UNTERMINATED_STRING) return;  // reported already

  // The previous significant token (not a line end): where a missing token belongs.
  antlr4::Token* prev = nullptr;
  auto* stream = dynamic_cast<antlr4::BufferedTokenStream*>(parser->getTokenStream());
  for (ssize_t i = static_cast<ssize_t>(offending->getTokenIndex()) - 1; stream && i >= 0; --i) {
    antlr4::Token* t = stream->get(static_cast<size_t>(i));
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL && t->getType() != P::NL) {
      prev = t;
      break;
    }
  }
  SourceRange where = locator_.range(offending);
  if ((type == antlr4::Token::EOF || type == P::NL) && prev) where = locator_.after(prev);
  if (!claimLine(where.begin.line)) return;

  antlr4::misc::IntervalSet expected = parser->getExpectedTokens();
  if (expected.contains(static_cast<size_t>(P::KW_KCONTRACT)) && expected.size() <= 3) {
    diags_.report(DiagCode::MissingHeader, where,
                  "a .kcontract file must start with the language version, 'kcontract 1'; found " +
                      describeFound(offending));
    return;
  }
  if (type == P::ASSIGN) {
    diags_.report(DiagCode::UnexpectedToken, where,
                  "'=' defines a value only in oracle and tolerance sections; to compare, write '=='");
    return;
  }
  if ((type == P::KW_FORALL || type == P::KW_EXISTS) && prev && prev->getType() != P::LPAREN) {
    diags_.report(DiagCode::UnexpectedToken, where,
                  "a quantifier inside a larger expression needs parentheses: (" + offending->getText() + " ...)");
    return;
  }
  // After something that completes an operand, on the same line, the likeliest mistake is
  // a missing operator or line break.
  bool afterOperand = prev && prev->getLine() == offending->getLine() &&
                      (prev->getType() == P::NAME || prev->getType() == P::INT || prev->getType() == P::FLOAT ||
                       prev->getType() == P::HEXFLOAT || prev->getType() == P::REF || prev->getType() == P::STRING ||
                       prev->getType() == P::RPAREN || prev->getType() == P::RBRACK || isSoftKeyword(prev->getType()));
  if (afterOperand && (dynamic_cast<KContractParser::StmtEndContext*>(parser->getContext()) ||
                       expected.contains(static_cast<size_t>(P::NL)))) {
    diags_.report(DiagCode::UnexpectedToken, where,
                  "unexpected " + describeFound(offending) +
                      ": the statement should end here (a new line or ';') or go on with an operator");
    return;
  }
  std::string text = "expected " + describeExpected(expected, parser->getVocabulary()) + ", found " +
                     describeFound(offending);
  if (expected.isEmpty()) text = "unexpected " + describeFound(offending) + " (" + msg + ")";
  diags_.report(DiagCode::UnexpectedToken, where, text);
}

}  // namespace kc::parse
