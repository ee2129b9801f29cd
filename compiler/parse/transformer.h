#pragma once
// Converts ANTLR parse contexts into the project's AST (Kuzu's Transformer). Internal to the
// parse step: nothing it includes escapes compiler/parse. It also reports the located errors
// a grammar cannot express: whitespace inside names, numbers out of range, the version.
#include <typeinfo>
#include <vector>

#include "KContractParser.h"
#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/parse/locator.h"

namespace kc::parse {

// Children of a parse context, found without the generated accessors (which dynamic_cast
// every child on every call). The transformer sees only trees without syntax errors, whose
// children are rule contexts and terminal nodes, never error nodes.
namespace children {

inline bool isToken(antlr4::tree::ParseTree* t) { return typeid(*t) == typeid(antlr4::tree::TerminalNodeImpl); }
inline antlr4::Token* symbol(antlr4::tree::ParseTree* t) { return static_cast<antlr4::tree::TerminalNode*>(t)->getSymbol(); }

// The n-th child context of rule `rule` (KContractParser::RuleX), or null.
template <class T>
T* rule(antlr4::ParserRuleContext* ctx, size_t rule, size_t n = 0) {
  for (antlr4::tree::ParseTree* c : ctx->children)
    if (!isToken(c) && static_cast<antlr4::ParserRuleContext*>(c)->getRuleIndex() == rule && n-- == 0) return static_cast<T*>(c);
  return nullptr;
}

// Every child context of rule `rule`.
template <class T>
std::vector<T*> rules(antlr4::ParserRuleContext* ctx, size_t rule) {
  std::vector<T*> out;
  for (antlr4::tree::ParseTree* c : ctx->children)
    if (!isToken(c) && static_cast<antlr4::ParserRuleContext*>(c)->getRuleIndex() == rule) out.push_back(static_cast<T*>(c));
  return out;
}

// The n-th child token of type `type`, or null.
inline antlr4::Token* token(antlr4::ParserRuleContext* ctx, size_t type, size_t n = 0) {
  for (antlr4::tree::ParseTree* c : ctx->children)
    if (isToken(c) && symbol(c)->getType() == type && n-- == 0) return symbol(c);
  return nullptr;
}

}  // namespace children

class Transformer {
 public:
  Transformer(const Locator& locator, const antlr4::BufferedTokenStream& tokens, DiagnosticEngine& diags)
      : loc_(locator), tokens_(tokens), diags_(diags) {}

  std::unique_ptr<ast::File> file(KContractParser::FileContext* ctx);

  // How deep an expression may nest, counted on the AST: each operator of a chain such as
  // `a + b + c` is a level, as is each operand nested in another (docs/language.md, "Limits").
  // Every pass after the parser (fmt, dumps, sema, the IR's folds and printers, the
  // evaluators, the SMT encoder) walks expressions recursively on an ordinary thread stack;
  // at this depth each stays well below 8 MiB (release builds overflow it beyond 15,000
  // levels, measured; ASan's frames are about four times larger, so the fuzz targets run on a
  // 64 MiB stack: tests/fuzz/big_stack.h).
  static constexpr size_t kMaxExprDepth = 4096;

 private:
  using P = KContractParser;

  // declarations (transformer.cpp)
  ast::ItemPtr item(P::ItemContext* ctx);
  ast::ItemPtr kernel(P::KernelDeclContext* ctx);
  ast::ItemPtr op(P::OpDeclContext* ctx);
  ast::ItemPtr contract(P::ContractDeclContext* ctx);
  ast::ItemPtr contractClass(P::ClassDeclContext* ctx);
  ast::Signature signature(P::SignatureContext* ctx);
  ast::Param param(P::ParamContext* ctx);
  std::vector<ast::DomainItem> where(P::WhereClauseContext* ctx);
  ast::DomainItem domainItem(P::DomainItemContext* ctx);
  std::vector<ast::SectionPtr> block(P::BlockContext* ctx);
  ast::SectionPtr section(P::SectionContext* ctx);
  ast::ScopeItem scopeItem(P::ScopeItemContext* ctx);
  ast::ProtocolItem protocolItem(P::ProtocolItemContext* ctx);
  ast::SignatureClause signatureClause(P::SignatureClauseContext* ctx);
  ast::Definition definition(P::DefinitionContext* ctx);
  void warnIfEmpty(const ast::Section& section, bool empty);

  // names and literals
  ast::Ident ident(P::IdentContext* ctx);
  ast::QualifiedName qualifiedName(P::QualifiedNameContext* ctx);
  ast::ContractId contractId(P::ContractIdContext* ctx);
  ast::StringLit string(antlr4::Token* token);
  ast::Target target(P::TargetContext* ctx);
  int smallInt(antlr4::Token* token, const char* what);
  std::string text(antlr4::ParserRuleContext* ctx) const;
  void requireTouching(antlr4::ParserRuleContext* ctx, const std::string& text, const char* what);

  // expressions (transformer_expr.cpp)
  ast::ExprPtr expr(P::ExprContext* ctx);
  ast::ExprPtr opExpr(P::OpExprContext* ctx);
  ast::ExprPtr operand(P::OpExprContext* ctx);
  ast::ExprPtr primary(P::OpExprContext* ctx, size_t& end);
  ast::ExprPtr number(antlr4::Token* token);
  ast::Binder binder(P::BinderContext* ctx);
  ast::SetExprPtr setExpr(P::SetExprContext* ctx);
  ast::SetExprPtr setTerm(P::SetTermContext* ctx);
  ast::SetExprPtr setAtom(P::SetAtomContext* ctx);
  ast::SetExprPtr setArgValue(antlr4::tree::ParseTree* value);
  ast::SectionPtr exactTolerance(P::IdentContext* word);

  // False (after reporting it once) when an expression at `at` would nest deeper than
  // kMaxExprDepth with `more` levels below the current one.
  bool withinDepth(size_t more, antlr4::Token* at);

  const Locator& loc_;
  const antlr4::BufferedTokenStream& tokens_;
  DiagnosticEngine& diags_;
  size_t exprDepth_ = 0;    // the AST depth of the expression being built
  bool saidTooDeep_ = false;
};

}  // namespace kc::parse
